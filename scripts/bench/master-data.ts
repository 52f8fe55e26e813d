/**
 * npm run bench:master-data — master-data lists and name search with 100,000 suppliers in one company, locally.
 *
 * Starts the local stack in this process, writes the suppliers directly (BatchWrite of exactly the items the
 * store writes: `masterItems` of lambdas/adapters/ddb/master-data-store.ts), then through the local API, for
 * the first and a later page of the supplier list and of a name search (a rare name, a common word), prints:
 *   - dynamodb requests per page (counted by an SDK middleware on the handlers' DynamoDB client),
 *   - items read per item returned (Query ScannedCount / rows on the page).
 * The XLSX import is measured by `scripts/bench/master-data-import.ts` when present: it exports
 * `benchImport(context: MasterDataBenchContext)` and prints its own lines (see the type below).
 * Env: BENCH_SUPPLIERS (default 100000), BENCH_LATER_PAGE (default 10).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { ddb } from '../../lambdas/adapters/ddb/client';
import { batchWrite } from '../../lambdas/adapters/ddb/table-ops';
import { masterItems } from '../../lambdas/adapters/ddb/master-data-store';
import { newStakeholderRecord } from '../../lambdas/core/master-data/stakeholders';
import type { StakeholderRecord } from '../../lambdas/core/master-data/types';
import { accessTokenOf, registerUser } from '../local/seed';
import { startLocalStack, type LocalStack } from '../local/stack';

const SUPPLIERS = Number(process.env.BENCH_SUPPLIERS ?? 100_000);
const LATER_PAGE = Number(process.env.BENCH_LATER_PAGE ?? 10);
/** The one supplier with this word in its name. */
const RARE_WORD = 'Zorvanta';
/** One supplier in ten has each of these words; "Trading" is the common word searched. */
const COMMON_WORDS = ['Trading', 'Logistics', 'Foods', 'Services', 'Group', 'Baltic', 'Nordic', 'Auto', 'Build', 'Tech'];
const SYLLABLES = ['ka', 'ro', 'mi', 'ne', 'tu', 'sa', 'li', 'po', 've', 'da', 'gi', 'zu', 'be', 'fo', 'ha', 'je', 'lu', 'pe', 'ri', 'so'];

/** What the import measurement gets: the running stack, a signed-in caller and the request counter. */
export interface MasterDataBenchContext {
  stack: LocalStack;
  token: string;
  companyId: string;
  /** Runs `fn` and answers the DynamoDB requests it sent, by command. */
  countRequests<T>(fn: () => Promise<T>): Promise<{ result: T; requests: Map<string, number> }>;
}

interface Recorded {
  command: string;
  scanned: number;
}
let recording: Recorded[] | undefined;

function installCounter() {
  ddb().middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      if (recording) {
        const output = result.output as { ScannedCount?: number; Count?: number };
        recording.push({ command: (context.commandName ?? 'unknown').replace(/Command$/, ''), scanned: output.ScannedCount ?? output.Count ?? 0 });
      }
      return result;
    },
    { step: 'initialize', name: 'masterDataBenchCounter' },
  );
}

async function counted<T>(fn: () => Promise<T>): Promise<{ result: T; calls: Recorded[] }> {
  recording = [];
  try {
    const result = await fn();
    return { result, calls: recording };
  } finally {
    recording = undefined;
  }
}

/** A deterministic, mostly unique word from a number ("Karomi", "Nedatu", …). */
function uniqueWord(i: number): string {
  let n = i;
  let w = '';
  do {
    w += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  } while (n > 0);
  return w.charAt(0).toUpperCase() + w.slice(1);
}

function supplier(i: number, companyId: string, ids: { newId(): string }): StakeholderRecord {
  const name = i === Math.floor(SUPPLIERS / 2) ? `${RARE_WORD} ${COMMON_WORDS[i % 10]}` : `${uniqueWord(i)} ${COMMON_WORDS[i % 10]}${i % 5 === 0 ? ' UAB' : ''}`;
  return newStakeholderRecord({ ids, clock: { now: () => new Date(Date.UTC(2025, 0, 1) + i * 1000) } }, companyId, 'supplier', { name, code: `S${String(i).padStart(6, '0')}` });
}

async function seed(companyId: string): Promise<{ seconds: number; items: number }> {
  const started = performance.now();
  const ids = { newId: () => '' };
  let nextIndex = 0;
  let written = 0;
  const chunk = 200;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (nextIndex < SUPPLIERS) {
        const from = nextIndex;
        nextIndex += chunk;
        const items = [];
        for (let i = from; i < Math.min(from + chunk, SUPPLIERS); i++) {
          ids.newId = () => `BENCH${String(i).padStart(21, '0')}`;
          for (const Item of masterItems(supplier(i, companyId, ids))) items.push({ PutRequest: { Item } });
        }
        await batchWrite(items);
        written += items.length;
        if (Math.floor(from / 10_000) !== Math.floor((from + chunk) / 10_000)) process.stdout.write(`  ${Math.min(from + chunk, SUPPLIERS)} suppliers…\n`);
      }
    }),
  );
  return { seconds: (performance.now() - started) / 1000, items: written };
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-master-data-'));
  const stack = await startLocalStack({ dataDir, port: 0, onCode: () => undefined });
  try {
    const user = { email: `bench-md-${Date.now()}@example.com`, password: 'Bench12345', name: 'Bench', surname: 'User', company: 'Bench Company', company_code: '300000098' };
    await registerUser(stack, user);
    const token = await accessTokenOf(stack, user);
    type ListBody = { items: { name: string }[]; next: string | null };
    const get = async (query: string): Promise<ListBody> => {
      const res = await fetch(`${stack.apiUrl}/stakeholders?${query}`, { headers: { authorization: `Bearer ${token}` } });
      if (res.status !== 200) throw new Error(`GET /stakeholders?${query} → ${res.status} ${await res.text()}`);
      return (await res.json()) as ListBody;
    };
    const companies = (await (await fetch(`${stack.apiUrl}/companies`, { headers: { authorization: `Bearer ${token}` } })).json()) as { items: { company_id: string }[] };
    const companyId = companies.items[0]!.company_id;

    console.log(`local stack up; writing ${SUPPLIERS} suppliers of one company (BatchWrite of the store's own items, 4 writers)…`);
    const seeded = await seed(companyId);
    console.log(`written ${seeded.items} items in ${seeded.seconds.toFixed(1)} s (${(seeded.items / SUPPLIERS).toFixed(1)} items a supplier)\n`);
    installCounter();

    const importBench = path.join(path.dirname(fileURLToPath(import.meta.url)), 'master-data-import.ts');
    if (existsSync(importBench)) {
      const mod = (await import(importBench)) as { benchImport(context: MasterDataBenchContext): Promise<void> };
      await mod.benchImport({
        stack,
        token,
        companyId,
        async countRequests(fn) {
          const { result, calls } = await counted(fn);
          const requests = new Map<string, number>();
          for (const c of calls) requests.set(c.command, (requests.get(c.command) ?? 0) + 1);
          return { result, requests };
        },
      });
      console.log('');
    }

    const base = `company_id=${companyId}&type=supplier&with_external_data=1`;
    const cases: [string, string][] = [
      ['supplier list', base],
      [`name search, a rare name ("${RARE_WORD.toLowerCase()}", 1 supplier)`, `${base}&search_name=${RARE_WORD.toLowerCase()}`],
      [`name search, a common word ("trad", ${(SUPPLIERS / 10).toLocaleString('en')} suppliers)`, `${base}&search_name=trad`],
    ];
    for (const [label, query] of cases) {
      let next: string | null = null;
      for (let page = 1; page <= LATER_PAGE; page++) {
        const q: string = `${query}${next ? `&next=${encodeURIComponent(next)}` : ''}`;
        const measured = page === 1 || page === LATER_PAGE;
        const { result, calls }: { result: ListBody; calls: Recorded[] } = await counted(() => get(q));
        if (measured) {
          const byCommand = new Map<string, number>();
          for (const c of calls) byCommand.set(c.command, (byCommand.get(c.command) ?? 0) + 1);
          const queries = calls.filter((c) => c.command === 'Query');
          const scanned = queries.reduce((n, c) => n + c.scanned, 0);
          const returned = result.items.length;
          console.log(`${label} — page ${page}${returned ? ` (${result.items[0]!.name} … ${result.items.at(-1)!.name})` : ''}`);
          console.log(`  dynamodb requests per page: ${calls.length} (${[...byCommand].map(([c, n]) => `${c} ${n}`).join(', ')}; the Query is the list itself, the rest the caller's membership and the company)`);
          console.log(`  items read per item returned: ${returned ? (scanned / returned).toFixed(2) : 'n/a'} (${scanned} read, ${returned} returned)`);
        }
        next = result.next;
        if (!next) {
          if (page < LATER_PAGE) console.log(`${label} — page ${LATER_PAGE}: the results end on page ${page}`);
          break;
        }
      }
    }
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
