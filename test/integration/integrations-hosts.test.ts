/**
 * Integration hosts on internal addresses (docs/security.md): with the deployment setting off, as in AWS, POST
 * /company/service refuses an FTP, NSOFT or SQL host that is or resolves to a loopback, link-local or private
 * address with a 422 on the Host field, before any connection (a listener on 127.0.0.1 sees none).
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredUser, startTestStack, type TestStack } from '../support/local-stack';

type Api = Awaited<ReturnType<typeof registeredUser>>['api'];
interface ErrorBody {
  message: string;
  details: { path: string[]; message: string }[];
}

const NOT_ALLOWED = 'This host is not allowed';

describe('integration hosts on internal addresses, the allowance off (as in AWS)', () => {
  let t: TestStack;
  let admin: Api;
  let companyId: string;
  let listener: Server;
  let port: number;
  /** Connections the listener on 127.0.0.1 received: a refused host must not be connected to. */
  const connections: Socket[] = [];

  beforeAll(async () => {
    t = await startTestStack({ allowPrivateHosts: false });
    const u = await registeredUser(t.stack, 'hosts');
    admin = u.api;
    companyId = u.companyId;
    listener = createServer((socket) => {
      connections.push(socket);
      // Speaks like a mail server: an echo of this text would tell the user what listens here.
      socket.write('220 internal.example ESMTP ready\r\n');
      socket.on('data', () => socket.write('500 Error: command not recognized\r\n'));
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as { port: number }).port;
  }, 120_000);
  afterAll(async () => {
    for (const s of connections) s.destroy();
    await new Promise((resolve) => listener?.close(resolve));
    await t?.stop();
  });

  const service = (body: unknown) => admin.post(`/company/service?company_id=${companyId}`, body);
  const companyNow = async () =>
    ((await admin.get('/companies')).body as { items: (Record<string, unknown> & { company_id: string })[] }).items.find((c) => c.company_id === companyId)!;

  function expectRefused(res: { status: number; body: unknown }, label: string) {
    expect(res.status, `${label}: ${JSON.stringify(res.body)}`).toBe(422);
    const body = res.body as ErrorBody;
    expect(body.message, label).toBe(NOT_ALLOWED);
    expect(body.details, label).toEqual([{ path: ['host'], message: NOT_ALLOWED }]);
  }

  it('refuses FTP and NSOFT hosts on loopback, link-local and private addresses, and names that resolve there, without connecting', async () => {
    const hosts: [string, number][] = [
      ['127.0.0.1', port],
      ['localhost', port],
      ['2130706433', port], // 127.0.0.1 written as one number
      ['169.254.169.254', 80],
      ['10.0.0.1', 21],
      ['192.168.1.1', 21],
      ['0.0.0.0', port],
    ];
    for (const [host, p] of hosts) {
      for (const type of ['ftp_export', 'nsoft_export']) {
        expectRefused(await service({ type, enabled: true, credential: { host, user: 'acme', password: 'secret-pass', port: p } }), `${type} ${host}:${p}`);
      }
    }
    expect(connections).toHaveLength(0);
    const company = await companyNow();
    expect(company.ftp_export).toBe(false);
    expect(company.nsoft_export).toBe(false);
    // Nothing stored: switching on again without credentials finds none.
    const again = await service({ type: 'ftp_export', enabled: true });
    expect(again.status).toBe(422);
    expect((again.body as ErrorBody).message).toBe('Credentials are required to switch this integration on');
  });

  it('refuses SQL import hosts on internal addresses for every engine, without connecting', async () => {
    const cases: [string, string, number][] = [
      ['postgres', '127.0.0.1', port],
      ['mysql', 'localhost', port],
      ['mssql', '127.0.0.1', port],
      ['postgres', '169.254.169.254', 5432],
      ['mysql', '172.16.0.5', 3306],
      ['mssql', '100.64.0.1', 1433],
    ];
    for (const [engine, host, p] of cases) {
      const res = await service({ type: 'sql_import', enabled: true, credential: { engine, host, port: p, user: 'reader', password: 'secret-pass', database: 'accounting' } });
      expectRefused(res, `${engine} ${host}:${p}`);
    }
    expect(connections).toHaveLength(0);
    expect((await companyNow()).sql_import).toBe(false);
  });
});
