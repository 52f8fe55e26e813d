import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors';
import { SQL_MAPPING_DEFAULTS, type SqlMapping } from '../../../shared/schemas/master-data-sync';
import { TargetError } from '../../../lambdas/core/integrations/ports';
import { checkSqlMapping } from '../../../lambdas/core/master-data/sync/mapping-check';
import { probeQuery } from '../../../lambdas/core/master-data/sync/sql';
import { MAPPING_UNCHECKED_NO_CONNECTION, saveSqlMapping, type SyncDeps } from '../../../lambdas/core/master-data/sync/service';
import { sqlSource } from '../../../lambdas/core/master-data/sync/sources';
import type { SqlSession } from '../../../lambdas/core/master-data/sync/ports';

/** A database of the tables given (each with its columns), answering probes as PostgreSQL words its refusals. */
function database(tables: Record<string, string[]>) {
  const sent: string[] = [];
  let closed = 0;
  const session: SqlSession = {
    async query(sql) {
      sent.push(sql);
      const m = /^SELECT (?:"(\w+)"|1) AS probe FROM "(\w+)" WHERE 1 = 0$/.exec(sql);
      if (!m) throw new Error(`unexpected SQL ${sql}`);
      const [, column, table] = m;
      if (!tables[table!]) throw new TargetError(`relation "${table}" does not exist`, false);
      if (column && !tables[table!]!.includes(column)) throw new TargetError(`column "${column}" does not exist`, false);
      return [];
    },
    async close() {
      closed += 1;
    },
  };
  return { session, sent, closed: () => closed };
}

const stakeholderColumns = ['code', 'name', 'vat_code', 'address', 'city', 'postcode', 'country', 'email'];
const defaultTables = { suppliers: stakeholderColumns, customers: stakeholderColumns, categories: ['code', 'name'], items: ['code', 'name'] };

describe('SQL mapping check', () => {
  it('probes a table, or one column of it, with a SELECT of no rows, quoted per engine', () => {
    expect(probeQuery('postgres', 'public.Tiekejai')).toEqual({ sql: 'SELECT 1 AS probe FROM "public"."Tiekejai" WHERE 1 = 0', params: [] });
    expect(probeQuery('mysql', 'acc.clients', 'Kodas').sql).toBe('SELECT `Kodas` AS probe FROM `acc`.`clients` WHERE 1 = 0');
    expect(probeQuery('mssql', 'dbo.N08', 'Kodas').sql).toBe('SELECT [Kodas] AS probe FROM [dbo].[N08] WHERE 1 = 0');
    expect(() => probeQuery('postgres', 't', 'x"; DROP TABLE t; --')).toThrow();
  });

  it('finds nothing for the defaults on a database that has them, and skips kinds switched off and empty columns', async () => {
    const db = database(defaultTables);
    expect(await checkSqlMapping(db.session, 'postgres', SQL_MAPPING_DEFAULTS)).toEqual([]);
    const fewer: SqlMapping = {
      ...SQL_MAPPING_DEFAULTS,
      suppliers: { ...SQL_MAPPING_DEFAULTS.suppliers, vat_id: '', email: '' },
      items: { ...SQL_MAPPING_DEFAULTS.items, enabled: false, table: 'gone' },
    };
    db.sent.length = 0;
    expect(await checkSqlMapping(db.session, 'postgres', fewer)).toEqual([]);
    expect(db.sent.some((s) => s.includes('"gone"') || s.includes('"vat_code" AS probe FROM "suppliers"'))).toBe(false);
  });

  it('tells each missing table once (its columns are not probed) and each missing column on its own field', async () => {
    const db = database({ ...defaultTables, items: undefined as never, suppliers: stakeholderColumns.filter((c) => c !== 'vat_code') });
    const mapping: SqlMapping = { ...SQL_MAPPING_DEFAULTS, customers: { ...SQL_MAPPING_DEFAULTS.customers, name: 'title' } };
    expect(await checkSqlMapping(db.session, 'postgres', mapping)).toEqual([
      { path: ['suppliers', 'vat_id'], message: 'Suppliers VAT ID column: column "vat_code" does not exist' },
      { path: ['customers', 'name'], message: 'Customers Name column: column "title" does not exist' },
      { path: ['items', 'table'], message: 'Items Table: relation "items" does not exist' },
    ]);
    expect(db.sent.filter((s) => s.includes('FROM "items"'))).toEqual(['SELECT 1 AS probe FROM "items" WHERE 1 = 0']);
  });

  it('throws on what is not the server refusing a name (a dropped connection)', async () => {
    const session: SqlSession = { query: async () => Promise.reject(new TargetError('Connection terminated: timeout', true)), close: async () => undefined };
    await expect(checkSqlMapping(session, 'postgres', SQL_MAPPING_DEFAULTS)).rejects.toThrow('Connection terminated');
  });
});

describe('saving the SQL mapping (PUT /company/service/sql/mapping)', () => {
  const creds = { kind: 'sql', sql: { engine: 'postgres', host: 'db.example.lt', port: 5432, user: 'u', password: 'p', database: 'acc' } };
  function deps(opts: { stored: boolean; open: () => Promise<SqlSession> }) {
    const saved: SqlMapping[] = [];
    const d = {
      clock: { now: () => new Date('2026-12-08T10:00:00Z') },
      integrations: { getCredentials: async () => (opts.stored ? { sealed: 'sealed' } : undefined) },
      secrets: { open: async () => JSON.stringify(creds) },
      sql: { open: opts.open },
      syncState: { putMapping: async (_company: string, mapping: SqlMapping) => void saved.push(mapping) },
    } as unknown as SyncDeps;
    return { d, saved };
  }

  it('checks against the stored connection: a missing column is a 422 on its field and nothing is saved', async () => {
    const db = database({ ...defaultTables, suppliers: ['code', 'title'] });
    const { d, saved } = deps({ stored: true, open: async () => db.session });
    const error = await saveSqlMapping(d, 'c1', SQL_MAPPING_DEFAULTS).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).statusCode).toBe(422);
    expect((error as AppError).message).toBe('Suppliers Name column: column "name" does not exist');
    expect(((error as AppError).details as { path: string[] }[]).map((x) => x.path.join('.'))).toEqual([
      'suppliers.name',
      'suppliers.vat_id',
      'suppliers.street',
      'suppliers.city',
      'suppliers.zipcode',
      'suppliers.country',
      'suppliers.email',
    ]);
    expect(saved).toEqual([]);
    expect(db.closed()).toBe(1);
  });

  it('saves a mapping the database has, checked', async () => {
    const db = database(defaultTables);
    const { d, saved } = deps({ stored: true, open: async () => db.session });
    expect(await saveSqlMapping(d, 'c1', SQL_MAPPING_DEFAULTS)).toEqual({ mapping: SQL_MAPPING_DEFAULTS, unchecked: null });
    expect(saved).toEqual([SQL_MAPPING_DEFAULTS]);
    expect(db.closed()).toBe(1);
  });

  it('saves unchecked, and says why, when the database cannot be reached, drops the check half-way, or no connection is stored', async () => {
    const down = deps({ stored: true, open: async () => Promise.reject(new TargetError('db.example.lt:5432 did not answer', true)) });
    expect(await saveSqlMapping(down.d, 'c1', SQL_MAPPING_DEFAULTS)).toEqual({ mapping: SQL_MAPPING_DEFAULTS, unchecked: 'db.example.lt:5432 did not answer' });
    expect(down.saved).toHaveLength(1);
    const dropped: SqlSession = { query: async () => Promise.reject(new TargetError('Query read timeout', true)), close: async () => undefined };
    const halfway = deps({ stored: true, open: async () => dropped });
    expect(await saveSqlMapping(halfway.d, 'c1', SQL_MAPPING_DEFAULTS)).toEqual({ mapping: SQL_MAPPING_DEFAULTS, unchecked: 'Query read timeout' });
    expect(halfway.saved).toHaveLength(1);
    const none = deps({ stored: false, open: async () => Promise.reject(new Error('not opened')) });
    expect(await saveSqlMapping(none.d, 'c1', SQL_MAPPING_DEFAULTS)).toEqual({ mapping: SQL_MAPPING_DEFAULTS, unchecked: MAPPING_UNCHECKED_NO_CONNECTION });
    expect(none.saved).toHaveLength(1);
  });
});

describe('a run refused by the database names the mapping', () => {
  it('prefixes the kind and table to the server message; transient failures pass unchanged', async () => {
    const refused: SqlSession = { query: async () => Promise.reject(new TargetError('column "name" does not exist', false)), close: async () => undefined };
    const suppliersOnly: SqlMapping = {
      ...SQL_MAPPING_DEFAULTS,
      customers: { ...SQL_MAPPING_DEFAULTS.customers, enabled: false },
      categories: { ...SQL_MAPPING_DEFAULTS.categories, enabled: false },
      items: { ...SQL_MAPPING_DEFAULTS.items, enabled: false },
    };
    await expect(sqlSource(refused, { engine: 'postgres' }, suppliersOnly).readPage(0, null)).rejects.toThrow(
      'Suppliers mapping (table suppliers): column "name" does not exist',
    );
    const dropped: SqlSession = { query: async () => Promise.reject(new TargetError('read timeout', true)), close: async () => undefined };
    await expect(sqlSource(dropped, { engine: 'postgres' }, suppliersOnly).readPage(0, null)).rejects.toThrow(/^read timeout$/);
  });
});
