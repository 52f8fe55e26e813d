/**
 * Checking an SQL mapping against the database before it is saved (PUT /company/service/sql/mapping): for every
 * kind switched on, its table, then each of its columns, is read with a SELECT of no rows (./sql.ts `probeQuery`).
 * One probe per name, so the problem is told on the field that holds it whatever the engine's wording, and a wrong
 * column no longer shows only at the next sync as the server's bare message.
 */
import { sqlMappingFieldMessage, SQL_TARGETS, type SqlEngine, type SqlMapping, type SqlTarget } from '../../../../shared/schemas/master-data-sync';
import { TargetError } from '../../integrations/ports';
import type { SqlSession } from './ports';
import { probeQuery } from './sql';

export interface MappingProblem {
  path: [SqlTarget, string];
  /** `Suppliers VAT ID column: column "supplier_no" does not exist` */
  message: string;
}

/** The server's own message for a probe that failed; anything that is not the server's answer is thrown on. */
async function probe(session: SqlSession, engine: SqlEngine, table: string, column?: string): Promise<string | null> {
  try {
    const q = probeQuery(engine, table, column);
    await session.query(q.sql, q.params);
    return null;
  } catch (error) {
    if (error instanceof TargetError && !error.transient) return error.message;
    throw error;
  }
}

/** The tables and columns of the kinds switched on that the database does not have, in the editor's order. */
export async function checkSqlMapping(session: SqlSession, engine: SqlEngine, mapping: SqlMapping): Promise<MappingProblem[]> {
  const problems: MappingProblem[] = [];
  for (const target of SQL_TARGETS) {
    const { enabled, table, ...columns } = mapping[target];
    if (!enabled) continue;
    const tableProblem = await probe(session, engine, table);
    if (tableProblem !== null) {
      problems.push({ path: [target, 'table'], message: sqlMappingFieldMessage(target, 'table', tableProblem) });
      continue;
    }
    for (const [field, column] of Object.entries(columns) as [string, string][]) {
      if (column === '') continue;
      const columnProblem = await probe(session, engine, table, column);
      if (columnProblem !== null) problems.push({ path: [target, field], message: sqlMappingFieldMessage(target, field, columnProblem) });
    }
  }
  return problems;
}
