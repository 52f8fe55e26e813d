/**
 * The SQL import against a legacy PostgreSQL database (real server, scripts/local/postgres.ts) through the real local
 * API: an SQL_ASCII database holding Windows-1257 bytes next to UTF-8, rows without a code, source rows that the
 * product compares as one (codes without dashes, item names without case and accents), and a connection cut under
 * a session.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { createSqlConnector } from '../../lambdas/adapters/sql/connector';
import { sqsSyncQueue } from '../../lambdas/adapters/sqs/sync-queue';
import { runSchedule } from '../../lambdas/core/master-data/sync/service';
import { syncDeps } from '../../lambdas/http/company/sync-deps';
import { depsFor } from '../../lambdas/runtime/deps';
import type { LocalPostgres } from '../../scripts/local/postgres';
import type { ImportStatusView } from '../../shared/schemas/master-data-sync';
import { registeredUser, startTestStack, type TestStack } from '../support/local-stack';
import { allPages, postgresSource, syncUntilDone } from '../support/master-data-sync';

type Api = Awaited<ReturnType<typeof registeredUser>>['api'];

const DB_USER = 'legacyreader';
const DB_PASSWORD = 'Legacy-Secret-7731';
/** Windows-1257 bytes: "Šiaulių energija" (Š 0xD0, ų 0xF8), "Kėdainių" (ė 0xEB), "Ąžuolas" (Ą 0xC0, ž 0xFE). */
const SIAULIU = 'd06961756c69f820656e657267696a61';
const KEDAINIU = '4beb6461696e69f820554142';
const AZUOLAS = 'c0fe756f6c6173204d42';
/** 0xA1 is not a Windows-1257 character (nor UTF-8): this name cannot be read. */
const UNREADABLE = '4261642041a1206e616d65';
const bytes = (hex: string) => `convert_from('\\x${hex}'::bytea, 'SQL_ASCII')`;

describe('SQL import of a legacy (SQL_ASCII) PostgreSQL database', () => {
  let t: TestStack;
  let db: LocalPostgres;
  let source: pg.Client;
  let admin: Api;
  let companyId: string;
  const q = () => `company_id=${companyId}`;
  const syncNow = () => syncUntilDone(admin, companyId, 'sql_import');
  const all = <T,>(path: string, query = '') => allPages<T>(admin, `${path}?${q()}${query}`);

  beforeAll(async () => {
    ({ db, source } = await postgresSource({
      user: DB_USER,
      password: DB_PASSWORD,
      database: 'legacy',
      createOptions: "ENCODING 'SQL_ASCII' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0",
    }));
    const cols = 'code text, name text, vat_code text, address text, city text, postcode text, country text, email text';
    await source.query(`CREATE TABLE suppliers (${cols})`);
    await source.query(`INSERT INTO suppliers (code, name, city) SELECT 'S' || lpad(i::text, 5, '0'), 'Supplier ' || i || ' UAB', 'Vilnius' FROM generate_series(1, 600) AS i`);
    // The first page (500 rows in key order) holds a Windows-1257 name, and its last row's code is Windows-1257 too
    // ('S00498' + Š), so the second page continues after a key that is not UTF-8.
    await source.query(`INSERT INTO suppliers (code, name, city) VALUES ('S00250W', ${bytes(SIAULIU)}, ${bytes(KEDAINIU)})`);
    await source.query(`INSERT INTO suppliers (code, name) VALUES (${bytes('533030343938d0')}, ${bytes(AZUOLAS)})`);
    await source.query(`INSERT INTO suppliers (code, name) VALUES (NULL, 'No code UAB'), (NULL, 'No code either UAB')`);
    await source.query(`CREATE TABLE customers (${cols})`);
    await source.query(
      `INSERT INTO customers (code, name) VALUES ('AB-12', 'First distinct customer'), ('AB12', 'Second distinct customer'), ('C-OK', ${bytes(KEDAINIU)}), ('C-BAD', ${bytes(UNREADABLE)})`,
    );
    await source.query(`CREATE TABLE categories (code text, name text)`);
    await source.query(`CREATE TABLE items (code text, name text)`);
    await source.query(`INSERT INTO items VALUES ('K1', 'Kava'), ('K2', 'KAVA'), ('Z1', 'Žuvis'), ('Z2', 'Zuvis'), ('P1', 'Paper A4')`);
    await source.query(`GRANT SELECT ON ALL TABLES IN SCHEMA public TO ${DB_USER}`);
    t = await startTestStack();
    const u = await registeredUser(t.stack, 'mdlegacy');
    admin = u.api;
    companyId = u.companyId;
    const on = await admin.post(`/company/service?${q()}`, {
      type: 'sql_import',
      enabled: true,
      credential: { engine: 'postgres', host: db.host, port: db.port, user: DB_USER, password: DB_PASSWORD, database: 'legacy', allow_unencrypted: true },
    });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
  }, 180_000);
  afterAll(async () => {
    await source?.end();
    await t?.stop();
    await db?.stop();
  });

  it('imports Windows-1257 text next to UTF-8, counts rows without a code and unreadable rows, and keeps distinct rows apart', async () => {
    const run = await syncNow();
    expect(run).toMatchObject({ outcome: 'done', error: null });
    expect(run.counts).toEqual({
      categories: undefined,
      suppliers: { created: 602, updated: 0, unchanged: 0, rejected: 2 },
      customers: { created: 2, updated: 0, unchanged: 0, rejected: 2 },
      items: { created: 3, updated: 0, unchanged: 0, rejected: 2 },
    });
    expect(run.rejected_examples).toHaveLength(5);
    expect(run.rejected_examples).toEqual(
      expect.arrayContaining([
        'suppliers: 2 rows without a code',
        'customers: AB12: same code as AB-12 (First distinct customer) in the product; codes are compared without spaces, dashes and case',
        'customers: C-BAD: its text is neither UTF-8 nor Windows-1257',
        'items: K2: same name as Kava (K1) in the product; item names are compared without case and accents',
        'items: Z2: same name as Žuvis (Z1) in the product; item names are compared without case and accents',
      ]),
    );
    type Stakeholder = { code: string; name: string; city: string };
    const suppliers = await all<Stakeholder>('/stakeholders', '&type=supplier&with_external_data=1');
    expect(suppliers).toHaveLength(602);
    expect(suppliers.find((s) => s.code === 'S00250W')).toMatchObject({ name: 'Šiaulių energija', city: 'Kėdainių UAB' });
    expect(suppliers.find((s) => s.code === 'S00498Š')).toMatchObject({ name: 'Ąžuolas MB' });
    expect(suppliers.find((s) => s.code === 'S00600')).toMatchObject({ name: 'Supplier 600 UAB' });
    const customers = await all<Stakeholder>('/stakeholders', '&type=customer&with_external_data=1');
    expect(customers.map((c) => [c.code, c.name]).sort()).toEqual([
      ['AB-12', 'First distinct customer'],
      ['C-OK', 'Kėdainių UAB'],
    ]);
    const items = await all<{ name: string }>('/items');
    expect(items.map((i) => i.name).sort()).toEqual(['Kava', 'Paper A4', 'Žuvis']);
  }, 300_000);

  it('changes nothing on the next run: all unchanged, the same rows rejected', async () => {
    const run = await syncNow();
    expect(run.outcome).toBe('done');
    expect(run.counts).toEqual({
      categories: undefined,
      suppliers: { created: 0, updated: 0, unchanged: 602, rejected: 2 },
      customers: { created: 0, updated: 0, unchanged: 2, rejected: 2 },
      items: { created: 0, updated: 0, unchanged: 3, rejected: 2 },
    });
    const status = ((await admin.get(`/company/service/imports?${q()}`)).body as { items: ImportStatusView[] }).items.find((i) => i.type === 'sql_import')!;
    expect(status.last_error).toBeNull();
  }, 300_000);

  it('runs a small import of another company in the first schedule invocation while a large one is still importing', async () => {
    const root = await db.admin();
    for (const [name, n] of [['bigsource', 6000], ['smallsource', 10]] as const) {
      await root.query(`CREATE DATABASE ${name} OWNER ${DB_USER}`);
      const c = await db.admin(name);
      await c.query(`CREATE TABLE suppliers (code text, name text, vat_code text, address text, city text, postcode text, country text, email text)`);
      await c.query(`INSERT INTO suppliers (code, name) SELECT 'S' || lpad(i::text, 6, '0'), 'Supplier ' || i || ' UAB' FROM generate_series(1, ${n}) AS i`);
      for (const table of ['customers', 'categories', 'items']) await c.query(`CREATE TABLE ${table} (code text, name text, vat_code text, address text, city text, postcode text, country text, email text)`);
      await c.query(`GRANT SELECT ON ALL TABLES IN SCHEMA public TO ${DB_USER}`);
      await c.end();
    }
    await root.end();
    // A is switched on first (listed, and served, before B).
    const a = await registeredUser(t.stack, 'mdfairbig');
    const b = await registeredUser(t.stack, 'mdfairsmall');
    for (const [u, database] of [[a, 'bigsource'], [b, 'smallsource']] as const) {
      const credential = { engine: 'postgres', host: db.host, port: db.port, user: DB_USER, password: DB_PASSWORD, database, allow_unencrypted: true };
      const on = await u.api.post(`/company/service?company_id=${u.companyId}`, { type: 'sql_import', enabled: true, credential });
      expect(on.status, JSON.stringify(on.body)).toBe(200);
    }
    const lastRun = async (u: typeof a) =>
      ((await u.api.get(`/company/service/imports?company_id=${u.companyId}`)).body as { items: ImportStatusView[] }).items.find((i) => i.type === 'sql_import')!.last_run;
    // One invocation with a short budget (the real one has 4 minutes; 6,000 rows take longer than this one).
    const deps = { ...syncDeps(depsFor('jobs/sync-master-data')), continuation: sqsSyncQueue, log: console };
    const result = await runSchedule(deps, 25_000);
    expect(await lastRun(b)).toMatchObject({ trigger: 'schedule', outcome: 'done', counts: { suppliers: { created: 10, updated: 0, unchanged: 0, rejected: 0 } } });
    expect((await lastRun(a))?.trigger).toBe('schedule');
    expect(result.ran).toBeGreaterThanOrEqual(2);
    // What was still partial at the invocation's end went to the sync queue: the continuing job finishes it.
    await t.stack.syncJobs.idle();
    const big = await lastRun(a);
    expect(big).toMatchObject({ trigger: 'schedule', outcome: 'done' });
    // A page given up at a turn's limit is read again: its rows written before are found unchanged.
    const suppliers = big!.counts.suppliers!;
    expect(suppliers.created + suppliers.unchanged).toBe(6000);
    expect(suppliers.rejected).toBe(0);
  }, 300_000);

  it('says the connection was closed when it is cut under a session, during a query or between two', async () => {
    let sockets: Socket[] = [];
    const proxy: Server = createServer((client) => {
      const upstream = connect(db.port, db.host);
      sockets.push(client, upstream);
      client.pipe(upstream).pipe(client);
      client.on('error', () => undefined);
      upstream.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const port = (proxy.address() as { port: number }).port;
    const cut = () => {
      for (const s of sockets) s.destroy();
      sockets = [];
    };
    const connector = createSqlConnector({ allowPrivateHosts: () => true });
    const creds = { engine: 'postgres' as const, host: '127.0.0.1', port, user: DB_USER, password: DB_PASSWORD, database: 'legacy', allow_unencrypted: true };
    const closed = `The connection to 127.0.0.1:${port} was closed`;
    try {
      const between = await connector.open(creds);
      expect(await between.query('SELECT 1 AS ok', [])).toEqual([{ ok: 1 }]);
      cut();
      await new Promise((r) => setTimeout(r, 200));
      await expect(between.query('SELECT 1 AS ok', [])).rejects.toThrow(closed);
      await between.close();
      const during = await connector.open(creds);
      const slow = during.query('SELECT pg_sleep(3)', []);
      setTimeout(cut, 300);
      await expect(slow).rejects.toThrow(closed);
      await during.close();
    } finally {
      cut();
      await new Promise((r) => proxy.close(r));
    }
  }, 60_000);
});
