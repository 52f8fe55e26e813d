/**
 * Master-data imports through the real local API against a real PostgreSQL server (started by the test, see
 * scripts/local/postgres.ts) and the Rivile GAMA stand-in: switching on with a connection test, the schedule's job
 * and "sync now", upserts by code marked external (DB), the display-only-imported flag, and who may do what.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { handler as scheduleJob } from '../../lambdas/jobs/sync-master-data';
import { sqlConnector } from '../../lambdas/adapters/sql/connector';
import { registerUser } from '../../scripts/local/seed';
import type { LocalPostgres } from '../../scripts/local/postgres';
import type { ImportStatusView } from '../../shared/schemas/master-data-sync';
import { addMembership, apiClient, newUser, registeredUser, signIn, startTestStack, subOf, type TestStack } from '../support/local-stack';
import { allPages, postgresSource, syncUntilDone } from '../support/master-data-sync';

type Api = ReturnType<typeof apiClient>;
type Stakeholder = { id: string; name: string; code: string; external: boolean; vat_id: string; city: string; type: string };
type PageBody<T> = { items: T[]; next: string | null };

const DB_USER = 'bookkeeper';
const DB_PASSWORD = 'Db-Secret-Pass-5521';
const RIVILE_KEY = 'RIVIMP1-7c2e9a0b4d6f8e1a';

describe('master-data imports: SQL (PostgreSQL) and Rivile', () => {
  let t: TestStack;
  let db: LocalPostgres;
  let source: pg.Client;
  let admin: Api;
  let companyId: string;
  const q = () => `company_id=${companyId}`;
  const seen: string[] = [];
  // The test's server offers no TLS: the credentials allow an unencrypted connection, as the pop-up's box does.
  const creds = (password = DB_PASSWORD) => ({ engine: 'postgres', host: db.host, port: db.port, user: DB_USER, password, database: 'accounting', allow_unencrypted: true });
  const service = async (body: unknown, api: Api = admin) => {
    const r = await api.post(`/company/service?${q()}`, body);
    seen.push(JSON.stringify(r.body));
    return r;
  };
  const statuses = async (api: Api = admin) => {
    const r = await api.get(`/company/service/imports?${q()}`);
    seen.push(JSON.stringify(r.body));
    return r;
  };
  const status = async (type: string) => ((await statuses()).body as { items: ImportStatusView[] }).items.find((i) => i.type === type)!;
  const syncNow = (type: string) => syncUntilDone(admin, companyId, type);
  const allStakeholders = (query: string) => allPages<Stakeholder>(admin, `/stakeholders?${q()}&${query}`);

  beforeAll(async () => {
    ({ db, source } = await postgresSource({ user: DB_USER, password: DB_PASSWORD, database: 'accounting' }));
    await source.query(`CREATE TABLE suppliers (code text PRIMARY KEY, name text NOT NULL, vat_code text, address text, city text, postcode text, country text, email text)`);
    await source.query(
      `INSERT INTO suppliers SELECT 'S' || lpad(i::text, 5, '0'), 'Supplier ' || i || ' UAB', 'LT' || (100000000 + i), 'Gedimino pr. ' || i, 'Vilnius', '0' || (1000 + i), 'LT', 's' || i || '@example.lt' FROM generate_series(1, 1000) AS i`,
    );
    // Customers in a table of their own naming: the mapping says where.
    await source.query(`CREATE SCHEMA sales`);
    await source.query(`CREATE TABLE sales.clients (client_no integer PRIMARY KEY, title text, vat text)`);
    await source.query(`INSERT INTO sales.clients VALUES (7, 'Pirkėjas Pirmas UAB', 'LT700007'), (12, 'Second Buyer AB', NULL), (30, 'X', NULL)`);
    await source.query(`CREATE TABLE categories (code text PRIMARY KEY, name text)`);
    await source.query(`INSERT INTO categories VALUES ('FUEL', 'Fuel'), ('OFF', 'Office supplies')`);
    await source.query(`CREATE TABLE items (code text PRIMARY KEY, name text)`);
    await source.query(`INSERT INTO items VALUES ('P1', 'Paper A4'), ('P2', 'Diesel fuel')`);
    await source.query(`GRANT USAGE ON SCHEMA sales TO ${DB_USER}; GRANT SELECT ON ALL TABLES IN SCHEMA public, sales TO ${DB_USER}`);

    t = await startTestStack({ rivileKeys: [RIVILE_KEY] });
    const u = await registeredUser(t.stack, 'mdsync');
    admin = u.api;
    companyId = u.companyId;
  }, 180_000);
  afterAll(async () => {
    await source?.end();
    await t?.stop();
    await db?.stop();
  });

  it('refuses a wrong password with the server message on Host; the flag stays off and nothing is stored', async () => {
    const res = await service({ type: 'sql_import', enabled: true, credential: creds('wrong-password') });
    expect(res.status).toBe(422);
    const body = res.body as { message: string; details: { path: string[]; message: string }[] };
    expect(body.message).toMatch(/password authentication failed/);
    expect(body.details).toEqual([{ path: ['host'], message: body.message }]);
    const missing = await service({ type: 'sql_import', enabled: true, credential: { host: db.host, user: DB_USER, password: 'x' } });
    expect(missing.status).toBe(422);
    expect((missing.body as { details: { path: string[]; message: string }[] }).details).toEqual(
      expect.arrayContaining([{ path: ['database'], message: 'Required field' }, expect.objectContaining({ path: ['engine'] })]),
    );
    expect((await service({ type: 'sql_import', enabled: true })).status).toBe(422);
    const s = await status('sql_import');
    expect(s).toMatchObject({ enabled: false, connection: null, last_run: null });
  });

  it('refuses a server without TLS unless the credentials allow an unencrypted connection; the flag stays off', async () => {
    const { allow_unencrypted: _, ...form } = creds();
    const refused = await service({ type: 'sql_import', enabled: true, credential: form });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      details: [
        {
          path: ['host'],
          message: `127.0.0.1:${db.port} offers no encrypted connection (TLS). Tick Allow an unencrypted connection only for a server on a network you trust.`,
        },
      ],
    });
    expect(await status('sql_import')).toMatchObject({ enabled: false, connection: null });
    expect((await service({ type: 'sql_import', enabled: true, credential: { ...form, allow_unencrypted: 'no' } })).body).toMatchObject({
      statusCode: 422,
      details: [{ path: ['credential', 'allow_unencrypted'], message: 'Must be true or false' }],
    });
    // Credentials saved before the choice existed (no allow_unencrypted stored) read such a server as they did.
    const legacy = await sqlConnector.open({ engine: 'postgres', host: db.host, port: db.port, user: DB_USER, password: DB_PASSWORD, database: 'accounting' });
    await legacy.close();
    await expect(sqlConnector.open({ ...form, engine: 'postgres', allow_unencrypted: false })).rejects.toThrow(/offers no encrypted connection/);
  });

  it('opens read-only sessions: the import cannot write to the source', async () => {
    const session = await sqlConnector.open({ engine: 'postgres', host: db.host, port: db.port, user: DB_USER, password: DB_PASSWORD, database: 'accounting' });
    try {
      await expect(session.query(`UPDATE suppliers SET name = 'changed' WHERE code = $1`, ['S00001'])).rejects.toThrow(/read-only transaction/);
      expect(await session.query('SELECT count(*)::int AS n FROM suppliers', [])).toEqual([{ n: 1000 }]);
    } finally {
      await session.close();
    }
  });

  it('switches the SQL import on after a real connection test and keeps the mapping the admin saves', async () => {
    const on = await service({ type: 'sql_import', enabled: true, credential: creds() });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    expect(on.body).toMatchObject({ sql_import: true });
    const before = await status('sql_import');
    expect(before).toMatchObject({ enabled: true, connection: { engine: 'postgres', host: db.host, database: 'accounting' } });
    const mapping = {
      ...before.mapping!,
      customers: { enabled: true, table: 'sales.clients', code: 'client_no', name: 'title', vat_id: 'vat', street: '', city: '', zipcode: '', country: '', email: '' },
    };
    const bad = await admin.put(`/company/service/sql/mapping?${q()}`, { mapping: { ...mapping, items: { ...mapping.items, table: 'items; DROP TABLE items' } } });
    expect(bad.status).toBe(422);
    // Checked against the database before it is saved: a column it does not have is refused on its field
    const missing = await admin.put(`/company/service/sql/mapping?${q()}`, { mapping: { ...mapping, customers: { ...mapping.customers, vat_id: 'vat_no' } } });
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({
      message: 'Customers VAT ID column: column "vat_no" does not exist',
      details: [{ path: ['customers', 'vat_id'], message: 'Customers VAT ID column: column "vat_no" does not exist' }],
    });
    expect((await status('sql_import')).mapping).toEqual(before.mapping);
    const saved = await admin.put(`/company/service/sql/mapping?${q()}`, { mapping });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toEqual({ mapping, unchecked: null });
    expect((await status('sql_import')).mapping).toEqual(mapping);
  });

  it('imports 1,000 suppliers in one scheduled run, marked external; customers, categories and items too', async () => {
    await scheduleJob();
    const s = await status('sql_import');
    expect(s.last_run).toMatchObject({ trigger: 'schedule', outcome: 'done', error: null });
    expect(s.last_run!.counts).toEqual({
      categories: { created: 2, updated: 0, unchanged: 0, rejected: 0 },
      suppliers: { created: 1000, updated: 0, unchanged: 0, rejected: 0 },
      customers: { created: 2, updated: 0, unchanged: 0, rejected: 1 },
      items: { created: 2, updated: 0, unchanged: 0, rejected: 0 },
    });
    expect(s.last_run!.rejected_examples).toEqual(['customers: 30: name shorter than 2 characters']);
    const suppliers = await allStakeholders('type=supplier&with_external_data=1');
    expect(suppliers).toHaveLength(1000);
    expect(suppliers.every((x) => x.external)).toBe(true);
    expect(suppliers.find((x) => x.code === 'S00042')).toMatchObject({ name: 'Supplier 42 UAB', vat_id: 'LT100000042', city: 'Vilnius' });
    const customers = await allStakeholders('type=customer&with_external_data=1');
    expect(customers.map((c) => [c.code, c.name, c.external]).sort()).toEqual([
      ['12', 'Second Buyer AB', true],
      ['7', 'Pirkėjas Pirmas UAB', true],
    ]);
    const categories = (await admin.get(`/categories?${q()}&with_external_data=1`)).body as PageBody<{ name: string; external: boolean }>;
    expect(categories.items.map((c) => [c.name, c.external])).toEqual([
      ['Fuel', true],
      ['Office supplies', true],
    ]);
    const items = (await admin.get(`/items?${q()}`)).body as PageBody<{ name: string; external: boolean }>;
    expect(items.items.map((i) => [i.name, i.external]).sort()).toEqual([
      ['Diesel fuel', true],
      ['Paper A4', true],
    ]);
    // Not due again right after a complete run.
    await scheduleJob();
    expect((await status('sql_import')).last_run!.started_at).toBe(s.last_run!.started_at);
  }, 300_000);

  it('updates a changed row on "sync now", creates nothing new, and never deletes what left the source', async () => {
    await source.query(`UPDATE suppliers SET name = 'Renamed Supplier UAB', city = 'Kaunas' WHERE code = 'S00500'`);
    await source.query(`DELETE FROM suppliers WHERE code = 'S00999'`);
    const run = await syncNow('sql_import');
    expect(run).toMatchObject({ trigger: 'manual', outcome: 'done', error: null });
    expect(run.counts.suppliers).toEqual({ created: 0, updated: 1, unchanged: 998, rejected: 0 });
    expect(run.counts.customers).toEqual({ created: 0, updated: 0, unchanged: 2, rejected: 1 });
    expect(run.counts.categories).toEqual({ created: 0, updated: 0, unchanged: 2, rejected: 0 });
    const suppliers = await allStakeholders('type=supplier&with_external_data=1');
    expect(suppliers).toHaveLength(1000);
    expect(suppliers.find((x) => x.code === 'S00500')).toMatchObject({ name: 'Renamed Supplier UAB', city: 'Kaunas', external: true });
    expect(suppliers.find((x) => x.code === 'S00999')).toBeDefined();
    const again = await syncNow('sql_import');
    expect(again.counts.suppliers).toEqual({ created: 0, updated: 0, unchanged: 999, rejected: 0 });
  }, 300_000);

  it('with "display only imported" on, GET stakeholders answers only imported suppliers', async () => {
    const own = await admin.post(`/stakeholder?${q()}`, { type: 'supplier', name: 'Own Supplier MB', code: 'OWN-1' });
    expect(own.status).toBe(201);
    expect((await allStakeholders('type=supplier&with_external_data=1&search_name=Own')).map((x) => x.code)).toEqual(['OWN-1']);
    expect((await service({ type: 'display_imported_stakeholders', enabled: true })).status).toBe(200);
    const onlyImported = await allStakeholders('type=supplier&with_external_data=1&search_name=Supplier');
    expect(onlyImported.length).toBe(1000);
    expect(onlyImported.every((x) => x.external)).toBe(true);
    expect(onlyImported.some((x) => x.code === 'OWN-1')).toBe(false);
    // Without with_external_data too (the flag wins).
    const plain = (await admin.get(`/stakeholders?${q()}&type=supplier&search_name=Own`)).body as PageBody<Stakeholder>;
    expect(plain.items).toEqual([]);
    expect((await service({ type: 'display_imported_stakeholders', enabled: false })).status).toBe(200);
    expect((await allStakeholders('type=supplier&with_external_data=1&search_name=Own')).map((x) => x.code)).toEqual(['OWN-1']);
  }, 120_000);

  it('keeps a failed run as the last error, naming the mapping, visible in the status', async () => {
    const s = await status('sql_import');
    // The table went away in the database after the mapping was saved
    await source.query('ALTER TABLE items RENAME TO items_moved');
    const run = await syncNow('sql_import');
    expect(run.outcome).toBe('failed');
    expect(run.error).toMatch(/^Items mapping \(table items\): relation "items" does not exist/);
    const after = await status('sql_import');
    expect(after.last_error).toMatchObject({ message: run.error });
    // The mapping saved again (checked: the table is back in the database) starts the next run over
    await source.query('ALTER TABLE items_moved RENAME TO items');
    expect((await admin.put(`/company/service/sql/mapping?${q()}`, { mapping: s.mapping })).status).toBe(200);
    const fixed = await syncNow('sql_import');
    expect(fixed.outcome).toBe('done');
    // A saved mapping starts over: the run does not continue the failed one from where it stopped
    expect(fixed.started_at).not.toBe(run.started_at);
    expect(fixed.counts.suppliers?.unchanged).toBe(999);
    expect((await status('sql_import')).last_error).toMatchObject({ message: run.error });
  }, 300_000);

  it('imports Rivile clients (GET_N08_LIST, pages of 100) and items (GET_N17_LIST) as external records', async () => {
    const n08 = t.stack.rivile.tables.N08;
    for (let i = 1; i <= 130; i++) {
      n08.push({ _creator: 'GAMA', N08_KODAS_KS: `K${i}`, N08_PAV: `Rivile Client ${i}`, N08_PVM_KODAS: `LT9${i}`, N08_RUSIS: i <= 100 ? '1' : '2', N08_SALIS_K: 'LT' });
    }
    n08.push({ _creator: 'GAMA', N08_KODAS_KS: 'KBOTH', N08_PAV: 'Both Ways UAB', N08_RUSIS: '3' });
    t.stack.rivile.tables.N17.push({ _creator: 'GAMA', N17_KODAS_PS: 'PREK1', N17_PAV: 'Kava pupelės' }, { _creator: 'GAMA', N17_KODAS_PS: 'PREK2', N17_PAV: 'Arbata' });
    const wrong = await service({ type: 'rivile_import', enabled: true, credential: { api_key: 'RIVXXX1-0000000000' } });
    expect(wrong.status).toBe(422);
    expect((wrong.body as { details: { path: string[] }[] }).details[0]!.path).toEqual(['api_key']);
    const on = await service({ type: 'rivile_import', enabled: true, credential: { api_key: RIVILE_KEY } });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    expect(on.body).toMatchObject({ rivile_import: true });
    const callsBefore = t.stack.rivile.calls.length;
    const run = await syncNow('rivile_import');
    expect(run).toMatchObject({ outcome: 'done', error: null });
    expect(run.counts.suppliers).toEqual({ created: 101, updated: 0, unchanged: 0, rejected: 0 });
    expect(run.counts.customers).toEqual({ created: 31, updated: 0, unchanged: 0, rejected: 0 });
    expect(run.counts.items).toEqual({ created: 2, updated: 0, unchanged: 0, rejected: 0 });
    const calls = t.stack.rivile.calls.slice(callsBefore).map((c) => c.method);
    expect(calls).toEqual(['GET_N08_LIST', 'GET_N08_LIST', 'GET_N17_LIST']);
    const customers = await allStakeholders('type=customer&with_external_data=1&search_name=Rivile');
    expect(customers).toHaveLength(30);
    expect(customers.every((c) => c.external)).toBe(true);
    const both = await allStakeholders('with_external_data=1&search_name=Both');
    expect(both.map((b) => b.type).sort()).toEqual(['customer', 'supplier']);
    const second = await syncNow('rivile_import');
    expect(second.counts.suppliers).toEqual({ created: 0, updated: 0, unchanged: 101, rejected: 0 });
    const rivile = await status('rivile_import');
    expect(rivile).toMatchObject({ enabled: true, last_run: { outcome: 'done' } });
  }, 300_000);

  it('lets only the company admin read the status, save the mapping or sync: anonymous 401, basic member and another company 403', async () => {
    const anon = apiClient(t.stack.apiUrl);
    expect((await anon.get(`/company/service/imports?${q()}`)).status).toBe(401);
    expect((await anon.post(`/company/service/imports/sync?${q()}`, { type: 'sql_import' })).status).toBe(401);
    expect((await anon.put(`/company/service/sql/mapping?${q()}`, { mapping: {} })).status).toBe(401);
    const other = await registeredUser(t.stack, 'mdsyncother');
    const basicUser = newUser('mdsyncbasic');
    await registerUser(t.stack, basicUser);
    const basicToken = await signIn(t.stack, basicUser);
    await addMembership(subOf(basicToken), companyId, 'basic');
    const basic = apiClient(t.stack.apiUrl, basicToken);
    const mapping = (await status('sql_import')).mapping;
    for (const api of [other.api, basic]) {
      expect((await statuses(api)).status).toBe(403);
      expect((await api.post(`/company/service/imports/sync?${q()}`, { type: 'sql_import' })).status).toBe(403);
      expect((await api.put(`/company/service/sql/mapping?${q()}`, { mapping })).status).toBe(403);
      expect((await service({ type: 'sql_import', enabled: false }, api)).status).toBe(403);
      expect((await service({ type: 'rivile_import', enabled: false }, api)).status).toBe(403);
    }
    // Another company's admin syncing their own company touches nothing here.
    const theirs = await other.api.post(`/company/service/imports/sync?company_id=${other.companyId}`, { type: 'sql_import' });
    expect(theirs.status).toBe(422);
    const theirStatus = (await other.api.get(`/company/service/imports?company_id=${other.companyId}`)).body as { items: ImportStatusView[] };
    expect(theirStatus.items.map((i) => [i.type, i.enabled, i.last_run])).toEqual([
      ['sql_import', false, null],
      ['rivile_import', false, null],
    ]);
    expect((await status('sql_import')).enabled).toBe(true);
    // Bad input: 4xx, never 500.
    expect((await admin.post(`/company/service/imports/sync?${q()}`, { type: 'ftp_export' })).status).toBe(422);
  });

  it('switches off, deletes the credentials, stops the schedule; no answer ever carried a password or key', async () => {
    const off = await service({ type: 'sql_import', enabled: false });
    expect(off.body).toMatchObject({ sql_import: false });
    expect((await status('sql_import')).enabled).toBe(false);
    const r = await admin.post(`/company/service/imports/sync?${q()}`, { type: 'sql_import' });
    expect(r.status).toBe(422);
    expect((await service({ type: 'sql_import', enabled: true })).status).toBe(422);
    for (const body of seen) {
      expect(body).not.toContain(DB_PASSWORD);
      expect(body).not.toContain(RIVILE_KEY);
    }
  });
});
