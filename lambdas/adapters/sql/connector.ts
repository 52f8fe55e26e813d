/**
 * The SQL import's database sessions (lambdas/core/master-data/sync/ports.ts SqlConnector): PostgreSQL (`pg`),
 * MySQL/MariaDB (`mysql2`) and Microsoft SQL Server (`mssql` on tedious), all pure JavaScript.
 *
 * Every session is read-only and bounded:
 * - PostgreSQL: `default_transaction_read_only=on` and `statement_timeout` set at connection start-up;
 * - MySQL/MariaDB: `SET SESSION TRANSACTION READ ONLY`, `MAX_EXECUTION_TIME` (MySQL) or `max_statement_time`
 *   (MariaDB), and a per-query timeout;
 * - SQL Server has no read-only session: every SELECT runs in a transaction that is rolled back, with
 *   ApplicationIntent=ReadOnly; a login with db_datareader only is the advice (docs/decisions.md).
 * Connect timeout CONNECT_TIMEOUT_MS, statement timeout STATEMENT_TIMEOUT_MS.
 *
 * TLS (all three): always encrypted, and the server's certificate must be valid for the host as typed, checked against
 * the system's authorities, unless the credentials trust the server's certificate (`trust_server_certificate`, for
 * self-signed servers; credentials saved before the choice existed trust it). A PostgreSQL or MySQL server that offers
 * no TLS at all is refused unless the credentials allow an unencrypted connection (`allow_unencrypted`; credentials
 * saved before the choice existed allow it): without that rule a machine on the path could answer "no TLS" for the
 * server and read the login. SQL Server always encrypts.
 *
 * The host is resolved once and checked before any connection (core/integrations/host-check.ts: no loopback,
 * private or link-local address unless the deployment allows them); the drivers connect to a checked address
 * (PostgreSQL, MySQL: the address itself, TLS named by the host as typed; SQL Server: a connector that opens the
 * socket to a checked address, so the login and TLS keep the name, and a server's redirect to another host is
 * checked the same way).
 *
 * Failures become TargetErrors, never with the password: a server that answered in its protocol (a wrong password,
 * a missing table) is quoted as it says it; network failures say what happened to the host as typed (not found,
 * refused, no answer, closed); anything else is "did not answer as a <engine> server", never a raw reply echoed.
 */
import { connect as netConnect, type Socket } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import type { SqlCredentials } from '../../../shared/schemas/master-data-sync';
import { allowsUnencrypted, SQL_DEFAULT_PORT, SQL_ENGINE_LABEL, trustsServerCertificate } from '../../../shared/schemas/master-data-sync';
import { resolveAllowedHost, tlsServerName, withEachAddress, type HostPolicy, type HostResolver, type ResolvedAddress } from '../../core/integrations/host-check';
import { TargetError } from '../../core/integrations/ports';
import { SourceTextError, type SqlConnector, type SqlSession } from '../../core/master-data/sync/ports';
import { env } from '../../runtime/env';

export const CONNECT_TIMEOUT_MS = 10_000;
export const STATEMENT_TIMEOUT_MS = 30_000;

/** The error and the errors it wraps (cause, mssql's originalError, an AggregateError's errors), outermost first. */
function chainOf(error: unknown): unknown[] {
  const out: unknown[] = [];
  const walk = (e: unknown, depth: number) => {
    if (!e || typeof e !== 'object' || depth > 5 || out.includes(e)) return;
    out.push(e);
    const x = e as { cause?: unknown; originalError?: unknown; errors?: unknown };
    walk(x.originalError, depth + 1);
    walk(x.cause, depth + 1);
    if (Array.isArray(x.errors)) for (const inner of x.errors) walk(inner, depth + 1);
  };
  walk(error, 0);
  return out;
}

/** An error the server sent in its own protocol (it is the database server the user named): its text is shown. */
function isServerError(e: unknown): boolean {
  const x = e as { severity?: unknown; code?: unknown; sqlState?: unknown; sqlMessage?: unknown; number?: unknown; name?: unknown };
  if (typeof x.severity === 'string' && typeof x.code === 'string' && /^[0-9A-Z]{5}$/.test(x.code)) return true; // PostgreSQL ErrorResponse
  if (typeof x.sqlMessage === 'string' && typeof x.sqlState === 'string') return true; // MySQL ERR packet
  if (x.code === 'ELOGIN') return true; // SQL Server: login refused by the server
  if (typeof x.number === 'number' && x.number > 0 && x.name === 'RequestError') return true; // SQL Server: error token
  return false;
}

const NETWORK_MESSAGES: [RegExp, (host: string, where: string) => string, boolean][] = [
  [/^ECONNREFUSED$/, (_h, where) => `Connection refused by ${where}`, true],
  [/^(ENOTFOUND|EAI_AGAIN|ENODATA)$/, (host) => `Host ${host} not found`, true],
  [/^(EHOSTUNREACH|ENETUNREACH)$/, (host) => `Host ${host} cannot be reached`, true],
  [/^(ETIMEDOUT|ETIMEOUT)$/, (_h, where) => `No answer from ${where} in time`, true],
  [/^(ECONNRESET|EPIPE)$/, (_h, where) => `The connection to ${where} was closed`, true],
];

/** Node's codes for a certificate it did not accept (self-signed, unknown authority, expired, another host's name). */
const TLS_CERTIFICATE_CODE = /^(ERR_TLS_CERT_ALTNAME_INVALID|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_(VERIFY_LEAF_SIGNATURE|GET_ISSUER_CERT(_LOCALLY)?)|CERT_[A-Z_]+)$/;

export function notEncrypted(where: string): string {
  return `${where} offers no encrypted connection (TLS). Tick Allow an unencrypted connection only for a server on a network you trust.`;
}

export function certificateRefused(where: string, reason: string): string {
  return `The certificate of ${where} was not accepted (${reason.slice(0, 200)}). Tick Trust the server certificate only for a server with a self-signed certificate on a network you trust.`;
}

/** The server as the messages name it: the host as typed and the port. */
function whereOf(creds: SqlCredentials): string {
  return `${creds.host}:${creds.port ?? SQL_DEFAULT_PORT[creds.engine]}`;
}

/** The failure as the user can act on it, without the password and without echoing a non-database server. */
function targetError(error: unknown, creds: SqlCredentials): TargetError {
  const chain = chainOf(error);
  const refused = chain.find((e): e is TargetError => e instanceof TargetError);
  if (refused) return refused;
  const where = whereOf(creds);
  const server = chain.find(isServerError);
  if (server) {
    let message = (server as Error).message || String(server);
    if (creds.password) message = message.split(creds.password).join('***');
    // PostgreSQL could not convert the source's text to UTF-8 (22021, 22P05): the import reads the page as bytes.
    if (creds.engine === 'postgres' && /^(22021|22P05)$/.test(String((server as { code?: unknown }).code))) return new SourceTextError(message.slice(0, 500));
    return new TargetError(message.slice(0, 500), /timeout/i.test(message));
  }
  // Node's own TLS verdict on the server's certificate, told by its code: never text the server sent.
  const tls = chain.find((e) => TLS_CERTIFICATE_CODE.test(String((e as { code?: unknown })?.code ?? '')));
  if (tls) return new TargetError(certificateRefused(where, (tls as Error).message), false);
  if (chain.some((e) => /^ERR_OSSL_/.test(String((e as { code?: unknown })?.code ?? '')))) {
    return new TargetError('The certificate authority given could not be read: paste it as PEM text', false);
  }
  for (const e of chain) {
    const code = String((e as { code?: unknown })?.code ?? '');
    const hit = NETWORK_MESSAGES.find(([pattern]) => pattern.test(code));
    if (hit) return new TargetError(hit[1](creds.host, where), hit[2]);
  }
  const text = chain.map((e) => String((e as Error)?.message ?? '')).join(' ');
  if (/timeout|timed out/i.test(text)) return new TargetError(`No answer from ${where} in time`, true);
  // pg: "Connection terminated unexpectedly" (cut during a query), "Client has encountered a connection error and is
  // not queryable" (cut between two).
  if (/Connection terminated|socket hang up|Connection lost|closed|not queryable/i.test(text)) return new TargetError(`The connection to ${where} was closed`, true);
  return new TargetError(`The server at ${where} did not answer as a ${SQL_ENGINE_LABEL[creds.engine]} server`, false);
}

/**
 * What the TLS handshake checks: the host name as typed, against the authority the credentials name
 * (`ca_certificate`) or else the system's (`trust.ca` in tests), unless the credentials trust the server's certificate.
 */
function tlsOptions(creds: SqlCredentials, trust: TlsTrust): ConnectionOptions {
  const servername = tlsServerName(creds.host);
  const ca = creds.ca_certificate ? { ca: [creds.ca_certificate] } : trust;
  return { rejectUnauthorized: !trustsServerCertificate(creds), ...ca, ...(servername ? { servername } : {}) };
}

async function openPostgres(creds: SqlCredentials, address: ResolvedAddress, trust: TlsTrust): Promise<SqlSession> {
  const { default: pg } = await import('pg');
  const connect = async (ssl: false | ConnectionOptions) => {
    const client = new pg.Client({
      host: address.address,
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
    client = await connect(tlsOptions(creds, trust));
  } catch (error) {
    if (!/does not support SSL/i.test((error as Error)?.message ?? '')) throw error;
    if (!allowsUnencrypted(creds)) throw new TargetError(notEncrypted(whereOf(creds)), false);
    client = await connect(false);
  }
  return {
    async query(sql, params) {
      return (await client.query(sql, params)).rows as Record<string, unknown>[];
    },
    close: () => client.end(),
  };
}

async function openMysql(creds: SqlCredentials, address: ResolvedAddress, trust: TlsTrust): Promise<SqlSession> {
  const mysql = await import('mysql2/promise');
  const port = creds.port ?? SQL_DEFAULT_PORT.mysql;
  const tls = tlsOptions(creds, trust);
  const connect = (ssl: boolean) =>
    mysql.createConnection({
      // The host as typed names the server in the TLS handshake and its certificate check; the socket goes to the
      // checked address.
      host: creds.host,
      stream: () => netConnect({ host: address.address, port }),
      port,
      user: creds.user,
      password: creds.password,
      database: creds.database,
      connectTimeout: CONNECT_TIMEOUT_MS,
      supportBigNumbers: true,
      bigNumberStrings: true,
      dateStrings: true,
      ...(ssl ? { ssl: { ...(tls.ca ? { ca: tls.ca as string[] } : {}), rejectUnauthorized: tls.rejectUnauthorized, verifyIdentity: tls.rejectUnauthorized } } : {}),
    });
  let conn: Awaited<ReturnType<typeof connect>>;
  try {
    conn = await connect(true);
  } catch (error) {
    if (!/does not support secure connection/i.test((error as Error)?.message ?? '')) throw error;
    if (!allowsUnencrypted(creds)) throw new TargetError(notEncrypted(whereOf(creds)), false);
    conn = await connect(false);
  }
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

/** Opens a TCP socket to an address, or fails (tedious' connector contract: the abort signal ends the attempt). */
function openSocket(options: { host: string; port: number; localAddress?: string }, signal: AbortSignal): Promise<Socket> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const socket = netConnect(options);
    const done = () => {
      socket.removeListener('error', onError);
      socket.removeListener('connect', onConnect);
      signal.removeEventListener('abort', onAbort);
    };
    const onError = (error: Error) => {
      done();
      socket.destroy();
      reject(error);
    };
    const onConnect = () => {
      done();
      resolve(socket);
    };
    const onAbort = () => {
      done();
      socket.destroy();
      reject(signal.reason);
    };
    socket.once('error', onError);
    socket.once('connect', onConnect);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * tedious' `connector`: the socket goes to the checked addresses of the host as typed (tedious' own lookup is not
 * used); a host the server redirects to (Azure SQL routing) is resolved and checked like the first.
 */
function checkedConnector(creds: SqlCredentials, addresses: ResolvedAddress[], policy: HostPolicy) {
  return async (options: { host: string; port: number; localAddress?: string }, _lookup: unknown, signal: AbortSignal): Promise<Socket> => {
    const targets = options.host === creds.host ? addresses : await resolveAllowedHost(options.host, policy);
    return withEachAddress(targets, (a) => openSocket({ host: a.address, port: options.port, ...(options.localAddress ? { localAddress: options.localAddress } : {}) }, signal));
  };
}

async function openMssql(creds: SqlCredentials, addresses: ResolvedAddress[], policy: HostPolicy, trust: TlsTrust): Promise<SqlSession> {
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
    options: {
      encrypt: true,
      trustServerCertificate: trustsServerCertificate(creds),
      ...(creds.ca_certificate || trust.ca ? { cryptoCredentialsDetails: { ca: creds.ca_certificate ? [creds.ca_certificate] : trust.ca } } : {}),
      readOnlyIntent: true,
      // tedious calls it with (options, lookup, signal) though its typings name no arguments (tedious 19 connection.js).
      connector: checkedConnector(creds, addresses, policy) as unknown as () => Promise<Socket>,
    },
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

/** Certificate authorities trusted instead of the system's (tests with their own authority); none in the product. */
export type TlsTrust = Pick<ConnectionOptions, 'ca'>;

export interface SqlConnectorOptions {
  /** Deployment setting INTEGRATIONS_ALLOW_PRIVATE_HOSTS (read at each connection). */
  allowPrivateHosts: () => boolean;
  resolve?: HostResolver;
  trust?: TlsTrust;
}

export function createSqlConnector(opts: SqlConnectorOptions): SqlConnector {
  return {
    async open(creds) {
      try {
        const policy: HostPolicy = { allowPrivate: opts.allowPrivateHosts(), resolve: opts.resolve };
        const addresses = await resolveAllowedHost(creds.host, policy);
        const trust = opts.trust ?? {};
        if (creds.engine === 'mssql') return guarded(await openMssql(creds, addresses, policy, trust), creds);
        const open = creds.engine === 'postgres' ? openPostgres : openMysql;
        return guarded(await withEachAddress(addresses, (address) => open(creds, address, trust)), creds);
      } catch (error) {
        throw targetError(error, creds);
      }
    },
  };
}

export const sqlConnector: SqlConnector = createSqlConnector({ allowPrivateHosts: () => env().INTEGRATIONS_ALLOW_PRIVATE_HOSTS });
