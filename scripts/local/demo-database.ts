/**
 * Local mode's demo accounting database: a real PostgreSQL server (scripts/local/postgres.ts, Debian's `postgresql`)
 * holding the tables the SQL import reads by default (SQL_MAPPING_DEFAULTS: suppliers, customers, categories, items),
 * a read-only login for the import, and TLS with a certificate made for 127.0.0.1 once per data folder (openssl), so
 * the demo company's import connects encrypted and checks the server against that certificate, as a company pastes
 * its own authority in the pop-up.
 *
 * The server and its rows are made again at every start (the cluster lives in a temporary folder); the certificate
 * stays in the data folder, because the demo company's stored credentials name it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { postgresBinDir, startLocalPostgres, type LocalPostgres } from './postgres';

export const DEMO_SQL_DATABASE = 'accounting';
export const DEMO_SQL_USER = 'receipts_reader';
export const DEMO_SQL_PASSWORD = 'demo-sql';

export interface DemoDatabase {
  host: string;
  port: number;
  /** The server's certificate (PEM), null when openssl is missing and the server offers no TLS. */
  certificate: string | null;
  stop(): Promise<void>;
}

/** Whether this machine can run the demo database (Debian's postgresql installed). */
export function demoDatabaseAvailable(): boolean {
  return postgresBinDir() !== undefined;
}

/** The demo server's certificate and key, made once in `dir` (valid ten years, for 127.0.0.1 and localhost). */
function demoCertificate(dir: string): { cert: string; key: string } | null {
  const certFile = path.join(dir, 'server.crt');
  const keyFile = path.join(dir, 'server.key');
  if (!existsSync(certFile) || !existsSync(keyFile)) {
    mkdirSync(dir, { recursive: true });
    const made = spawnSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '3650', '-subj', '/CN=Receipts demo accounting database', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost', '-keyout', keyFile, '-out', certFile],
      { stdio: 'ignore' },
    );
    if (made.status !== 0 || !existsSync(certFile)) return null;
  }
  return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') };
}

const SUPPLIERS: [string, string, string | null, string, string, string, string, string | null][] = [
  ['SUP-101', 'Elektros Tinklai UAB', 'LT100002233445', 'Žalgirio g. 90', 'Vilnius', 'LT-09303', 'LT', 'saskaitos@elektros-tinklai.example'],
  ['SUP-102', 'Biuro Prekės UAB', 'LT100003344556', 'Savanorių pr. 28', 'Kaunas', 'LT-44290', 'LT', null],
  ['SUP-103', 'Nordic Cloud Services AB', 'SE556677889901', 'Sveavägen 44', 'Stockholm', '111 34', 'SE', 'billing@nordic-cloud.example'],
  ['SUP-104', 'Transporto Sprendimai UAB', 'LT100004455667', 'Pramonės g. 12', 'Klaipėda', 'LT-94102', 'LT', null],
];
const CUSTOMERS: [string, string, string | null, string, string, string, string, string | null][] = [
  ['CUS-201', 'Medienos Namai UAB', 'LT100005566778', 'Laisvės al. 55', 'Kaunas', 'LT-44309', 'LT', 'buhalterija@medienos-namai.example'],
  ['CUS-202', 'Riga Design SIA', 'LV40003123456', 'Brīvības iela 40', 'Riga', 'LV-1050', 'LV', null],
];
const CATEGORIES: [string, string][] = [
  ['6210', 'Rent'],
  ['6120', 'Utilities'],
  ['6300', 'IT services'],
];
const ITEMS: [string, string][] = [
  ['EL-KWH', 'Electricity kWh'],
  ['PAP-A4', 'Copy paper A4'],
  ['CLOUD-M', 'Cloud hosting, monthly'],
];

/** The accounting system's tables, as SQL_MAPPING_DEFAULTS names them, and the import's read-only login. */
async function fillDemoTables(db: LocalPostgres): Promise<void> {
  const root = await db.admin();
  try {
    await root.query(`CREATE ROLE ${DEMO_SQL_USER} LOGIN PASSWORD '${DEMO_SQL_PASSWORD}'`);
    await root.query(`CREATE DATABASE ${DEMO_SQL_DATABASE}`);
  } finally {
    await root.end();
  }
  const books = await db.admin(DEMO_SQL_DATABASE);
  try {
    for (const [table, rows] of [
      ['suppliers', SUPPLIERS],
      ['customers', CUSTOMERS],
    ] as const) {
      await books.query(`CREATE TABLE ${table} (code text PRIMARY KEY, name text NOT NULL, vat_code text, address text, city text, postcode text, country text, email text)`);
      for (const row of rows) await books.query(`INSERT INTO ${table} VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, row);
    }
    for (const [table, rows] of [
      ['categories', CATEGORIES],
      ['items', ITEMS],
    ] as const) {
      await books.query(`CREATE TABLE ${table} (code text PRIMARY KEY, name text NOT NULL)`);
      for (const row of rows) await books.query(`INSERT INTO ${table} VALUES ($1, $2)`, row);
    }
    await books.query(`GRANT SELECT ON ALL TABLES IN SCHEMA public TO ${DEMO_SQL_USER}`);
  } finally {
    await books.end();
  }
}

/** Starts the demo database on `port` (another free one when it is taken; 0: any), its certificate kept in `certDir`. */
export async function startDemoDatabase(opts: { port: number; certDir: string }): Promise<DemoDatabase> {
  const tls = demoCertificate(opts.certDir);
  const db = await startLocalPostgres({ port: opts.port || undefined, tls: tls ?? undefined });
  try {
    await fillDemoTables(db);
  } catch (error) {
    await db.stop();
    throw error;
  }
  return { host: db.host, port: db.port, certificate: tls?.cert ?? null, stop: () => db.stop() };
}

/** The SQL import's credentials for the demo database (POST /company/service's `credential`). */
export function demoSqlCredential(db: DemoDatabase): Record<string, unknown> {
  return {
    engine: 'postgres',
    host: db.host,
    port: db.port,
    user: DEMO_SQL_USER,
    password: DEMO_SQL_PASSWORD,
    database: DEMO_SQL_DATABASE,
    ...(db.certificate ? { ca_certificate: db.certificate } : { allow_unencrypted: true }),
  };
}
