/**
 * npm run bench:list — the document list under load, locally.
 *
 * Starts the local stack in this process, writes a company with 20,000 documents directly (BatchWrite
 * with the documents store's item builders: each document and its search-index items), then for the
 * first and the tenth page of 50, with and without filters, prints:
 *   - dynamodb requests per page (counted by an SDK middleware on the handlers' DynamoDB client),
 *   - items read per item returned (Query ScannedCount / items on the page),
 *   - the median latency of the page through the local API (HTTP), next to the same DynamoDB queries
 *     sent bare (no HTTP, no handler), and their ratio;
 * and for each search: the requests (pages) until the first page is full or the list ends.
 * Env: BENCH_DOCS (default 20000), BENCH_RUNS (default 9).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../../lambdas/adapters/ddb/client';
import { documentItemsWithIndex } from '../../lambdas/adapters/ddb/documents-store';
import { batchWrite } from '../../lambdas/adapters/ddb/table-ops';
import { seededDocument } from '../../test/support/document-records';
import type { DocumentRecord } from '../../lambdas/core/documents/types';
import { registerUser } from '../local/seed';
import { LOCAL_CLIENT_ID, startLocalStack } from '../local/stack';

const DOCS = Number(process.env.BENCH_DOCS ?? 20_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const PAGE = 50;
const DAY = 24 * 3600_000;
const START = Date.UTC(2024, 0, 1);
/** The documents are spread over this many days (100 a day for 20,000). */
const SPAN_DAYS = 200;
/** The one document of the rare search term, in the older half (a search must not read its way down to it). */
const RARE_DOC = Math.floor(DOCS * 0.3) + 7;

interface Recorded {
  command: string;
  input: Record<string, unknown>;
  scanned: number;
  returned: number;
}
let recording: Recorded[] | undefined;

function installCounter() {
  ddb().middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      if (recording) {
        const output = result.output as { ScannedCount?: number; Count?: number; Item?: unknown; Responses?: Record<string, unknown[]> };
        const returned = output.Count ?? (output.Item ? 1 : 0) + Object.values(output.Responses ?? {}).reduce((n, r) => n + r.length, 0);
        recording.push({
          command: context.commandName ?? 'unknown',
          input: structuredClone(args.input as Record<string, unknown>),
          scanned: output.ScannedCount ?? returned,
          returned,
        });
      }
      return result;
    },
    { step: 'initialize', name: 'benchCounter' },
  );
}

function seedDocument(i: number, companyId: string): DocumentRecord {
  // Spread evenly: document i is created at START + i * (SPAN_DAYS / DOCS) days.
  const created = new Date(START + Math.floor((i * SPAN_DAYS * DAY) / DOCS)).toISOString();
  return seededDocument({
    receipt_id: `BENCH${String(i).padStart(21, '0')}`,
    scope: `C#${companyId}`,
    created_at: created,
    company_name: 'Bench Company',
    company_code: '300000099',
    user_id: 'bench',
    user: { name: 'Bench', surname: 'User' },
    receipt_type: i % 3 === 0 ? 'invoice' : 'receipt',
    status: (['review', 'ready', 'archive', 'review', 'rejected'] as const)[i % 5]!,
    original_file_name: `scan-${i}.pdf`,
    // One document in 20 is from Maxima; one in all (RARE_DOC) from Žalgirio Arena.
    counterparty_name: i === RARE_DOC ? 'Žalgirio Arena, VšĮ' : i % 20 === 3 ? 'MAXIMA LT, UAB' : `Supplier ${i % 997} UAB`,
    document_number: `INV-${i}`,
    issue_date: created.slice(0, 10),
    total: ((i % 500) + 0.99).toFixed(2),
    version: 2,
    pages: [{ page: 1, document: `scan-${i}.pdf`, image_key: null, status: 'processed', width: 1200, height: 1700 }],
    charged_month: created.slice(0, 7),
  });
}

async function seed(companyId: string) {
  const started = performance.now();
  const workers = 4;
  let nextIndex = 0;
  const chunk = 500;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (nextIndex < DOCS) {
        const from = nextIndex;
        nextIndex += chunk;
        const items = [];
        for (let i = from; i < Math.min(from + chunk, DOCS); i++) {
          for (const Item of documentItemsWithIndex(seedDocument(i, companyId))) items.push({ PutRequest: { Item } });
        }
        await batchWrite(items);
      }
    }),
  );
  return (performance.now() - started) / 1000;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-list-'));
  const stack = await startLocalStack({ dataDir, port: 0, onCode: () => undefined });
  try {
    const user = { email: `bench-${Date.now()}@example.com`, password: 'Bench12345', name: 'Bench', surname: 'User', company: 'Bench Company', company_code: '300000099' };
    await registerUser(stack, user);
    const cognito = new CognitoIdentityProviderClient({ endpoint: stack.cognitoEndpoint, region: 'eu-west-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    const auth = await cognito.send(
      new InitiateAuthCommand({ ClientId: LOCAL_CLIENT_ID, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: user.email, PASSWORD: user.password } }),
    );
    cognito.destroy();
    const token = auth.AuthenticationResult!.AccessToken!;
    const get = async (query: string) => {
      const res = await fetch(`${stack.apiUrl}/receipts?${query}`, { headers: { authorization: `Bearer ${token}` } });
      if (res.status !== 200) throw new Error(`GET /receipts?${query} → ${res.status} ${await res.text()}`);
      return (await res.json()) as { items: unknown[]; next: string | null };
    };
    const companies = (await (await fetch(`${stack.apiUrl}/companies`, { headers: { authorization: `Bearer ${token}` } })).json()) as { items: { company_id: string }[] };
    const companyId = companies.items[0]!.company_id;

    console.log(`local stack up; writing ${DOCS} documents of one company (BatchWrite, 4 writers)…`);
    const seconds = await seed(companyId);
    console.log(`written in ${seconds.toFixed(1)} s (${Math.round(DOCS / seconds)} documents/s, with their search items)\n`);
    installCounter();

    const cases: [string, string][] = [
      ['no filter (inbox, both types)', ''],
      ['status review (both types: 2 partitions merged)', 'receipt_status=review'],
      ['type invoice', 'receipt_type=invoice'],
      ['status review + type invoice', 'receipt_status=review&receipt_type=invoice'],
      ['date range (60 days of created_at)', 'created_at_after=2024-03-01&created_at_before=2024-04-29'],
      ['search "maxima" (common: 1 document in 20)', 'search_value=maxima'],
      ['search "maxi" (common, a prefix)', 'search_value=maxi'],
      [`search "zalgirio" (rare: 1 document in ${DOCS})`, 'search_value=zalgirio'],
      ['search "supplier 5" (two words; the second narrows the bucket of the first)', 'search_value=supplier%205'],
      ['search + status review + date range', 'search_value=maxima&receipt_status=review&created_at_after=2024-02-01&created_at_before=2024-06-30'],
      ['search "supplier" + type invoice + status ready', 'search_value=supplier&receipt_type=invoice&receipt_status=ready'],
      ['search "ma" (two letters: substring filter, no index)', 'search_value=ma'],
    ];

    for (const [label, filter] of cases) {
      const base = `company_id=${companyId}&limit=${PAGE}${filter ? `&${filter}` : ''}`;
      if (filter.includes('search_value')) {
        // Requests until the first page is full (50 items) or the list ends (next null).
        let requests = 0;
        let found = 0;
        let cursor: string | null = null;
        do {
          const page = await get(`${base}${cursor ? `&next=${encodeURIComponent(cursor)}` : ''}`);
          requests += 1;
          found += page.items.length;
          cursor = page.next;
        } while (cursor && found < PAGE && requests < 100);
        console.log(`${label} — ${found >= PAGE ? 'page filled' : `list ended with ${found} item(s)`} after ${requests} request(s)`);
      }
      // Cursors of page 1 and page 10.
      const cursors: (string | null)[] = [null];
      let next: string | null = null;
      for (let p = 1; p < 10; p++) {
        next = (await get(`${base}${next ? `&next=${encodeURIComponent(next)}` : ''}`)).next;
        if (!next) break;
      }
      if (next) cursors.push(next);
      for (const [i, cursor] of cursors.entries()) {
        const pageNo = i === 0 ? 1 : 10;
        const query = `${base}${cursor ? `&next=${encodeURIComponent(cursor)}` : ''}`;
        recording = [];
        const page = await get(query);
        const calls = recording;
        recording = undefined;
        const byCommand = new Map<string, number>();
        for (const c of calls) byCommand.set(c.command, (byCommand.get(c.command) ?? 0) + 1);
        const queries = calls.filter((c) => c.command === 'QueryCommand');
        const scanned = queries.reduce((n, c) => n + c.scanned, 0);
        const returned = page.items.length;

        const apiTimes: number[] = [];
        const bareTimes: number[] = [];
        for (let r = 0; r < RUNS; r++) {
          let t0 = performance.now();
          await get(query);
          apiTimes.push(performance.now() - t0);
          t0 = performance.now();
          // The same DynamoDB queries the handler sent for this page, sent bare.
          for (const q of queries) await ddb().send(new QueryCommand(q.input as unknown as QueryCommandInput));
          bareTimes.push(performance.now() - t0);
        }
        const api = median(apiTimes);
        const bare = median(bareTimes);
        console.log(`${label} — page ${pageNo}`);
        console.log(`  dynamodb requests per page: ${calls.length} (${[...byCommand].map(([c, n]) => `${c.replace('Command', '')} ${n}`).join(', ')})`);
        console.log(`  items read per item returned: ${returned ? (scanned / returned).toFixed(2) : 'n/a'} (${scanned} read, ${returned} returned)`);
        console.log(`  median latency: api ${api.toFixed(1)} ms, bare dynamodb ${bare.toFixed(1)} ms, ratio ${(api / bare).toFixed(1)}`);
      }
      if (cursors.length === 1) console.log(`${label} — page 10: fewer than 10 pages`);
    }
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
