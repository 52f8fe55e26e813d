import { describe, expect, it } from 'vitest';
import { missingKeyQuery, pageQuery, pageQueryAsBytes, quoteIdentifier, SQL_PAGE_SIZE } from '../../../lambdas/core/master-data/sync/sql';
import { decodeSourceBytes } from '../../../lambdas/core/master-data/sync/text';
import { isDue, SYNC_INTERVAL_MS } from '../../../lambdas/core/master-data/sync/service';
import { rivileSource, sqlSource } from '../../../lambdas/core/master-data/sync/sources';
import { SourceTextError, type SyncState } from '../../../lambdas/core/master-data/sync/ports';
import { TargetError, type RivileApi } from '../../../lambdas/core/integrations/ports';
import { allowsUnencrypted, SQL_MAPPING_DEFAULTS, sqlCredentialsSchema, sqlMappingSchema, trustsServerCertificate } from '../../../shared/schemas/master-data-sync';
import { upsertStakeholder, type StakeholderRow } from '../../../lambdas/core/master-data/sync/upsert';
import { FakeMasterDataStore } from '../../support/fake-master-data-store';

const cols = { code: 'Kodas', name: 'Pavadinimas', vat_id: '' };

describe('SQL import: the SELECTs per engine', () => {
  it('PostgreSQL: double-quoted names, $1, LIMIT', () => {
    expect(pageQuery('postgres', 'public.Tiekejai', cols, 'Kodas', null)).toEqual({
      sql: `SELECT "Kodas" AS code, "Pavadinimas" AS name FROM "public"."Tiekejai" WHERE "Kodas" IS NOT NULL ORDER BY "Kodas" LIMIT ${SQL_PAGE_SIZE}`,
      params: [],
    });
    expect(pageQuery('postgres', 'suppliers', cols, 'Kodas', 'S00500', 10)).toEqual({
      sql: 'SELECT "Kodas" AS code, "Pavadinimas" AS name FROM "suppliers" WHERE "Kodas" IS NOT NULL AND "Kodas" > $1 ORDER BY "Kodas" LIMIT 10',
      params: ['S00500'],
    });
  });

  it('MySQL/MariaDB: backticks, ?, LIMIT', () => {
    expect(pageQuery('mysql', 'acc.clients', cols, 'Kodas', 42)).toEqual({
      sql: `SELECT \`Kodas\` AS code, \`Pavadinimas\` AS name FROM \`acc\`.\`clients\` WHERE \`Kodas\` IS NOT NULL AND \`Kodas\` > ? ORDER BY \`Kodas\` LIMIT ${SQL_PAGE_SIZE}`,
      params: [42],
    });
  });

  it('SQL Server: brackets, @p1, TOP', () => {
    expect(pageQuery('mssql', 'dbo.N08', cols, 'Kodas', 'K1', 100)).toEqual({
      sql: 'SELECT TOP (100) [Kodas] AS code, [Pavadinimas] AS name FROM [dbo].[N08] WHERE [Kodas] IS NOT NULL AND [Kodas] > @p1 ORDER BY [Kodas]',
      params: ['K1'],
    });
  });

  it('bounds the page size and refuses anything that is not a plain identifier', () => {
    expect(pageQuery('postgres', 't', cols, 'Kodas', null, 1_000_000).sql).toMatch(new RegExp(`LIMIT ${SQL_PAGE_SIZE}$`));
    for (const bad of ['t; DROP TABLE t', 'a"b', 'a.b.c', '1abc', 'x y', '']) {
      expect(() => quoteIdentifier('postgres', bad), bad).toThrow();
    }
    expect(() => pageQuery('mysql', 'ok', { code: 'x`y' }, 'x', null)).toThrow();
  });

  it('the mapping schema refuses injected names and keeps the documented defaults valid', () => {
    expect(sqlMappingSchema.safeParse(SQL_MAPPING_DEFAULTS).success).toBe(true);
    const bad = { ...SQL_MAPPING_DEFAULTS, items: { ...SQL_MAPPING_DEFAULTS.items, name: 'name) FROM x --' } };
    expect(sqlMappingSchema.safeParse(bad).success).toBe(false);
  });
});

describe('SQL import: reading pages', () => {
  it('reads the enabled tables in order, continues after the last key, and stops on a short page', async () => {
    const sent: { sql: string; params: unknown[] }[] = [];
    const full = Array.from({ length: SQL_PAGE_SIZE }, (_, i) => ({ code: i + 1, name: ` Supplier  ${i + 1} `, vat_id: null }));
    const session = {
      query: async (sql: string, params: unknown[]) => {
        sent.push({ sql, params });
        return params.length === 0 ? full : [{ code: 9999, name: 'Last One', vat_id: 'LT1' }];
      },
      close: async () => undefined,
    };
    const mapping = { ...SQL_MAPPING_DEFAULTS, categories: { ...SQL_MAPPING_DEFAULTS.categories, enabled: false }, customers: { ...SQL_MAPPING_DEFAULTS.customers, enabled: false } };
    const source = sqlSource(session, { engine: 'postgres' }, mapping);
    expect(source.steps).toBe(2);
    const first = await source.readPage(0, null);
    expect(first.next).toBe(SQL_PAGE_SIZE);
    expect(first.rows[0]).toEqual({ kind: 'suppliers', type: 'supplier', row: { code: '1', name: 'Supplier 1', vat_id: '' } });
    const second = await source.readPage(0, first.next);
    expect(second.next).toBeNull();
    expect(sent[1]!.params).toEqual([SQL_PAGE_SIZE]);
    expect(sent[0]!.sql).toContain('FROM "suppliers"');
  });
});

describe('SQL import: rows without a code and text that is not UTF-8', () => {
  const suppliersOnly = {
    ...SQL_MAPPING_DEFAULTS,
    categories: { ...SQL_MAPPING_DEFAULTS.categories, enabled: false },
    customers: { ...SQL_MAPPING_DEFAULTS.customers, enabled: false },
    items: { ...SQL_MAPPING_DEFAULTS.items, enabled: false },
  };
  const cp1257 = (hex: string) => Buffer.from(hex, 'hex');

  it('counts the rows without a code on the last page of a step, as rejected with a reason', async () => {
    const sent: string[] = [];
    const session = {
      query: async (sql: string) => {
        sent.push(sql);
        return /COUNT\(\*\)/.test(sql) ? [{ n: '2' }] : [{ code: 'S1', name: 'Supplier One' }];
      },
      close: async () => undefined,
    };
    const page = await sqlSource(session, { engine: 'postgres' }, suppliersOnly).readPage(0, null);
    expect(page.rows).toHaveLength(1);
    expect(page.next).toBeNull();
    expect(page.skipped).toEqual([{ kind: 'suppliers', count: 2, reason: '2 rows without a code' }]);
    expect(sent[1]).toBe('SELECT COUNT(*) AS n FROM "suppliers" WHERE "code" IS NULL');
    expect(missingKeyQuery('mssql', 'dbo.N08', 'Kodas').sql).toBe('SELECT COUNT(*) AS n FROM [dbo].[N08] WHERE [Kodas] IS NULL');
  });

  it('decodes stored bytes: UTF-8 stays UTF-8, anything else is Windows-1257, and bytes neither reads are refused', () => {
    expect(decodeSourceBytes(Buffer.from('Žuvis', 'utf8'))).toBe('Žuvis');
    expect(decodeSourceBytes(cp1257('d06961756c69f820656e657267696a61'))).toBe('Šiaulių energija');
    expect(decodeSourceBytes(cp1257('c0fe756f6c6173'))).toBe('Ąžuolas');
    expect(decodeSourceBytes(cp1257('41a142'))).toBeNull();
  });

  it('PostgreSQL: reads every column as its stored bytes, and continues after a key kept as bytes', () => {
    expect(pageQueryAsBytes('suppliers', { code: 'code', name: 'name', city: '' }, 'code', null)).toEqual({
      sql: `SELECT convert_to("code"::text, 'SQL_ASCII') AS code, convert_to("name"::text, 'SQL_ASCII') AS name FROM "suppliers" WHERE "code" IS NOT NULL ORDER BY "code" LIMIT ${SQL_PAGE_SIZE}`,
      params: [],
    });
    expect(pageQuery('postgres', 'suppliers', { code: 'code' }, 'code', { hex: '53d0' })).toEqual({
      sql: `SELECT "code" AS code FROM "suppliers" WHERE "code" IS NOT NULL AND "code" > convert_from(decode($1, 'hex'), 'SQL_ASCII') ORDER BY "code" LIMIT ${SQL_PAGE_SIZE}`,
      params: ['53d0'],
    });
    expect(() => pageQuery('mysql', 'suppliers', { code: 'code' }, 'code', { hex: '53d0' })).toThrow();
    expect(() => pageQuery('postgres', 'suppliers', { code: 'code' }, 'code', { hex: "'; DROP" })).toThrow();
  });

  it('reads a page the server cannot convert again as bytes: decodes each row, rejects one it cannot read, and continues after a key that is not UTF-8', async () => {
    const sent: { sql: string; params: unknown[] }[] = [];
    const rows = Array.from({ length: SQL_PAGE_SIZE - 2 }, (_, i) => ({ code: Buffer.from(`S${1000 + i}`), name: Buffer.from(`Supplier ${i}`) }));
    rows.push({ code: Buffer.from('S7777'), name: cp1257('4241a1') });
    rows.push({ code: cp1257('53d0'), name: cp1257('d06961756c69f820554142') });
    const session = {
      query: async (sql: string, params: unknown[]) => {
        sent.push({ sql, params });
        if (sql.includes('convert_to')) return rows;
        throw new SourceTextError('invalid byte sequence for encoding "UTF8": 0xd0 0x69');
      },
      close: async () => undefined,
    };
    const source = sqlSource(session, { engine: 'postgres' }, suppliersOnly);
    const page = await source.readPage(0, 'S0999');
    expect(page.rows).toHaveLength(SQL_PAGE_SIZE - 1);
    expect(page.rows[SQL_PAGE_SIZE - 2]).toEqual({ kind: 'suppliers', type: 'supplier', row: { code: 'SŠ', name: 'Šiaulių UAB' } });
    expect(page.skipped).toEqual([{ kind: 'suppliers', count: 1, reason: 'S7777: its text is neither UTF-8 nor Windows-1257' }]);
    expect(page.next).toEqual({ hex: '53d0' });
    expect(sent.map((s) => s.params)).toEqual([['S0999'], ['S0999']]);
    // Another failure is no reason to read bytes: it stays the run's error.
    const failing = { query: async () => Promise.reject(new TargetError('relation "suppliers" does not exist', false)), close: async () => undefined };
    await expect(sqlSource(failing, { engine: 'postgres' }, suppliersOnly).readPage(0, null)).rejects.toThrow('does not exist');
  });
});

describe('Rivile import: list calls', () => {
  it('pages GET_N08_LIST by 100 and splits clients by N08_RUSIS; GET_N17_LIST gives items', async () => {
    const calls: [string, Record<string, unknown>][] = [];
    const api: RivileApi = {
      async call(_key, method, params) {
        calls.push([method, params]);
        if (method === 'GET_N17_LIST') return { N17: [{ N17_KODAS_PS: 'P1', N17_PAV: 'Coffee' }] };
        const page = params.pagenumber as number;
        const n = page === 1 ? 100 : 3;
        return { N08: Array.from({ length: n }, (_, i) => ({ N08_KODAS_KS: `K${page}-${i}`, N08_PAV: `Client ${i}`, N08_RUSIS: i === 0 ? '3' : i % 2 ? '1' : '2' })) };
      },
    };
    const source = rivileSource(api, 'KEY1234-x');
    const p1 = await source.readPage(0, null);
    expect(p1.next).toBe(1);
    expect(p1.rows.filter((r) => r.row.code === 'K1-0').map((r) => r.kind)).toEqual(['suppliers', 'customers']);
    expect(p1.rows.find((r) => r.row.code === 'K1-1')!.kind).toBe('suppliers');
    expect(p1.rows.find((r) => r.row.code === 'K1-2')!.kind).toBe('customers');
    const p2 = await source.readPage(0, p1.next);
    expect(p2.next).toBeNull();
    const items = await source.readPage(1, null);
    expect(items.rows).toEqual([{ kind: 'items', row: { code: 'P1', name: 'Coffee' } }]);
    expect(calls.map(([m, p]) => `${m}:${p.pagenumber}`)).toEqual(['GET_N08_LIST:1', 'GET_N08_LIST:2', 'GET_N17_LIST:1']);
    const odd: RivileApi = { call: async () => 'nonsense' };
    await expect(rivileSource(odd, 'k').readPage(0, null)).rejects.toBeInstanceOf(TargetError);
  });

  it('imports each detail from its own field and leaves out what a client does not give: a stored city, post code and e-mail stay', async () => {
    const clients = [
      { N08_KODAS_KS: 'K1', N08_PAV: 'Baltijos Prekyba UAB', N08_ADR: 'Konstitucijos pr. 7', N08_MIESTAS: 'Vilnius', N08_POST_KODAS: 'LT-09308', N08_E_MAIL: 'info@baltija.lt', N08_SALIS_K: 'LT', N08_RUSIS: '1' },
      { N08_KODAS_KS: 'K2', N08_PAV: 'Kuro Tiekimas UAB', N08_ADR: 'Savanorių pr. 1', N08_MIESTAS: '', N08_RUSIS: '1' },
    ];
    const api: RivileApi = { call: async () => ({ N08: clients }) };
    const page = await rivileSource(api, 'KEY1234-x').readPage(0, null);
    expect(page.rows.map((r) => r.row)).toEqual([
      { code: 'K1', name: 'Baltijos Prekyba UAB', vat_id: undefined, street: 'Konstitucijos pr. 7', city: 'Vilnius', zipcode: 'LT-09308', country: 'LT', email: 'info@baltija.lt' },
      { code: 'K2', name: 'Kuro Tiekimas UAB', vat_id: undefined, street: 'Savanorių pr. 1', city: undefined, zipcode: undefined, country: undefined, email: undefined },
    ]);
    const masterData = new FakeMasterDataStore();
    const now = '2026-03-01T09:00:00.000Z';
    await masterData.putStakeholder({
      id: 's2', type: 'supplier', name: 'Kuro Tiekimas UAB', code: 'K2', vat_id: 'LT100009876543', street: 'Old street 2', city: 'Kaunas', zipcode: 'LT-44001', country: 'LT', email: 'kuras@example.com',
      delivery: '', category_id: null, selected_date_format: null, recognise_details: false,
      company_id: 'c1', external: false, created_at: now, updated_at: now, version: 1,
    });
    const deps = { masterData, clock: { now: () => new Date(now) }, ids: { newId: () => 'new-id' } };
    expect(await upsertStakeholder(deps, 'c1', 'supplier', page.rows[1]!.row as StakeholderRow)).toEqual({ outcome: 'updated' });
    expect(await masterData.getStakeholder('c1', 's2')).toMatchObject({
      street: 'Savanorių pr. 1', city: 'Kaunas', zipcode: 'LT-44001', country: 'LT', email: 'kuras@example.com', vat_id: 'LT100009876543', external: true,
    });
  });
});

describe('the schedule: which imports are due', () => {
  const now = new Date('2026-03-01T12:00:00Z');
  const state = (patch: Partial<SyncState>): SyncState => ({
    company_id: 'c',
    type: 'sql_import',
    enabled: true,
    mapping: null,
    run: null,
    position: null,
    last_error: null,
    connection: null,
    lease_run_id: null,
    lease_until: null,
    settings_version: 0,
    updated_at: '',
    ...patch,
  });
  const run = (outcome: 'done' | 'partial' | 'failed', minutesAgo: number) => ({
    trigger: 'schedule' as const,
    started_at: new Date(now.getTime() - minutesAgo * 60_000 - 1000).toISOString(),
    finished_at: new Date(now.getTime() - minutesAgo * 60_000).toISOString(),
    outcome,
    counts: {},
    rejected_examples: [],
    error: null,
  });
  it('runs a never-run or partial import, waits the interval after a complete one, and skips a leased or switched-off one', () => {
    expect(isDue(state({}), now)).toBe(true);
    expect(isDue(state({ run: run('partial', 1) }), now)).toBe(true);
    expect(isDue(state({ run: run('done', 10) }), now)).toBe(false);
    expect(isDue(state({ run: run('done', SYNC_INTERVAL_MS / 60_000) }), now)).toBe(true);
    expect(isDue(state({ run: run('failed', 20) }), now)).toBe(true);
    expect(isDue(state({ lease_until: new Date(now.getTime() + 1000).toISOString() }), now)).toBe(false);
    expect(isDue(state({ enabled: false }), now)).toBe(false);
    expect(isDue(undefined, now)).toBe(false);
  });
});

describe('SQL import: the server certificate', () => {
  const form = { engine: 'postgres', host: 'db.example.com', user: 'reader', password: 'secret', database: 'books' };
  it('is checked unless the credentials trust it; credentials saved before the choice existed trust it', () => {
    const parsed = sqlCredentialsSchema.parse(form);
    expect(parsed.trust_server_certificate).toBe(false);
    expect(trustsServerCertificate(parsed)).toBe(false);
    expect(trustsServerCertificate(sqlCredentialsSchema.parse({ ...form, trust_server_certificate: true }))).toBe(true);
    // As stored before stop 74: no field at all
    expect(trustsServerCertificate({})).toBe(true);
    // A certificate authority: one or more PEM certificates, trimmed; empty is none
    const pem = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\nAbCd+/==\n-----END CERTIFICATE-----';
    expect(sqlCredentialsSchema.parse({ ...form, ca_certificate: `  ${pem}\n${pem}\n` }).ca_certificate).toBe(`${pem}\n${pem}`);
    expect(sqlCredentialsSchema.parse({ ...form, ca_certificate: '  ' }).ca_certificate).toBeUndefined();
    for (const bad of ['MIIBszCCAVmgAwIBAgIU', `${pem}\nsomething else`, '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----']) {
      expect(sqlCredentialsSchema.safeParse({ ...form, ca_certificate: bad }).error?.issues[0], bad).toMatchObject({
        path: ['ca_certificate'],
        message: 'Paste the certificate as PEM text, from -----BEGIN CERTIFICATE----- to -----END CERTIFICATE-----',
      });
    }
    expect(sqlCredentialsSchema.safeParse({ ...form, trust_server_certificate: 'yes' }).error?.issues[0]).toMatchObject({
      path: ['trust_server_certificate'],
      message: 'Must be true or false',
    });
  });

  it('must be encrypted unless the credentials allow a server without TLS; credentials saved before the choice existed allow it', () => {
    const parsed = sqlCredentialsSchema.parse(form);
    expect(parsed.allow_unencrypted).toBe(false);
    expect(allowsUnencrypted(parsed)).toBe(false);
    expect(allowsUnencrypted(sqlCredentialsSchema.parse({ ...form, allow_unencrypted: true }))).toBe(true);
    // As stored before stop 75: no field at all
    expect(allowsUnencrypted({})).toBe(true);
    expect(sqlCredentialsSchema.safeParse({ ...form, allow_unencrypted: 'no' }).error?.issues[0]).toMatchObject({
      path: ['allow_unencrypted'],
      message: 'Must be true or false',
    });
  });
});
