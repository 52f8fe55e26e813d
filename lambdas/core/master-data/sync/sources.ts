/**
 * The sources a master-data import reads, each as a list of steps read page by page:
 * - SQL: one step per mapped table (categories, suppliers, customers, items), keyset pages of SQL_PAGE_SIZE rows;
 * - Rivile GAMA: GET_N08_LIST (clients → suppliers and/or customers by N08_RUSIS) and GET_N17_LIST (goods and
 *   services → items), pages of 100 (`pagenumber` from 1; a page shorter than 100 is the last).
 * A page's `next` is where the step continues (last key or page number); null ends the step.
 */
import type { SqlCredentials, SqlMapping, SqlTarget, SyncKind } from '../../../../shared/schemas/master-data-sync';
import type { StakeholderType } from '../../../../shared/schemas/master-data';
import { TargetError, type RivileApi } from '../../integrations/ports';
import type { SqlSession } from './ports';
import { pageQuery, SQL_PAGE_SIZE } from './sql';
import { cellText, type NamedRow, type StakeholderRow } from './upsert';

export type SourceRow =
  | { kind: 'suppliers' | 'customers'; type: StakeholderType; row: StakeholderRow }
  | { kind: 'categories'; row: NamedRow }
  | { kind: 'items'; row: NamedRow };

export interface SourcePage {
  rows: SourceRow[];
  next: string | number | null;
}

export interface SyncSource {
  steps: number;
  readPage(step: number, after: string | number | null): Promise<SourcePage>;
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

export function sqlSource(session: SqlSession, credentials: Pick<SqlCredentials, 'engine'>, mapping: SqlMapping): SyncSource {
  const targets = SQL_ORDER.filter((t) => mapping[t].enabled);
  return {
    steps: targets.length,
    async readPage(step, after) {
      const target = targets[step]!;
      const m = mapping[target];
      const { table, enabled: _enabled, ...columns } = m;
      const q = pageQuery(credentials.engine, table, columns as Record<string, string>, m.code, after);
      const raw = await session.query(q.sql, q.params);
      const rows: SourceRow[] = raw.map((r) => {
        const text = (alias: string) => cellText(r[alias]);
        if (target === 'suppliers' || target === 'customers') {
          const row: StakeholderRow = { code: text('code'), name: text('name') };
          for (const f of ['vat_id', 'street', 'city', 'zipcode', 'country', 'email'] as const) if (f in r) row[f] = text(f);
          return { kind: target, type: target === 'suppliers' ? 'supplier' : 'customer', row };
        }
        return { kind: target, row: { code: text('code'), name: text('name') } };
      });
      const last = raw[raw.length - 1];
      return { rows, next: raw.length < SQL_PAGE_SIZE || !last ? null : positionOf(last.code) };
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
    async readPage(step, after) {
      const page = (typeof after === 'number' ? after : 0) + 1;
      const table = step === 0 ? 'N08' : 'N17';
      const raw = listRows(await api.call(apiKey, step === 0 ? 'GET_N08_LIST' : 'GET_N17_LIST', { pagenumber: page }), table);
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
