/**
 * "Sync now" against a slow source (the Rivile GAMA stand-in answering its list calls late; a PostgreSQL table read
 * through a view that sleeps): the API call answers within its time budget, well inside API Gateway's 29 s, with a
 * truthful state (`partial`: stopped for now), and hands the rest to the sync queue at once: the continuing job
 * finishes the import in the background (not the schedule's next turn, up to 15 minutes later on AWS), which the
 * status then shows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import type { LocalPostgres } from '../../scripts/local/postgres';
import { postgresSource } from '../support/master-data-sync';
import { SYNC_NOW_BUDGET_MS } from '../../lambdas/core/master-data/sync/service';
import type { ImportStatusView, SyncRunView } from '../../shared/schemas/master-data-sync';
import { apiClient, registeredUser, startTestStack, type TestStack } from '../support/local-stack';

type Api = ReturnType<typeof apiClient>;

const RIVILE_KEY = 'RIVSLOW-3f1d8c2b7a9e';
const DB_USER = 'slowbooks';
const DB_PASSWORD = 'Slow-Db-Pass-8830';
/**
 * GAMA answering slowly: the clients' page takes half the budget, the goods' page three quarters of it, so the goods'
 * page starts inside the budget and cannot end there (each call alone is within the client's own timeout).
 */
const CLIENTS_PAGE_MS = SYNC_NOW_BUDGET_MS / 2;
const GOODS_PAGE_MS = (SYNC_NOW_BUDGET_MS * 3) / 4;

describe('master-data imports: "sync now" with a slow source', () => {
  let t: TestStack;
  let db: LocalPostgres;
  let source: pg.Client;
  let admin: Api;
  let companyId: string;
  const q = () => `company_id=${companyId}`;
  const status = async (type: string) => {
    const r = await admin.get(`/company/service/imports?${q()}`);
    expect(r.status).toBe(200);
    return (r.body as { items: ImportStatusView[] }).items.find((i) => i.type === type)!;
  };

  beforeAll(async () => {
    ({ db, source } = await postgresSource({ user: DB_USER, password: DB_PASSWORD, database: 'slowacc' }));
    await source.query(`CREATE TABLE categories (code text PRIMARY KEY, name text)`);
    await source.query(`INSERT INTO categories VALUES ('FUEL', 'Fuel')`);
    await source.query(`CREATE TABLE suppliers (code text PRIMARY KEY, name text, vat_code text, address text, city text, postcode text, country text, email text)`);
    await source.query(`INSERT INTO suppliers (code, name) VALUES ('DB1', 'Database Supplier UAB')`);
    await source.query(`CREATE TABLE customers (LIKE suppliers)`);
    await source.query(`CREATE TABLE items_data (code text PRIMARY KEY, name text)`);
    await source.query(`INSERT INTO items_data VALUES ('I1', 'Slow paper')`);
    // A slow query: every read of items takes three quarters of the budget (its page and the count of rows without a code).
    await source.query(`CREATE VIEW items AS SELECT d.code, d.name FROM items_data d, (SELECT pg_sleep(${(SYNC_NOW_BUDGET_MS * 3) / 4_000})) AS slow`);
    await source.query(`GRANT SELECT ON ALL TABLES IN SCHEMA public TO ${DB_USER}`);
    t = await startTestStack({ rivileKeys: [RIVILE_KEY] });
    ({ api: admin, companyId } = await registeredUser(t.stack, 'mdslow'));
    for (let i = 1; i <= 3; i++) t.stack.rivile.tables.N08.push({ _creator: 'GAMA', N08_KODAS_KS: `SL${i}`, N08_PAV: `Slow Client ${i}`, N08_RUSIS: '1' });
    t.stack.rivile.tables.N17.push({ _creator: 'GAMA', N17_KODAS_PS: 'SLP1', N17_PAV: 'Slow goods' });
    const on = await admin.post(`/company/service?${q()}`, { type: 'rivile_import', enabled: true, credential: { api_key: RIVILE_KEY } });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await source?.end();
    await t?.stop();
    await db?.stop();
  });

  it('answers within the budget while a page is still being read, and the continuing job finishes the import', async () => {
    t.stack.rivile.delays.GET_N08_LIST = CLIENTS_PAGE_MS;
    t.stack.rivile.delays.GET_N17_LIST = GOODS_PAGE_MS;
    const started = Date.now();
    const r = await admin.post(`/company/service/imports/sync?${q()}`, { type: 'rivile_import' });
    const answeredMs = Date.now() - started;
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    // A correctness bound (API Gateway gives up at 29 s), not a performance figure.
    expect(answeredMs).toBeLessThan(SYNC_NOW_BUDGET_MS + 2_000);
    const run = r.body as SyncRunView;
    // The clients' page was read and written; the goods' page is left to the next run.
    expect(run).toMatchObject({ trigger: 'manual', outcome: 'partial', error: null, finished_at: expect.any(String) });
    expect(run.counts).toEqual({ suppliers: { created: 3, updated: 0, unchanged: 0, rejected: 0 } });
    // Stopped for now, or already continued by the job the call handed it to.
    const partial = await status('rivile_import');
    expect(['partial', 'running']).toContain(partial.last_run!.outcome);
    expect(partial.last_error).toBeNull();

    // The background: the sync queue's job continues it at once, the source still slow.
    await t.stack.syncJobs.idle();
    const done = await status('rivile_import');
    expect(done.last_run).toMatchObject({ trigger: 'manual', outcome: 'done', error: null, started_at: run.started_at });
    expect(done.last_run!.counts).toEqual({
      suppliers: { created: 3, updated: 0, unchanged: 0, rejected: 0 },
      items: { created: 1, updated: 0, unchanged: 0, rejected: 0 },
    });
    expect(done.last_error).toBeNull();
    const items = (await admin.get(`/items?${q()}`)).body as { items: { name: string }[] };
    expect(items.items.map((i) => i.name)).toEqual(['Slow goods']);
  }, 180_000);

  it('answers within the budget while a slow SQL query runs, and the continuing job finishes the import', async () => {
    const creds = { engine: 'postgres', host: db.host, port: db.port, user: DB_USER, password: DB_PASSWORD, database: 'slowacc', allow_unencrypted: true };
    const on = await admin.post(`/company/service?${q()}`, { type: 'sql_import', enabled: true, credential: creds });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    const started = Date.now();
    const r = await admin.post(`/company/service/imports/sync?${q()}`, { type: 'sql_import' });
    const answeredMs = Date.now() - started;
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(answeredMs).toBeLessThan(SYNC_NOW_BUDGET_MS + 2_000);
    const run = r.body as SyncRunView;
    expect(run).toMatchObject({ trigger: 'manual', outcome: 'partial', error: null });
    expect(run.counts).toEqual({
      categories: { created: 1, updated: 0, unchanged: 0, rejected: 0 },
      suppliers: { created: 1, updated: 0, unchanged: 0, rejected: 0 },
    });

    // The continuing job reads on from the items at once, the query still slow (within its own budget).
    await t.stack.syncJobs.idle();
    const done = await status('sql_import');
    expect(done.last_run).toMatchObject({ trigger: 'manual', outcome: 'done', error: null, started_at: run.started_at });
    expect(done.last_run!.counts).toEqual({ ...run.counts, items: { created: 1, updated: 0, unchanged: 0, rejected: 0 } });
    expect(done.last_error).toBeNull();
  }, 180_000);

  it('stops a sync after its page when the import is switched off meanwhile, and starts over when it is switched on again', async () => {
    // 150 clients: two pages of GET_N08_LIST, each answered after 3 s.
    for (let i = 4; i <= 150; i++) t.stack.rivile.tables.N08.push({ _creator: 'GAMA', N08_KODAS_KS: `SL${i}`, N08_PAV: `Slow Client ${i}`, N08_RUSIS: '1' });
    t.stack.rivile.delays.GET_N08_LIST = 3_000;
    t.stack.rivile.delays.GET_N17_LIST = 0;
    const listCalls = () => t.stack.rivile.calls.filter((c) => c.method === 'GET_N08_LIST').length;
    const before = listCalls();
    const syncing = admin.post(`/company/service/imports/sync?${q()}`, { type: 'rivile_import' });
    await new Promise((r) => setTimeout(r, 1_000));
    // The admin switches the import off while its first page is being read.
    const off = await admin.post(`/company/service?${q()}`, { type: 'rivile_import', enabled: false });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    const r = await syncing;
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ outcome: 'partial', error: null });
    await t.stack.syncJobs.idle();
    // Nothing read after the switch-off's page: no second page, no goods, not continued by the job.
    expect(listCalls() - before).toBe(1);
    expect(t.stack.rivile.calls.at(-1)!.method).toBe('GET_N08_LIST');
    expect(await status('rivile_import')).toMatchObject({ enabled: false, last_run: { outcome: 'partial' } });

    // Switched on again: the lease is free at once, and the run reads from the first page (the position was dropped).
    t.stack.rivile.delays.GET_N08_LIST = 0;
    const on = await admin.post(`/company/service?${q()}`, { type: 'rivile_import', enabled: true, credential: { api_key: RIVILE_KEY } });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    const again = await admin.post(`/company/service/imports/sync?${q()}`, { type: 'rivile_import' });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    const run = again.body as SyncRunView;
    expect(run.outcome).toBe('done');
    // The first page again (its rows unchanged), then the rest.
    const clients = run.counts.suppliers!;
    expect(clients).toEqual({ created: 50, updated: 0, unchanged: 100, rejected: 0 });
  }, 180_000);
});
