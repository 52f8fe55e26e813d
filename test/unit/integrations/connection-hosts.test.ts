/**
 * The FTP and SQL adapters (the connection test and every later export or import run): a host on an internal
 * address is refused before any connection unless the deployment allows it, and a server that does not speak the
 * expected protocol is never quoted in the message (docs/security.md). Servers here are plain TCP listeners on
 * 127.0.0.1 that answer like a mail or a web server.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFtpFileDrop, ftpFileDrop } from '../../../lambdas/adapters/ftp/file-drop';
import type { HostResolver } from '../../../lambdas/core/integrations/host-check';
import { sqlConnector } from '../../../lambdas/adapters/sql/connector';
import { TargetError } from '../../../lambdas/core/integrations/ports';
import { resetEnvCache } from '../../../lambdas/runtime/env';
import type { SqlCredentials } from '../../../shared/schemas/master-data-sync';

interface Listener {
  port: number;
  connections: Socket[];
  server: Server;
}

/**
 * A TCP server on 127.0.0.1 that greets with `greeting` (if any) and answers every chunk with `reply`; with
 * `closeAfterReply` (a web server) it answers the first chunk, or after 50 ms of silence, and closes.
 */
async function listener(greeting: string, reply: string, closeAfterReply = false): Promise<Listener> {
  const connections: Socket[] = [];
  const server = createServer((socket) => {
    connections.push(socket);
    socket.on('error', () => undefined);
    if (greeting) socket.write(greeting);
    if (closeAfterReply) setTimeout(() => socket.end(reply), 50).unref();
    socket.on('data', () => {
      if (closeAfterReply) socket.end(reply);
      else socket.write(reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, connections, server };
}

const MAIL_GREETING = '220 mail.internal.example ESMTP Postfix\r\n';
const MAIL_REPLY = '500 5.5.2 Error: command not recognized\r\n';
const WEB_REPLY = 'HTTP/1.1 400 Bad Request\r\nServer: internal-admin/1.0\r\nContent-Length: 0\r\n\r\n';

function setAllowance(on: boolean) {
  process.env.TABLE_NAME ??= 'unit-table';
  process.env.INTEGRATIONS_ALLOW_PRIVATE_HOSTS = on ? '1' : '0';
  resetEnvCache();
}

let mail: Listener;
let web: Listener;
let closedPort: number;
const savedAllowance = process.env.INTEGRATIONS_ALLOW_PRIVATE_HOSTS;
beforeAll(async () => {
  mail = await listener(MAIL_GREETING, MAIL_REPLY);
  web = await listener('', WEB_REPLY, true);
  const spare = await listener('', '');
  closedPort = spare.port;
  await new Promise((resolve) => spare.server.close(resolve));
});
afterAll(async () => {
  for (const l of [mail, web]) {
    for (const s of l.connections) s.destroy();
    await new Promise((resolve) => l.server.close(resolve));
  }
  if (savedAllowance === undefined) delete process.env.INTEGRATIONS_ALLOW_PRIVATE_HOSTS;
  else process.env.INTEGRATIONS_ALLOW_PRIVATE_HOSTS = savedAllowance;
  resetEnvCache();
});
afterEach(() => {
  mail.connections.length = 0;
  web.connections.length = 0;
});

const login = (host: string, port: number) => ({ host, port, user: 'acme', password: 'Secret-Pass-1' });
const sqlCreds = (engine: SqlCredentials['engine'], host: string, port: number): SqlCredentials => ({
  engine,
  host,
  port,
  user: 'reader',
  password: 'Secret-Pass-1',
  database: 'accounting',
});
const failure = (p: Promise<unknown>) => p.then(
  () => {
    throw new Error('expected a failure');
  },
  (e: unknown) => e as TargetError,
);

describe('internal hosts with the allowance off (as in AWS)', () => {
  beforeAll(() => setAllowance(false));

  it('the FTP export run and the connection test refuse 127.0.0.1 and localhost without connecting (permanent)', async () => {
    const files = [{ name: 'a.xml', bytes: new Uint8Array([60, 97, 47, 62]) }];
    for (const host of ['127.0.0.1', 'localhost']) {
      const upload = await failure(ftpFileDrop.upload(login(host, mail.port), '/exports', files));
      expect(upload).toBeInstanceOf(TargetError);
      expect(upload.message).toBe('This host is not allowed');
      expect(upload.transient).toBe(false);
      expect((await failure(ftpFileDrop.test(login(host, mail.port)))).message).toBe('This host is not allowed');
    }
    expect(mail.connections).toHaveLength(0);
  });

  it('the SQL import (test and every run) refuses internal hosts for every engine without connecting', async () => {
    for (const engine of ['postgres', 'mysql', 'mssql'] as const) {
      for (const host of ['127.0.0.1', 'localhost']) {
        const error = await failure(sqlConnector.open(sqlCreds(engine, host, mail.port)));
        expect(error, `${engine} ${host}`).toBeInstanceOf(TargetError);
        expect(error.message).toBe('This host is not allowed');
        expect(error.transient).toBe(false);
      }
    }
    expect(mail.connections).toHaveLength(0);
  });
});

describe('messages after a failed connection (the allowance on, as in local mode)', () => {
  beforeAll(() => setAllowance(true));

  it('FTP: a mail or web server on the port is not quoted; the user reads that it is no FTP server', async () => {
    for (const l of [mail, web]) {
      const error = await failure(ftpFileDrop.test(login('127.0.0.1', l.port)));
      expect(error.message).toBe(`The server at 127.0.0.1:${l.port} did not answer as an FTP server`);
      expect(error.message).not.toMatch(/ESMTP|Postfix|not recognized|HTTP|internal-admin/);
    }
    expect(mail.connections.length).toBeGreaterThan(0);
  });

  it('FTP: a closed port still reads as refused, with the host as typed', async () => {
    const error = await failure(ftpFileDrop.test(login('127.0.0.1', closedPort)));
    expect(error.message).toBe(`Connection refused by 127.0.0.1:${closedPort}`);
    expect(error.transient).toBe(true);
  });

  it('SQL: a web server on the port is not quoted; a closed port reads as refused with the host as typed', async () => {
    expect((await failure(sqlConnector.open(sqlCreds('postgres', '127.0.0.1', web.port)))).message).toBe(
      `The server at 127.0.0.1:${web.port} did not answer as a PostgreSQL server`,
    );
    expect((await failure(sqlConnector.open(sqlCreds('postgres', '127.0.0.1', mail.port)))).message).toBe(
      `The server at 127.0.0.1:${mail.port} did not answer as a PostgreSQL server`,
    );
    for (const engine of ['mysql', 'mssql'] as const) {
      const error = await failure(sqlConnector.open(sqlCreds(engine, '127.0.0.1', web.port)));
      expect(error.message, engine).toBe(`The connection to 127.0.0.1:${web.port} was closed`);
      expect(error.message).not.toMatch(/HTTP|internal-admin/);
    }
    for (const engine of ['postgres', 'mysql', 'mssql'] as const) {
      const error = await failure(sqlConnector.open(sqlCreds(engine, 'localhost', closedPort)));
      expect(error.message, engine).toBe(`Connection refused by localhost:${closedPort}`);
      expect(error.transient).toBe(true);
    }
  });
});

/** A certificate for ftp.test only (self-signed, trusted by the tests that pass it as `ca`). */
const FTP_TEST_CERT = `-----BEGIN CERTIFICATE-----
MIIBkjCCATigAwIBAgIUHaQD07ZFisKItEF7SDMhdGf8OVQwCgYIKoZIzj0EAwIw
EzERMA8GA1UEAwwIZnRwLnRlc3QwIBcNMjYxMjAyMTAyOTE2WhgPMjEyNjExMDgx
MDI5MTZaMBMxETAPBgNVBAMMCGZ0cC50ZXN0MFkwEwYHKoZIzj0CAQYIKoZIzj0D
AQcDQgAEVbOjw9o7CHW0r8BeDKWZdvZzprbVsx66o33tmuTTudaM0Ur3zVk7AXsK
G/J3r9DJjRQAIEzXlW7FPGj+iX9456NoMGYwHQYDVR0OBBYEFIwk/axcoC77KDBz
y/AQbYSsmm+gMB8GA1UdIwQYMBaAFIwk/axcoC77KDBzy/AQbYSsmm+gMA8GA1Ud
EwEB/wQFMAMBAf8wEwYDVR0RBAwwCoIIZnRwLnRlc3QwCgYIKoZIzj0EAwIDSAAw
RQIhAPQZcm8M2h63AJZVVpqPA4JA3xipHydEgpYNsLm7lqJvAiBqu/HUnSekh/kv
xpKyL1eApAAJuo+vrYDTr5uL0XHsYA==
-----END CERTIFICATE-----
`;
const FTP_TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgOBdDnSgIdspPQ+WJ
f2WP9JfIXSOfGnmkodKyssyLk2ahRANCAARVs6PD2jsIdbSvwF4MpZl29nOmttWz
Hrqjfe2a5NO51ozRSvfNWTsBewob8nev0MmNFAAgTNeVbsU8aP6Jf3jn
-----END PRIVATE KEY-----
`;

/**
 * An explicit-FTPS server on 127.0.0.1: AUTH TLS upgrades with the ftp.test certificate, then every login is
 * refused (530). Records the TLS server name each client asked for.
 */
async function ftpsServer(): Promise<Listener & { serverNames: (string | false | null)[] }> {
  const connections: Socket[] = [];
  const serverNames: (string | false | null)[] = [];
  const server = createServer((raw) => {
    connections.push(raw);
    raw.on('error', () => undefined);
    raw.write('220 FTPS test server\r\n');
    raw.once('data', (chunk) => {
      if (!/^AUTH TLS/i.test(chunk.toString())) return raw.end('500 Say AUTH TLS\r\n');
      raw.write('234 Go ahead\r\n', () => {
        const secure = new TLSSocket(raw, { isServer: true, key: FTP_TEST_KEY, cert: FTP_TEST_CERT });
        secure.on('error', () => undefined);
        secure.on('secure', () => serverNames.push(secure.servername));
        secure.on('data', (data) => {
          const line = data.toString();
          if (/^USER|^PASS/i.test(line)) secure.write('530 Login incorrect.\r\n');
          else secure.write('200 OK\r\n');
        });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, connections, server, serverNames };
}

describe('FTPS: the connection goes to the checked address, TLS is checked against the name as typed', () => {
  let ftps: Awaited<ReturnType<typeof ftpsServer>>;
  beforeAll(async () => {
    ftps = await ftpsServer();
  });
  afterAll(async () => {
    for (const s of ftps.connections) s.destroy();
    await new Promise((resolve) => ftps.server.close(resolve));
  });
  /** ftp.test and wrong.test both resolve to 127.0.0.1 here; the names are resolved once, by this resolver. */
  const resolved: string[] = [];
  const resolve: HostResolver = async (host) => {
    resolved.push(host);
    return [{ address: '127.0.0.1', family: 4 }];
  };
  const drop = createFtpFileDrop({ allowPrivateHosts: () => true, resolve, trust: { ca: [FTP_TEST_CERT] } });

  it('sends the host name as TLS server name and accepts its certificate (the login answer is then the server one)', async () => {
    const error = await failure(drop.test(login('ftp.test', ftps.port)));
    expect(error.message).toBe('530 Login refused: check the user name and password');
    expect(ftps.serverNames).toContain('ftp.test');
    expect(resolved).toEqual(['ftp.test']);
  });

  it('refuses a certificate that does not name the host as typed, though the address is the same', async () => {
    const error = await failure(drop.test(login('wrong.test', ftps.port)));
    expect(error.message).toMatch(/^TLS failed: Hostname\/IP does not match certificate's altnames: Host: wrong\.test/);
    expect(error.transient).toBe(false);
  });

  it('refuses an untrusted certificate (no trust given: the system store only)', async () => {
    const strict = createFtpFileDrop({ allowPrivateHosts: () => true, resolve });
    const error = await failure(strict.test(login('ftp.test', ftps.port)));
    expect(error.message).toMatch(/^TLS failed: self[- ]signed certificate/);
  });
});
