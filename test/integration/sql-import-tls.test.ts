/**
 * The SQL import's TLS against a real PostgreSQL server that offers it (scripts/local/postgres.ts `tls`): the server's
 * certificate is checked unless the credentials trust it, the session is really encrypted either way, and switching the
 * import on through the API refuses a certificate it cannot check with a message the admin can act on.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqlConnector } from '../../lambdas/adapters/sql/connector';
import type { LocalPostgres } from '../../scripts/local/postgres';
import type { SqlCredentials } from '../../shared/schemas/master-data-sync';
import { DB_TEST_CERT, DB_TEST_KEY } from '../support/db-test-cert';
import { registeredUser, startTestStack, type TestStack } from '../support/local-stack';
import { postgresSource } from '../support/master-data-sync';

const DB_USER = 'tlsreader';
const DB_PASSWORD = 'Tls-Reader-Pass-8812';

describe('SQL import over TLS (PostgreSQL)', () => {
  let db: LocalPostgres;
  let source: pg.Client;
  let t: TestStack;
  const creds = (trust?: boolean): SqlCredentials => ({
    engine: 'postgres',
    host: db.host,
    port: db.port,
    user: DB_USER,
    password: DB_PASSWORD,
    database: 'books',
    ...(trust === undefined ? {} : { trust_server_certificate: trust }),
  });
  /** Whether the session's own connection is encrypted, as the server sees it. */
  const encrypted = async (connector: ReturnType<typeof createSqlConnector>, c: SqlCredentials) => {
    const session = await connector.open(c);
    try {
      return (await session.query('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()', []))[0]?.ssl;
    } finally {
      await session.close();
    }
  };

  beforeAll(async () => {
    ({ db, source } = await postgresSource({ user: DB_USER, password: DB_PASSWORD, database: 'books', tls: { cert: DB_TEST_CERT, key: DB_TEST_KEY } }));
    t = await startTestStack();
  }, 180_000);
  afterAll(async () => {
    await source?.end();
    await t?.stop();
    await db?.stop();
  });

  it('refuses a certificate no trusted authority signed; connects encrypted once the authority is trusted', async () => {
    const systemOnly = createSqlConnector({ allowPrivateHosts: () => true });
    const refused = await systemOnly.open(creds(false)).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(refused?.message).toBe(
      `The certificate of 127.0.0.1:${db.port} was not accepted (self-signed certificate). Tick Trust the server certificate only for a server with a self-signed certificate on a network you trust.`,
    );
    const withAuthority = createSqlConnector({ allowPrivateHosts: () => true, trust: { ca: [DB_TEST_CERT] } });
    expect(await encrypted(withAuthority, creds(false))).toBe(true);
  });

  it('checks the certificate against the authority the credentials give; a bundle that is no PEM is refused before any connection', async () => {
    const systemOnly = createSqlConnector({ allowPrivateHosts: () => true });
    expect(await encrypted(systemOnly, { ...creds(false), ca_certificate: DB_TEST_CERT })).toBe(true);
    const { api, companyId } = await registeredUser(t.stack, 'sqlca');
    const service = (credential: Record<string, unknown>) => api.post(`/company/service?company_id=${companyId}`, { type: 'sql_import', enabled: true, credential });
    const { trust_server_certificate: _, ...form } = creds();
    const notPem = await service({ ...form, ca_certificate: 'MIIB…copied without its lines' });
    expect(notPem.body).toMatchObject({
      statusCode: 422,
      details: [{ path: ['ca_certificate'], message: 'Paste the certificate as PEM text, from -----BEGIN CERTIFICATE----- to -----END CERTIFICATE-----' }],
    });
    const saved = await service({ ...form, ca_certificate: `\n${DB_TEST_CERT}\n` });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect((await api.get(`/companies`)).body).toMatchObject({ items: [{ company_id: companyId, sql_import: true }] });
    // The stored credentials are what the hourly run connects with: Sync now logs in through the same authority and
    // reaches the database, which answers in its own words, named with the mapping it read for (this database has no
    // tables to import yet)
    const run = await api.post(`/company/service/imports/sync?company_id=${companyId}`, { type: 'sql_import' });
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    expect(run.body).toMatchObject({ outcome: 'failed', error: 'Categories mapping (table categories): relation "categories" does not exist' });
  });

  it('trusting the server certificate connects encrypted too; credentials saved before the choice trust it as they did', async () => {
    const systemOnly = createSqlConnector({ allowPrivateHosts: () => true });
    expect(await encrypted(systemOnly, creds(true))).toBe(true);
    expect(await encrypted(systemOnly, creds(undefined))).toBe(true);
  });

  it('switching the import on checks the certificate: refused on Host unless trusted; the flag follows', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'sqltls');
    const service = (credential: Record<string, unknown>) => api.post(`/company/service?company_id=${companyId}`, { type: 'sql_import', enabled: true, credential });
    const { trust_server_certificate: _, ...form } = creds();
    const checked = await service(form);
    expect(checked.status).toBe(422);
    expect(checked.body).toMatchObject({ details: [{ path: ['host'], message: expect.stringMatching(/^The certificate of 127\.0\.0\.1:\d+ was not accepted \(self-signed certificate\)\./) }] });
    expect((await api.get(`/companies`)).body).toMatchObject({ items: [{ company_id: companyId, sql_import: false }] });

    const trusted = await service({ ...form, trust_server_certificate: true });
    expect(trusted.status, JSON.stringify(trusted.body)).toBe(200);
    expect((await api.get(`/companies`)).body).toMatchObject({ items: [{ company_id: companyId, sql_import: true }] });
    expect((await service({ ...form, trust_server_certificate: 'yes' })).body).toMatchObject({
      statusCode: 422,
      details: [{ path: ['credential', 'trust_server_certificate'], message: 'Must be true or false' }],
    });
  });
});
