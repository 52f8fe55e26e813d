/**
 * The SQL import's database sessions (lambdas/core/master-data/sync/ports.ts SqlConnector): PostgreSQL (`pg`),
 * MySQL/MariaDB (`mysql2`) and Microsoft SQL Server (`mssql` on tedious), all pure JavaScript.
 *
 * Every session is read-only and bounded:
 * - PostgreSQL: `default_transaction_read_only=on` and `statement_timeout` set at connection start-up; TLS when the
 *   server offers it (libpq's "prefer"), plain otherwise;
 * - MySQL/MariaDB: `SET SESSION TRANSACTION READ ONLY`, `MAX_EXECUTION_TIME` (MySQL) or `max_statement_time`
 *   (MariaDB), and a per-query timeout;
 * - SQL Server has no read-only session: every SELECT runs in a transaction that is rolled back, with
 *   ApplicationIntent=ReadOnly; a login with db_datareader only is the advice (docs/decisions.md).
 * Connect timeout CONNECT_TIMEOUT_MS, statement timeout STATEMENT_TIMEOUT_MS. Failures become TargetErrors with the
 * server's own message (a wrong password reads as the server says it), never with the password.
 */
import type { SqlCredentials } from '../../../shared/schemas/master-data-sync';
import { SQL_DEFAULT_PORT } from '../../../shared/schemas/master-data-sync';
import { TargetError } from '../../core/integrations/ports';
import type { SqlConnector, SqlSession } from '../../core/master-data/sync/ports';

export const CONNECT_TIMEOUT_MS = 10_000;
export const STATEMENT_TIMEOUT_MS = 30_000;

/** The driver's message without the password, should a driver ever echo it. */
function targetError(error: unknown, creds: SqlCredentials): TargetError {
  let message = (error as Error)?.message || String(error);
  if (creds.password) message = message.split(creds.password).join('***');
  const code = (error as { code?: string })?.code ?? '';
  const transient = /ECONNREFUSED|ETIMEDOUT|ECONNRESET|EHOSTUNREACH|ENOTFOUND|ETIMEOUT|ESOCKET/.test(code) || /timeout/i.test(message);
  return new TargetError(message.slice(0, 500), transient);
}

async function openPostgres(creds: SqlCredentials): Promise<SqlSession> {
  const { default: pg } = await import('pg');
  const connect = async (ssl: false | { rejectUnauthorized: boolean }) => {
    const client = new pg.Client({
      host: creds.host,
      port: creds.port ?? SQL_DEFAULT_PORT.postgres,
      user: creds.user,
      password: creds.password,
      database: creds.database,
      ssl,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      query_timeout: STATEMENT_TIMEOUT_MS + 5_000,
      statement_timeout: STATEMENT_TIMEOUT_MS,
      options: '-c default_transaction_read_only=on',
      application_name: 'receipts-master-data-import',
    });
    client.on('error', () => undefined);
    await client.connect();
    return client;
  };
  let client: InstanceType<typeof pg.Client>;
  try {
    client = await connect({ rejectUnauthorized: false });
  } catch (error) {
    if (!/does not support SSL/i.test((error as Error)?.message ?? '')) throw error;
    client = await connect(false);
  }
  return {
    async query(sql, params) {
      return (await client.query(sql, params)).rows as Record<string, unknown>[];
    },
    close: () => client.end(),
  };
}

async function openMysql(creds: SqlCredentials): Promise<SqlSession> {
  const mysql = await import('mysql2/promise');
  const conn = await mysql.createConnection({
    host: creds.host,
    port: creds.port ?? SQL_DEFAULT_PORT.mysql,
    user: creds.user,
    password: creds.password,
    database: creds.database,
    connectTimeout: CONNECT_TIMEOUT_MS,
    supportBigNumbers: true,
    bigNumberStrings: true,
    dateStrings: true,
  });
  conn.on('error', () => undefined);
  await conn.query('SET SESSION TRANSACTION READ ONLY');
  try {
    await conn.query(`SET SESSION MAX_EXECUTION_TIME = ${STATEMENT_TIMEOUT_MS}`);
  } catch {
    await conn.query(`SET SESSION max_statement_time = ${STATEMENT_TIMEOUT_MS / 1000}`).catch(() => undefined);
  }
  return {
    async query(sql, params) {
      const [rows] = await conn.query({ sql, timeout: STATEMENT_TIMEOUT_MS + 5_000 }, params);
      return rows as Record<string, unknown>[];
    },
    close: () => conn.end(),
  };
}

async function openMssql(creds: SqlCredentials): Promise<SqlSession> {
  const { default: mssql } = await import('mssql');
  const pool = new mssql.ConnectionPool({
    server: creds.host,
    port: creds.port ?? SQL_DEFAULT_PORT.mssql,
    user: creds.user,
    password: creds.password,
    database: creds.database,
    connectionTimeout: CONNECT_TIMEOUT_MS,
    requestTimeout: STATEMENT_TIMEOUT_MS,
    pool: { max: 1, min: 0 },
    options: { encrypt: true, trustServerCertificate: true, readOnlyIntent: true },
  });
  pool.on('error', () => undefined);
  await pool.connect();
  return {
    async query(sql, params) {
      const tx = new mssql.Transaction(pool);
      await tx.begin();
      try {
        const request = new mssql.Request(tx);
        params.forEach((p, i) => request.input(`p${i + 1}`, p));
        return (await request.query(sql)).recordset as Record<string, unknown>[];
      } finally {
        await tx.rollback().catch(() => undefined);
      }
    },
    close: () => pool.close(),
  };
}

const OPEN = { postgres: openPostgres, mysql: openMysql, mssql: openMssql } as const;

/** Wraps a session so that query failures are TargetErrors too (a missing table reads as the server says it). */
function guarded(session: SqlSession, creds: SqlCredentials): SqlSession {
  return {
    async query(sql, params) {
      try {
        return await session.query(sql, params);
      } catch (error) {
        throw targetError(error, creds);
      }
    },
    close: () => session.close().catch(() => undefined),
  };
}

export const sqlConnector: SqlConnector = {
  async open(creds) {
    try {
      return guarded(await OPEN[creds.engine](creds), creds);
    } catch (error) {
      throw targetError(error, creds);
    }
  },
};
