/**
 * The SELECTs the SQL import sends, per engine. Table and column names come from the mapping (validated against
 * SQL_IDENTIFIER) and are quoted as the engine quotes identifiers; the only value, the keyset position, is a bound
 * parameter. Each page is one bounded SELECT in key order (keyset paging): `WHERE key > :after ORDER BY key`,
 * at most SQL_PAGE_SIZE rows, so a run holds no cursor open and can stop and continue between pages.
 *
 * PostgreSQL only: a page the server cannot convert to UTF-8 (an SQL_ASCII database holding Windows-1257 bytes) is
 * read again with `pageQueryAsBytes`, every column as its stored bytes, decoded by the import (./text.ts); a key kept
 * as bytes (`{ hex }`) is compared as those bytes.
 */
import { SQL_IDENTIFIER, type SqlEngine } from '../../../../shared/schemas/master-data-sync';
import type { SourceAfter } from './ports';

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
  after: SourceAfter,
  limit = SQL_PAGE_SIZE,
): PageQuery {
  return selectPage(engine, table, columns, key, after, limit, (column) => quoteIdentifier(engine, column));
}

/**
 * PostgreSQL: the same page with every column as its stored bytes (bytea), whatever the database's encoding:
 * `convert_to(…, 'SQL_ASCII')` converts nothing, so the server cannot fail on text it cannot convert.
 */
export function pageQueryAsBytes(table: string, columns: Record<string, string>, key: string, after: SourceAfter, limit = SQL_PAGE_SIZE): PageQuery {
  return selectPage('postgres', table, columns, key, after, limit, (column) => `convert_to(${quoteIdentifier('postgres', column)}::text, 'SQL_ASCII')`);
}

/** The rows of a table without a key (they cannot be imported: the step counts them as rejected). */
export function missingKeyQuery(engine: SqlEngine, table: string, key: string): PageQuery {
  return { sql: `SELECT COUNT(*) AS n FROM ${quoteIdentifier(engine, table)} WHERE ${quoteIdentifier(engine, key)} IS NULL`, params: [] };
}

function selectPage(
  engine: SqlEngine,
  table: string,
  columns: Record<string, string>,
  key: string,
  after: SourceAfter,
  limit: number,
  column: (name: string) => string,
): PageQuery {
  const n = Math.max(1, Math.min(Math.trunc(limit), SQL_PAGE_SIZE));
  const q = (name: string) => quoteIdentifier(engine, name);
  const select = Object.entries(columns)
    .filter(([, name]) => name !== '')
    .map(([alias, name]) => {
      if (!/^[a-z_][a-z0-9_]*$/.test(alias)) throw new Error(`bad alias ${alias}`);
      return `${column(name)} AS ${alias}`;
    })
    .join(', ');
  const bytes = after !== null && typeof after === 'object';
  if (bytes && (engine !== 'postgres' || !/^([0-9a-f]{2})+$/.test(after.hex))) throw new Error('a key kept as bytes is PostgreSQL text');
  const bound = bytes ? `convert_from(decode(${placeholder(engine, 1)}, 'hex'), 'SQL_ASCII')` : placeholder(engine, 1);
  const where = after === null ? `${q(key)} IS NOT NULL` : `${q(key)} IS NOT NULL AND ${q(key)} > ${bound}`;
  const params = after === null ? [] : [bytes ? after.hex : after];
  if (engine === 'mssql') return { sql: `SELECT TOP (${n}) ${select} FROM ${q(table)} WHERE ${where} ORDER BY ${q(key)}`, params };
  return { sql: `SELECT ${select} FROM ${q(table)} WHERE ${where} ORDER BY ${q(key)} LIMIT ${n}`, params };
}

/**
 * A SELECT that reads no row and fails only when the table, or the column, is not there (or not readable by the
 * login): how a mapping is checked before it is saved (./mapping-check.ts).
 */
export function probeQuery(engine: SqlEngine, table: string, column?: string): PageQuery {
  const what = column ? quoteIdentifier(engine, column) : '1';
  return { sql: `SELECT ${what} AS probe FROM ${quoteIdentifier(engine, table)} WHERE 1 = 0`, params: [] };
}
