/**
 * The sources a master-data import reads, each as a list of steps read page by page:
 * - SQL: one step per mapped table (categories, suppliers, customers, items), keyset pages of SQL_PAGE_SIZE rows;
 * - Rivile GAMA: GET_N08_LIST (clients → suppliers and/or customers by N08_RUSIS) and GET_N17_LIST (goods and
 *   services → items), pages of 100 (`pagenumber` from 1; a page shorter than 100 is the last).
 * A page's `next` is where the step continues (last key or page number); null ends the step. `skipped` are rows the
 * page could not hand over (counted as rejected with the reason): SQL rows without a code (counted on the step's
 * last page) and rows whose text neither UTF-8 nor Windows-1257 reads.
 */
import { SQL_TARGET_LABEL, type SqlCredentials, type SqlMapping, type SqlTarget, type SyncKind } from '../../../../shared/schemas/master-data-sync';
import type { StakeholderType } from '../../../../shared/schemas/master-data';
import { TargetError, type RivileApi } from '../../integrations/ports';
import { SourceTextError, type SourceAfter, type SqlSession } from './ports';
import { missingKeyQuery, pageQuery, pageQueryAsBytes, SQL_PAGE_SIZE } from './sql';
import { decodeSourceBytes, isUtf8, LEGACY_TEXT_ENCODING } from './text';
import { cellText, type NamedRow, type StakeholderRow } from './upsert';

export type SourceRow =
  | { kind: 'suppliers' | 'customers'; type: StakeholderType; row: StakeholderRow }
  | { kind: 'categories'; row: NamedRow }
  | { kind: 'items'; row: NamedRow };

export interface SourcePage {
  rows: SourceRow[];
  next: SourceAfter;
  skipped?: { kind: SyncKind; count: number; reason: string }[];
}

export interface SyncSource {
  steps: number;
  /** One page; `signal` aborts a call the run has given up (a source that cannot abort one is closed instead). */
  readPage(step: number, after: SourceAfter, signal?: AbortSignal): Promise<SourcePage>;
  close(): Promise<void>;
}

const SQL_ORDER: SqlTarget[] = ['categories', 'suppliers', 'customers', 'items'];

/** A keyset position as stored: numbers stay numbers, dates become ISO text, anything else text. */
function positionOf(value: unknown): string | number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

/** The cells of a row read as bytes (pageQueryAsBytes), decoded; null when a cell reads in neither encoding. */
function decodedRow(raw: Record<string, unknown>): Record<string, unknown> | null {
  const out: Record<string, unknown> = {};
  for (const [alias, value] of Object.entries(raw)) {
    if (!(value instanceof Uint8Array)) {
      out[alias] = value;
      continue;
    }
    const text = decodeSourceBytes(value);
    if (text === null) return null;
    out[alias] = text;
  }
  return out;
}

/** A key read as bytes, as the next page is asked after it: text when it is UTF-8, else the bytes. */
function bytePositionOf(value: unknown): SourceAfter {
  if (!(value instanceof Uint8Array)) return value === null || value === undefined ? null : positionOf(value);
  return isUtf8(value) ? new TextDecoder().decode(value) : { hex: Buffer.from(value).toString('hex') };
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * A query the server refused (a table or column the database lacks, no right to read it) as the Integration
 * screen shows it: naming the kind and table of the mapping, so the admin knows which field to mend. Text the
 * server cannot convert (read again as bytes) and transient failures pass unchanged.
 */
function namingTheMapping(error: unknown, target: SqlTarget, table: string): unknown {
  if (!(error instanceof TargetError) || error instanceof SourceTextError || error.transient) return error;
  return new TargetError(`${SQL_TARGET_LABEL[target]} mapping (table ${table}): ${error.message}`, false);
}

export function sqlSource(session: SqlSession, credentials: Pick<SqlCredentials, 'engine'>, mapping: SqlMapping): SyncSource {
  const targets = SQL_ORDER.filter((t) => mapping[t].enabled);
  return {
    steps: targets.length,
    async readPage(step, after) {
      const target = targets[step]!;
      const m = mapping[target];
      const { table, enabled: _enabled, ...columns } = m;
      const skipped: NonNullable<SourcePage['skipped']> = [];
      let raw: Record<string, unknown>[];
      let next: SourceAfter;
      try {
        const q = pageQuery(credentials.engine, table, columns as Record<string, string>, m.code, after);
        raw = await session.query(q.sql, q.params).catch((error: unknown) => {
          throw namingTheMapping(error, target, table);
        });
        const last = raw[raw.length - 1];
        next = raw.length < SQL_PAGE_SIZE || !last ? null : positionOf(last.code);
      } catch (error) {
        // Text the server cannot convert to UTF-8: the page again as bytes, decoded here, a row at a time.
        if (!(error instanceof SourceTextError) || credentials.engine !== 'postgres') throw error;
        const q = pageQueryAsBytes(table, columns as Record<string, string>, m.code, after);
        const bytes = await session.query(q.sql, q.params);
        const last = bytes[bytes.length - 1];
        next = bytes.length < SQL_PAGE_SIZE || !last ? null : bytePositionOf(last.code);
        raw = [];
        for (const r of bytes) {
          const row = decodedRow(r);
          if (row) {
            raw.push(row);
            continue;
          }
          const code = r.code instanceof Uint8Array ? decodeSourceBytes(r.code) : cellText(r.code);
          const named = code === null ? `the row after ${raw.length ? cellText(raw[raw.length - 1]!.code) : 'the page start'}` : code;
          skipped.push({ kind: target, count: 1, reason: `${named}: its text is neither UTF-8 nor ${LEGACY_TEXT_ENCODING}` });
        }
      }
      const rows: SourceRow[] = raw.map((r) => {
        const text = (alias: string) => cellText(r[alias]);
        if (target === 'suppliers' || target === 'customers') {
          const row: StakeholderRow = { code: text('code'), name: text('name') };
          for (const f of ['vat_id', 'street', 'city', 'zipcode', 'country', 'email'] as const) if (f in r) row[f] = text(f);
          return { kind: target, type: target === 'suppliers' ? 'supplier' : 'customer', row };
        }
        return { kind: target, row: { code: text('code'), name: text('name') } };
      });
      if (next === null) {
        // The step's last page: the rows without a code, which keyset paging never reads, are counted once.
        const q = missingKeyQuery(credentials.engine, table, m.code);
        const [counted] = await session.query(q.sql, q.params);
        const n = Number(counted?.n ?? 0);
        if (n > 0) skipped.push({ kind: target, count: n, reason: `${plural(n, 'row')} without a code` });
      }
      return { rows, next, ...(skipped.length ? { skipped } : {}) };
    },
    close: () => session.close(),
  };
}

/** Rivile's list page size (GAMA API v2). */
export const RIVILE_PAGE_SIZE = 100;

/** The rows of a list answer: `{ N08: [...] }` (also accepted: a bare array, or one record). */
function listRows(answer: unknown, table: 'N08' | 'N17'): Record<string, unknown>[] {
  const body = answer && typeof answer === 'object' && !Array.isArray(answer) ? (answer as Record<string, unknown>)[table] : answer;
  if (Array.isArray(body)) return body.filter((r): r is Record<string, unknown> => Boolean(r) && typeof r === 'object');
  if (body && typeof body === 'object') return [body as Record<string, unknown>];
  if (body === undefined || body === null || body === '') return [];
  throw new TargetError(`Rivile answered an unexpected ${table} list`, false);
}

/** N08_RUSIS: 1 supplier, 2 buyer (as the export writes them); any other value is both. */
function clientTypes(rusis: unknown): StakeholderType[] {
  const v = String(rusis ?? '').trim();
  if (v === '1') return ['supplier'];
  if (v === '2') return ['customer'];
  return ['supplier', 'customer'];
}

export function rivileSource(api: RivileApi, apiKey: string): SyncSource {
  return {
    steps: 2,
    async readPage(step, after, signal) {
      const page = (typeof after === 'number' ? after : 0) + 1;
      const table = step === 0 ? 'N08' : 'N17';
      const raw = listRows(await api.call(apiKey, step === 0 ? 'GET_N08_LIST' : 'GET_N17_LIST', { pagenumber: page }, undefined, signal ? { signal } : undefined), table);
      const rows: SourceRow[] = [];
      for (const r of raw) {
        const t = (f: string) => cellText(r[f]);
        // A detail GAMA leaves out or empty is not imported: it keeps what the record has (as an SQL column the
        // mapping leaves empty), instead of wiping a city or e-mail typed in the product.
        const detail = (f: string) => t(f) || undefined;
        if (table === 'N17') {
          rows.push({ kind: 'items', row: { code: t('N17_KODAS_PS'), name: t('N17_PAV') } });
          continue;
        }
        const row: StakeholderRow = {
          code: t('N08_KODAS_KS'),
          name: t('N08_PAV'),
          vat_id: detail('N08_PVM_KODAS'),
          street: detail('N08_ADR'),
          city: detail('N08_MIESTAS'),
          zipcode: detail('N08_POST_KODAS'),
          country: detail('N08_SALIS_K'),
          email: detail('N08_E_MAIL'),
        };
        for (const type of clientTypes(r.N08_RUSIS)) rows.push({ kind: type === 'supplier' ? 'suppliers' : 'customers', type, row });
      }
      return { rows, next: raw.length < RIVILE_PAGE_SIZE ? null : page };
    },
    close: async () => undefined,
  };
}

export type { SyncKind };
