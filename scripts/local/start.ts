import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { EMAIL_IN_DOMAIN } from '../../shared/constants';
import { DEMO_COLLEAGUE } from './seed-team';
import { accessTokenOf, DEMO_USER, seedDemo } from './seed';
import { ftpPython, startLocalFtpServer, type LocalFtpServer } from './ftp-server';
import { startLocalStack } from './stack';
import { stopInOrder } from './stop';
import { connectDemoDropbox, DEMO_DROPBOX_FOLDER, seedDemoGoogleFolders } from './seed-drive';
import { DEMO_SQL_DATABASE, DEMO_SQL_PASSWORD, DEMO_SQL_USER, demoDatabaseAvailable, demoSqlCredential, startDemoDatabase, type DemoDatabase } from './demo-database';
import { backfillEmailCompanyIndex } from '../../lambdas/adapters/ddb/email-backfill';
import { backfillCompanyCodeGuards, backfillMasterSearch, backfillSearchIndex } from '../../lambdas/adapters/ddb/search-backfill';
import { warmUpRecogniser } from '../../lambdas/jobs/lib/recogniser';

const ROOT = path.resolve(import.meta.dirname, '../..');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const m = entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs;
    if (m > newest) newest = m;
  }
  return newest;
}

/** Builds the SPA when web/dist is missing or older than its sources. */
async function buildWebIfStale(): Promise<void> {
  const index = path.join(ROOT, 'web', 'dist', 'index.html');
  const sources = [path.join(ROOT, 'web', 'src'), path.join(ROOT, 'shared')];
  const newestSource = Math.max(...sources.map(newestMtime), statSync(path.join(ROOT, 'web', 'index.html')).mtimeMs);
  if (existsSync(index) && statSync(index).mtimeMs >= newestSource) return;
  console.log('[local] building the web app…');
  const { build } = await import('vite');
  await build({ configFile: path.join(ROOT, 'web', 'vite.config.ts'), logLevel: 'warn' });
}

/**
 * How long a stop (Ctrl+C, SIGTERM) may take before the process ends without waiting longer. A stop takes a few
 * seconds: the documents being read are not waited for (`stack.stop({ now: true })`), they are read again at the
 * next start.
 */
const STOP_WAIT_MS = 20_000;

/** Whether an error, or one of its causes, is LevelDB's lock held by another process (another local mode). */
function isDataFolderLocked(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === 'LEVEL_LOCKED') return true;
  }
  return false;
}

/** Integrations: the local demo's export targets. */
const DEMO_FTP_PASSWORD = 'demo-ftp';
const DEMO_RIVILE_KEY = 'DEMO001-local-rivile-key';

/**
 * First start: an integration of the demo company switched on through the real POST /company/service (the FTP export
 * to the local FTP server, the SQL import from the demo accounting database), connection test included.
 */
async function switchDemoServiceOn(stack: Awaited<ReturnType<typeof startLocalStack>>, body: Record<string, unknown>): Promise<void> {
  const token = await accessTokenOf(stack, DEMO_USER);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const companies = (await (await fetch(`${stack.apiUrl}/companies`, { headers })).json()) as { items: { company_id: string }[] };
  const companyId = companies.items[0]?.company_id;
  if (!companyId) return;
  const res = await fetch(`${stack.apiUrl}/company/service?company_id=${encodeURIComponent(companyId)}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
}

/** Master-data imports: a few clients and goods in the Rivile stand-in, for the Rivile import (same key as the export). */
function seedDemoRivileRegisters(tables: { N08: Record<string, unknown>[]; N17: Record<string, unknown>[] }): void {
  const clients = [
    { N08_KODAS_KS: 'DEMO-T1', N08_PAV: 'Baltijos Prekyba UAB', N08_PVM_KODAS: 'LT100001234567', N08_ADR: 'Konstitucijos pr. 7', N08_MIESTAS: 'Vilnius', N08_SALIS_K: 'LT', N08_RUSIS: '1' },
    { N08_KODAS_KS: 'DEMO-T2', N08_PAV: 'Kuro Tiekimas UAB', N08_PVM_KODAS: 'LT100009876543', N08_MIESTAS: 'Kaunas', N08_SALIS_K: 'LT', N08_RUSIS: '1' },
    { N08_KODAS_KS: 'DEMO-P1', N08_PAV: 'Nemuno Statyba AB', N08_PVM_KODAS: 'LT100005555555', N08_MIESTAS: 'Klaipėda', N08_SALIS_K: 'LT', N08_RUSIS: '2' },
  ];
  const goods = [
    { N17_KODAS_PS: 'DEMO-KAVA', N17_PAV: 'Kava pupelėmis 1 kg' },
    { N17_KODAS_PS: 'DEMO-DYZ', N17_PAV: 'Dyzelinas' },
  ];
  for (const c of clients) if (!tables.N08.some((r) => r.N08_KODAS_KS === c.N08_KODAS_KS)) tables.N08.push({ ...c, _creator: 'DEMO001' });
  for (const g of goods) if (!tables.N17.some((r) => r.N17_KODAS_PS === g.N17_KODAS_PS)) tables.N17.push({ ...g, _creator: 'DEMO001' });
}

const dataDir = path.resolve(process.env.LOCAL_DATA_DIR ?? path.join(ROOT, '.local'));

async function main() {
  const port = Number(process.env.PORT ?? 3000);
  if (process.env.SKIP_WEB_BUILD !== "1") await buildWebIfStale();
  const stack = await startLocalStack({
    dataDir,
    port,
    host: process.env.HOST ?? '127.0.0.1',
    globalAdminEmails: [DEMO_USER.email, ...(process.env.GLOBAL_ADMIN_EMAILS ?? '').split(',').filter(Boolean)],
    onCode: ({ email, kind, code }) => console.log(`[cognito] ${kind} code for ${email}: ${code}`),
    smtpPort: Number(process.env.SMTP_PORT ?? 2525),
    smtpAnyPortIfTaken: process.env.SMTP_PORT === undefined,
    onMail: (mail) => console.log(`[mail] to ${mail.to.join(', ')} : ${mail.links[0] ?? mail.subject}`),
    mailCatcherPort: process.env.MAIL_CATCHER_PORT ? Number(process.env.MAIL_CATCHER_PORT) : undefined,
    rivileKeys: [DEMO_RIVILE_KEY],
    // Google Drive and Dropbox imports: the schedule's timer (EventBridge in AWS), and the Google stand-in's port.
    drivePollSeconds: Number(process.env.LOCAL_DRIVE_POLL_SECONDS ?? 60),
    googlePort: process.env.LOCAL_GOOGLE_PORT ? Number(process.env.LOCAL_GOOGLE_PORT) : undefined,
    // Master-data imports: the schedule's job every minute (EventBridge runs it every 15 minutes in AWS).
    syncScheduleMs: 60_000,
    // Codes also reach the mail catcher (/_mail), where `npm run smoke` reads them.
    mailCodes: true,
  });
  seedDemoRivileRegisters(stack.rivile.tables);
  const seeded = await seedDemo(stack);
  if (seeded.created) {
    await connectDemoDropbox(stack).catch((error: unknown) => console.warn(`[local] demo Dropbox import not connected: ${String(error)}`));
    seedDemoGoogleFolders(stack);
  }
  // Search: documents and master data of a data folder from before the current search rules get indexed (search:backfill).
  const backfill = await backfillSearchIndex();
  if (backfill.indexed + backfill.removed > 0) console.log(`[local] search index: ${backfill.indexed} documents indexed, ${backfill.removed} old items removed`);
  const masterBackfill = await backfillMasterSearch();
  if (masterBackfill.rewritten > 0) console.log(`[local] master-data search: ${masterBackfill.rewritten} records indexed by the current word rule`);
  const guards = await backfillCompanyCodeGuards();
  if (guards.written > 0) console.log(`[local] company-code guards: ${guards.written} written`);
  const mailIndex = await backfillEmailCompanyIndex();
  if (mailIndex.indexed > 0) console.log(`[local] email records: ${mailIndex.indexed} added to their company's index`);
  let ftp: LocalFtpServer | undefined;
  console.log('');
  console.log(`  Receipts is running at ${stack.url}`);
  console.log(`  Data folder: ${dataDir}${seeded.created ? ' (demo data created)' : ''}`);
  console.log(`  Demo account: ${DEMO_USER.email} / ${DEMO_USER.password} (colleague: ${DEMO_COLLEAGUE.email} / ${DEMO_COLLEAGUE.password})`);
  console.log(`  Email-in (SMTP): ${stack.smtp.host}:${stack.smtp.port} — mail to a company's address @${EMAIL_IN_DOMAIN}`);
  console.log(`  Outgoing mail: ${stack.url}/_mail (SMTP catcher on 127.0.0.1:${stack.mail.smtpPort})`);
  console.log(`  Rivile stand-in: ${process.env.RIVILE_API_URL}, API key ${DEMO_RIVILE_KEY}`);
  console.log(`  Google Drive stand-in: ${stack.googleUrl}; Dropbox stand-in: ${stack.url}/_dropbox (imports read every ${process.env.LOCAL_DRIVE_POLL_SECONDS ?? 60} s)`);
  console.log(`    drop a file: curl -T scan.pdf '${stack.url}/_dropbox/_drop?folder=${encodeURIComponent(DEMO_DROPBOX_FOLDER)}&name=scan.pdf'`);
  console.log('');
  // The local recogniser's first thread and its models load now, not when the first document arrives (which then
  // takes about 1.5 s less; docs/recognition.md "Local recogniser").
  void warmUpRecogniser().catch((error: unknown) => console.warn(`[local] recogniser not readied: ${error instanceof Error ? error.message : String(error)}`));
  // Integrations, after the banner (startup does not wait for Python): a real FTP server for the demo company's
  // FTP export (Debian's python3-pyftpdlib, when installed); on the first start the export is switched on.
  if (process.env.LOCAL_FTP !== '0' && ftpPython()) {
    void startLocalFtpServer({ root: path.join(dataDir, 'ftp'), user: 'demo', password: DEMO_FTP_PASSWORD, port: Number(process.env.LOCAL_FTP_PORT ?? (port === 0 ? 0 : 2121)) })
      .then(async (server) => {
        ftp = server;
        console.log(`  FTP server (exports): ${server.host} port ${server.port}, user demo / ${DEMO_FTP_PASSWORD}, files in ${server.root}`);
        const credential = { host: server.host, user: server.user, password: server.password, port: server.port };
        if (seeded.created) await switchDemoServiceOn(stack, { type: 'ftp_export', enabled: true, credential }).catch((error: unknown) => console.warn(`[local] demo FTP export not switched on: ${String(error)}`));
      })
      .catch((error: unknown) => console.warn(`[local] FTP server not started: ${error instanceof Error ? error.message : String(error)}`));
  }
  // The demo accounting database (Debian's postgresql, when installed) for the SQL import; on the first start the
  // demo company's import is switched on, and the schedule's job brings its suppliers, customers, categories and items.
  let sqlDemo: DemoDatabase | undefined;
  if (process.env.LOCAL_SQL !== '0' && demoDatabaseAvailable()) {
    void startDemoDatabase({ port: Number(process.env.LOCAL_SQL_PORT ?? (port === 0 ? 0 : 15432)), certDir: path.join(dataDir, 'sql-demo') })
      .then(async (db) => {
        sqlDemo = db;
        const tls = db.certificate ? `TLS with the certificate in ${path.join(dataDir, 'sql-demo', 'server.crt')}` : 'no TLS (openssl missing)';
        console.log(`  SQL database (SQL import): PostgreSQL ${db.host} port ${db.port}, database ${DEMO_SQL_DATABASE}, user ${DEMO_SQL_USER} / ${DEMO_SQL_PASSWORD}, ${tls}`);
        if (seeded.created) await switchDemoServiceOn(stack, { type: 'sql_import', enabled: true, credential: demoSqlCredential(db) }).catch((error: unknown) => console.warn(`[local] demo SQL import not switched on: ${String(error)}`));
      })
      .catch((error: unknown) => console.warn(`[local] demo SQL database not started: ${error instanceof Error ? error.message : String(error)}`));
  }
  const stop = stopInOrder([async () => ftp?.stop(), async () => sqlDemo?.stop(), () => stack.stop({ now: true })], {
    waitMs: STOP_WAIT_MS,
    exit: (code) => process.exit(code),
    warn: (line) => console.warn(line),
  });
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  if (isDataFolderLocked(error)) console.error(`Another local mode is using ${dataDir}; stop it first.`);
  else console.error(error);
  process.exit(1);
});
