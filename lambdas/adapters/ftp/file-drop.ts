/**
 * FTP and FTPS delivery with basic-ftp (docs/decisions.md "Integrations"). Port 990 is implicit FTPS; on any
 * other port (default 21) explicit FTPS (AUTH TLS) is tried first and plain FTP is used only when the server
 * refuses AUTH TLS. Files are written under a temporary name of their own and renamed, so a reader never sees half a
 * file and two exports writing one file at once never clobber each other (`putFile`).
 * Errors become TargetErrors: a refused login or a refused path is permanent; a connection that fails, times
 * out or a 4xx reply ("try again") is transient.
 *
 * The host is resolved once and checked before any connection (core/integrations/host-check.ts: no loopback,
 * private or link-local address unless the deployment allows them); the connection goes to a checked address and
 * TLS verifies the certificate against the host name as typed (servername), not the address.
 *
 * Messages say what the user can act on (host not found, refused, no answer, login refused) and carry the server's
 * own reply text only once it has proven to be an FTP server (logged in): a server of another protocol (a mail or
 * web server on that port) gets a fixed message, never its reply echoed.
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ConnectionOptions } from 'node:tls';
import { Client, FTPError } from 'basic-ftp';
import { TargetError, type FileDrop, type ServerLogin } from '../../core/integrations/ports';
import { resolveAllowedHost, tlsServerName, withEachAddress, type HostResolver, type ResolvedAddress } from '../../core/integrations/host-check';
import { env } from '../../runtime/env';

const TIMEOUT_MS = 15_000;
/**
 * The connection test answers the credentials pop-up's SAVE within this, whatever the server does: each socket's
 * 15 s of silence is per step, and a server that accepts and then drops or stalls (a firewall) could hold a test past
 * the 29 s of the API (API_HANDLER_TIMEOUT_SECONDS), whose 504 would lose the message.
 */
export const TEST_DEADLINE_MS = 20_000;
/** The most of a server's reply text shown (after login). */
const REPLY_MAX = 200;

/** Where the error happened: before the login was accepted (the server may not be an FTP server) or after. */
type Stage = 'connect' | 'session';

function toTargetError(error: unknown, login: ServerLogin, stage: Stage): TargetError {
  if (error instanceof TargetError) return error;
  const where = `${login.host}:${login.port ?? 21}`;
  if (error instanceof FTPError) {
    if (stage === 'session') {
      const text = error.message.replace(/^\d{3}[ -]/, '').replace(/\s+/g, ' ').trim().slice(0, REPLY_MAX) || `FTP error ${error.code}`;
      return new TargetError(`${error.code} ${text}`, error.code >= 400 && error.code < 500);
    }
    // Before the login: only what the code says, never the reply's text.
    if (error.code === 530 || error.code === 331 || error.code === 332) return new TargetError(`${error.code} Login refused: check the user name and password`, false);
    if (error.code === 421) return new TargetError(`421 The server at ${where} is not available now`, true);
    return new TargetError(`The server at ${where} did not answer as an FTP server`, false);
  }
  const code = (error as NodeJS.ErrnoException)?.code;
  const message = String((error as Error)?.message ?? '');
  if (code === 'ECONNREFUSED') return new TargetError(`Connection refused by ${where}`, true);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA') return new TargetError(`Host ${login.host} not found`, code === 'EAI_AGAIN');
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return new TargetError(`Host ${login.host} cannot be reached`, true);
  if (code === 'ETIMEDOUT' || /timeout/i.test(message)) return new TargetError(`No answer from ${where} in time`, true);
  if (code === 'ECONNRESET' || code === 'EPIPE') return new TargetError(`The connection to ${where} was closed`, true);
  // Node's own TLS verdict (certificate, host name, handshake), told by its code: never text the server sent.
  if (/^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_|EPROTO$)/.test(String(code ?? ''))) {
    return new TargetError(`TLS failed: ${message.slice(0, REPLY_MAX)}`, false);
  }
  if (stage === 'connect') return new TargetError(`The server at ${where} did not answer as an FTP server`, false);
  return new TargetError(`FTP failed: the server at ${where} gave an answer that could not be read`, true);
}

/** Connects and logs in to one checked address; TLS verifies the host name as typed. */
async function connectTo(login: ServerLogin, address: ResolvedAddress, trust: TlsTrust): Promise<Client> {
  const port = login.port ?? 21;
  const servername = tlsServerName(login.host);
  const base = { host: address.address, port, user: login.user, password: login.password };
  // basic-ftp keeps these for the data connections too (which go to the control connection's address).
  const secureOptions = () => ({ ...trust, ...(servername ? { servername } : {}) });
  const client = new Client(TIMEOUT_MS);
  if (port === 990) {
    try {
      await client.access({ ...base, secure: 'implicit', secureOptions: secureOptions() });
    } catch (error) {
      client.close();
      throw error;
    }
    return client;
  }
  try {
    await client.access({ ...base, secure: true, secureOptions: secureOptions() });
    return client;
  } catch (error) {
    client.close();
    // 5xx to AUTH TLS: the server has no TLS; anything else (login refused, network) is the answer.
    const refusedTls = error instanceof FTPError && [500, 502, 504, 534, 431].includes(error.code) && !/login|password|user/i.test(error.message);
    if (!refusedTls) throw error;
  }
  const plain = new Client(TIMEOUT_MS);
  try {
    await plain.access({ ...base, secure: false });
  } catch (error) {
    plain.close();
    throw error;
  }
  return plain;
}

/** Certificates trusted besides the system's (tests with their own certificate authority); none in the product. */
export type TlsTrust = Pick<ConnectionOptions, 'ca'>;

export interface FtpFileDropOptions {
  /** Deployment setting INTEGRATIONS_ALLOW_PRIVATE_HOSTS (read at each connection). */
  allowPrivateHosts: () => boolean;
  resolve?: HostResolver;
  trust?: TlsTrust;
  /** TEST_DEADLINE_MS unless a test needs a shorter one. */
  testDeadlineMs?: number;
}

/**
 * One file, written under a temporary name of its own and renamed. Two exports of one document run at the same time
 * (FTP and NSOFT on one server both send its original): a shared temporary name let one overwrite and delete the
 * other's file. The rename replaces the file; a server whose rename refuses an existing name (550/553) gets the
 * file removed and the rename once more. A temporary file left by a failure is removed when it can be.
 */
async function putFile(client: Client, file: { name: string; bytes: Uint8Array }): Promise<void> {
  const temp = `${file.name}.${randomBytes(6).toString('hex')}.part`;
  try {
    await client.uploadFrom(Readable.from(Buffer.from(file.bytes)), temp);
    await client.remove(file.name, true);
    try {
      await client.rename(temp, file.name);
    } catch (error) {
      if (!(error instanceof FTPError) || (error.code !== 550 && error.code !== 553)) throw error;
      await client.remove(file.name, true);
      await client.rename(temp, file.name);
    }
  } catch (error) {
    await client.remove(temp, true).catch(() => undefined);
    throw error;
  }
}

export function createFtpFileDrop(opts: FtpFileDropOptions): FileDrop {
  /** Resolves and checks the host (no connection to a refused one), then logs in to a checked address. */
  async function connect(login: ServerLogin): Promise<Client> {
    const addresses = await resolveAllowedHost(login.host, { allowPrivate: opts.allowPrivateHosts(), resolve: opts.resolve });
    return withEachAddress(addresses, (address) => connectTo(login, address, opts.trust ?? {}));
  }
  async function testLogin(login: ServerLogin): Promise<void> {
    let client: Client | undefined;
    let stage: Stage = 'connect';
    try {
      client = await connect(login);
      stage = 'session';
      await client.list();
    } catch (error) {
      throw toTargetError(error, login, stage);
    } finally {
      client?.close();
    }
  }
  return {
    async test(login) {
      const attempt = testLogin(login);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new TargetError(`No answer from ${login.host}:${login.port ?? 21} in time`, true)), opts.testDeadlineMs ?? TEST_DEADLINE_MS);
      });
      try {
        await Promise.race([attempt, late]);
      } finally {
        clearTimeout(timer);
        // (an attempt past the deadline ends on its own socket timeouts and closes its connection; its outcome is not wanted)
        attempt.catch(() => undefined);
      }
    },
    async upload(login, folder, files) {
      let client: Client | undefined;
      let stage: Stage = 'connect';
      try {
        client = await connect(login);
        stage = 'session';
        await client.ensureDir(folder);
        for (const file of files) await putFile(client, file);
      } catch (error) {
        throw toTargetError(error, login, stage);
      } finally {
        client?.close();
      }
    },
  };
}

export const ftpFileDrop: FileDrop = createFtpFileDrop({ allowPrivateHosts: () => env().INTEGRATIONS_ALLOW_PRIVATE_HOSTS });
