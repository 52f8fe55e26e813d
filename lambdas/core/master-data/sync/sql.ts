/**
 * The SELECTs the SQL import sends, per engine. Table and column names come from the mapping (validated against
 * SQL_IDENTIFIER) and are quoted as the engine quotes identifiers; the only value, the keyset position, is a bound
 * parameter. Each page is one bounded SELECT in key order (keyset paging): `WHERE key > :after ORDER BY key`,
 * at most SQL_PAGE_SIZE rows, so a run holds no cursor open and can stop and continue between pages.
 */
import { SQL_IDENTIFIER, type SqlEngine } from '../../../../shared/schemas/master-data-sync';

/** Rows per SELECT. */
export const SQL_PAGE_SIZE = 500;

export function quoteIdentifier(engine: SqlEngine, name: string): string {
  if (!SQL_IDENTIFIER.test(name)) throw new Error(`not an identifier: ${name}`);
  return name
    .split('.')
    .map((part) => (engine === 'postgres' ? `"${part}"` : engine === 'mysql' ? `\`${part}\`` : `[${part}]`))
    .join('.');
}

const placeholder = (engine: SqlEngine, n: number) => (engine === 'postgres' ? `$${n}` : engine === 'mysql' ? '?' : `@p${n}`);

export interface PageQuery {
  sql: string;
  params: unknown[];
}

/**
 * One page of a table: the mapped columns under the aliases given (`alias → column`), rows whose key is not null
 * and, after the first page, greater than `after`, in key order.
 */
export function pageQuery(
  engine: SqlEngine,
  table: string,
  columns: Record<string, string>,
  key: string,
  after: string | number | null,
  limit = SQL_PAGE_SIZE,
): PageQuery {
  const n = Math.max(1, Math.min(Math.trunc(limit), SQL_PAGE_SIZE));
  const q = (name: string) => quoteIdentifier(engine, name);
  const select = Object.entries(columns)
    .filter(([, column]) => column !== '')
    .map(([alias, column]) => {
      if (!/^[a-z_][a-z0-9_]*$/.test(alias)) throw new Error(`bad alias ${alias}`);
      return `${q(column)} AS ${alias}`;
    })
    .join(', ');
  const where = after === null ? `${q(key)} IS NOT NULL` : `${q(key)} IS NOT NULL AND ${q(key)} > ${placeholder(engine, 1)}`;
  const params = after === null ? [] : [after];
  if (engine === 'mssql') return { sql: `SELECT TOP (${n}) ${select} FROM ${q(table)} WHERE ${where} ORDER BY ${q(key)}`, params };
  return { sql: `SELECT ${select} FROM ${q(table)} WHERE ${where} ORDER BY ${q(key)} LIMIT ${n}`, params };
}
