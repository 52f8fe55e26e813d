import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { EMAIL_IN_DOMAIN } from '../../shared/constants';
import { DEMO_USER, seedDemo } from './seed';
import { DEMO_COLLEAGUE } from './seed-team';
import { startLocalStack } from './stack';

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

async function main() {
  const dataDir = path.resolve(process.env.LOCAL_DATA_DIR ?? path.join(ROOT, '.local'));
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
  });
  const seeded = await seedDemo(stack);
  console.log('');
  console.log(`  Receipts is running at ${stack.url}`);
  console.log(`  Data folder: ${dataDir}${seeded.created ? ' (demo data created)' : ''}`);
  console.log(`  Demo account: ${DEMO_USER.email} / ${DEMO_USER.password} (colleague: ${DEMO_COLLEAGUE.email} / ${DEMO_COLLEAGUE.password})`);
  console.log(`  Email-in (SMTP): ${stack.smtp.host}:${stack.smtp.port} — mail to a company's address @${EMAIL_IN_DOMAIN}`);
  console.log(`  Outgoing mail: ${stack.url}/_mail (SMTP catcher on 127.0.0.1:${stack.mail.smtpPort})`);
  console.log('');
  const stop = async () => {
    await stack.stop().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
