/**
 * npm run bench:bulk — the list's bulk actions on a year of documents, locally.
 *
 * Starts the local stack in this process (as the integration tests do), signs up the demo user (the sign-up
 * creates the company), opens one live channel of the company (the user's open list), and writes 2 × BENCH_DOCS
 * documents of that company straight to the table (the documents store's item builders, as bench:web-scale and
 * bench:list seed), with their status counts. Then for Flag, a status change (Approve: archive) and Delete it
 * times the same action on two sets of BENCH_DOCS documents:
 *   - one by one: each document's workflow call awaited after the other, in this process, with the handler's
 *     adapters (what POST /receipts/bulk did before its documents were worked on side by side);
 *   - POST /receipts/bulk: through the local API, BENCH_CHUNK ids a call and two calls at a time, as the web app
 *     sends them (web/src/features/receipts/api/receipts.ts `bulk`);
 * and prints per action: ms in all, ms per document, DynamoDB requests per document, the ratio one-by-one / bulk,
 * and whether the status counts equal a recount of the documents. A wrong answer (a document not ok, counts
 * not equal to the recount, history records missing) prints "WRONG: …" and the exit code is 1.
 * Times are wall times of one run on this machine: read them next to each other, never as thresholds.
 * Env: BENCH_DOCS (1000), BENCH_CHUNK (100), BENCH_CONFLICTS=overlap: the DynamoDB stand-in cancels overlapping
 * transactions as DynamoDB does (TransactionConflict, retried by the client) instead of serialising them;
 * BENCH_LATENCY_MS (0): added to each DynamoDB request of the handlers while measuring, as the round trip to DynamoDB
 * in a region (the stand-in in this process answers in about a millisecond, so local times are mostly CPU).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../../lambdas/adapters/ddb/client';
import { documentItemsWithIndex } from '../../lambdas/adapters/ddb/documents-store';
import { keys } from '../../lambdas/adapters/ddb/keys';
import { batchWrite, tableName } from '../../lambdas/adapters/ddb/table-ops';
import { changeStatus, deleteDocument, setFlag, type DocCaller } from '../../lambdas/core/documents/workflow';
import type { DocumentRecord, ReceiptStatus, ReceiptType, ScopeKey } from '../../lambdas/core/documents/types';
import { deps as handlerDeps } from '../../lambdas/runtime/deps';
import { createLogger } from '../../lambdas/runtime/logger';
import { routes } from '../../shared/routes';
import { openLiveChannel, subOf } from '../../test/support/local-stack';
import { seededDocument } from '../../test/support/document-records';
import { accessTokenOf, DEMO_USER, registerUser } from '../local/seed';
import { startLocalStack, type LocalStack } from '../local/stack';

const DOCS = Number(process.env.BENCH_DOCS ?? 1000);
const CHUNK = Number(process.env.BENCH_CHUNK ?? 100);
/** Calls of one bulk action the web app has open at a time (receipts.ts `bulk`: mapLimited(calls, 2, …)). */
const PARALLEL_CALLS = 2;
const OVERLAP = process.env.BENCH_CONFLICTS === 'overlap';
/** Added to every DynamoDB request of the handlers while measuring: a round trip to DynamoDB in a region. */
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 0);
let measuring = false;

const int = (n: number) => Math.round(n).toLocaleString('en-US');
let wrong = 0;
function check(ok: boolean, what: string) {
  if (!ok) {
    wrong += 1;
    console.log(`WRONG: ${what}`);
  }
}

/** DynamoDB requests sent by this process's document client (the handlers' client), and their time by command. */
let requests = 0;
let byCommand = new Map<string, { n: number; ms: number }>();
function countRequests() {
  ddb().middlewareStack.add(
    (next, context) => async (args) => {
      requests += 1;
      const t0 = performance.now();
      if (measuring && LATENCY_MS > 0) await new Promise((r) => setTimeout(r, LATENCY_MS));
      try {
        return await next(args);
      } finally {
        const name = String(context.commandName ?? '?').replace(/Command$/, '');
        const c = byCommand.get(name) ?? { n: 0, ms: 0 };
        c.n += 1;
        c.ms += performance.now() - t0;
        byCommand.set(name, c);
      }
    },
    { step: 'initialize', name: 'benchRequestCounter' },
  );
}
/** `Get 2.0×1.1ms` …: requests per document and mean ms of each kind, since the last call. */
function breakdown(docs: number): string {
  const out = [...byCommand.entries()].map(([name, c]) => `${name} ${(c.n / docs).toFixed(1)}×${(c.ms / c.n).toFixed(1)}ms`).join(', ');
  byCommand = new Map();
  return out;
}

interface Seeded {
  companyId: string;
  userId: string;
  token: string;
  /** Two sets of DOCS documents: one worked one by one, one through POST /receipts/bulk. */
  sets: [string[], string[]];
}

async function seed(stack: LocalStack): Promise<Seeded> {
  await registerUser(stack, DEMO_USER);
  const token = await accessTokenOf(stack, DEMO_USER);
  const userId = subOf(token);
  const res = await fetch(`${stack.apiUrl}/companies`, { headers: { authorization: `Bearer ${token}` } });
  const company = ((await res.json()) as { items: { company_id: string; name: string; code: string }[] }).items[0]!;
  const scope: ScopeKey = `C#${company.company_id}`;
  const START = Date.UTC(2025, 0, 1);
  const counts: Record<ReceiptType, Partial<Record<ReceiptStatus, number>>> = { receipt: {}, invoice: {} };
  const docs: DocumentRecord[] = [];
  const sets: [string[], string[]] = [[], []];
  for (let i = 0; i < 2 * DOCS; i++) {
    const created = new Date(START + Math.floor((i * 360 * 86400_000) / (2 * DOCS))).toISOString();
    const type: ReceiptType = i % 3 === 0 ? 'invoice' : 'receipt';
    const status: ReceiptStatus = i % 2 === 0 ? 'review' : 'ready';
    counts[type][status] = (counts[type][status] ?? 0) + 1;
    const id = `BULK${String(i).padStart(22, '0')}`;
    sets[i % 2 === 0 ? 0 : 1].push(id);
    docs.push(
      seededDocument({
        receipt_id: id,
        scope,
        created_at: created,
        company_name: company.name,
        company_code: company.code,
        user_id: userId,
        user: { name: DEMO_USER.name, surname: DEMO_USER.surname },
        receipt_type: type,
        status,
        original_file_name: `scan-${i}.pdf`,
        counterparty_name: `Supplier ${i % 50}`,
        document_number: `INV-${i}`,
        issue_date: created.slice(0, 10),
        total: ((i % 500) + 0.99).toFixed(2),
        version: 2,
        charged_month: created.slice(0, 7),
      }),
    );
  }
  const items = docs.flatMap((d) => documentItemsWithIndex(d));
  for (let i = 0; i < items.length; i += 500) await batchWrite(items.slice(i, i + 500).map((Item) => ({ PutRequest: { Item } })));
  for (const type of ['receipt', 'invoice'] as const) {
    await ddb().send(new PutCommand({ TableName: tableName(), Item: { ...keys.companyCounts(company.company_id, type), ...counts[type] } }));
  }
  return { companyId: company.company_id, userId, token, sets };
}

type Action = { action: 'flag'; flag: boolean } | { action: 'status'; status: 'archive' } | { action: 'delete' };

/** The action as POST /receipts/bulk applied it before: one document after another, each awaited. */
async function oneByOne(caller: DocCaller, ids: string[], action: Action): Promise<boolean[]> {
  const d = { ...handlerDeps(routes.find((r) => r.path === '/receipts/bulk')!.needs, 'bench'), log: createLogger({ bench: 'bulk-actions' }) };
  const ok: boolean[] = [];
  for (const id of ids) {
    try {
      if (action.action === 'flag') await setFlag(d, caller, id, action.flag);
      else if (action.action === 'status') await changeStatus(d, caller, id, action.status);
      else await deleteDocument(d, caller, id);
      ok.push(true);
    } catch {
      ok.push(false);
    }
  }
  return ok;
}

/** POST /receipts/bulk as the web app sends it. */
async function throughApi(stack: LocalStack, s: Seeded, ids: string[], action: Action): Promise<boolean[]> {
  const chunks: string[][] = [];
  for (let i = 0; i < ids.length; i += CHUNK) chunks.push(ids.slice(i, i + CHUNK));
  const byId = new Map<string, boolean>();
  let next = 0;
  const worker = async () => {
    while (next < chunks.length) {
      const chunk = chunks[next++]!;
      const res = await fetch(`${stack.apiUrl}/receipts/bulk?company_id=${s.companyId}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ...action, receipt_ids: chunk }),
      });
      const body = (await res.json()) as { results?: { receipt_id: string; ok: boolean }[] };
      check(res.status === 200, `POST /receipts/bulk answered ${res.status}: ${JSON.stringify(body).slice(0, 200)}`);
      const results = body.results ?? [];
      check(results.map((r) => r.receipt_id).join() === chunk.join(), 'the results are not in the order of the ids');
      for (const r of results) byId.set(r.receipt_id, r.ok);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_CALLS }, worker));
  return ids.map((id) => byId.get(id) ?? false);
}

/** The status counts items of the company next to a recount of its documents (list stream of the scope). */
async function countsAgree(s: Seeded): Promise<boolean> {
  const d = handlerDeps(undefined, 'bench');
  const scope: ScopeKey = `C#${s.companyId}`;
  const recount: Record<string, number> = {};
  let continuation: unknown;
  do {
    const page = await d.documents.read({ by: 'scope', scope }, { limit: 500, filter: null, continuation });
    for (const doc of page.items) recount[`${doc.receipt_type}.${doc.status}`] = (recount[`${doc.receipt_type}.${doc.status}`] ?? 0) + 1;
    continuation = page.continuation;
  } while (continuation);
  const stored = await d.documents.counts(scope);
  const flat: Record<string, number> = {};
  for (const type of ['receipt', 'invoice'] as const) {
    for (const [status, n] of Object.entries(stored[type])) if (n) flat[`${type}.${status}`] = n;
  }
  const same = JSON.stringify(Object.entries(flat).sort()) === JSON.stringify(Object.entries(recount).sort());
  if (!same) console.log(`  counts ${JSON.stringify(flat)} recount ${JSON.stringify(recount)}`);
  return same;
}

async function historyOf(id: string): Promise<string[]> {
  const d = handlerDeps(undefined, 'bench');
  return (await d.documents.history(id)).map((h) => h.name);
}

async function measure(stack: LocalStack, s: Seeded, label: string, action: Action, expectHistory?: string) {
  const caller: DocCaller = { userId: s.userId, companyId: s.companyId };
  const [setA, setB] = s.sets;
  const run = async (how: 'one by one' | 'bulk', ids: string[]) => {
    const r0 = requests;
    breakdown(1);
    const t0 = performance.now();
    measuring = true;
    const ok = how === 'one by one' ? await oneByOne(caller, ids, action) : await throughApi(stack, s, ids, action);
    measuring = false;
    const ms = performance.now() - t0;
    check(ok.every(Boolean), `${label} ${how}: ${ok.filter((x) => !x).length} of ${ids.length} documents not ok`);
    return { ms, perDoc: ms / ids.length, requestsPerDoc: (requests - r0) / ids.length, kinds: breakdown(ids.length) };
  };
  const before = await run('one by one', setA);
  const after = await run('bulk', setB);
  const agree = await countsAgree(s);
  check(agree, `${label}: the status counts differ from a recount of the documents`);
  if (expectHistory) {
    const sample = [setB[0]!, setB[Math.floor(setB.length / 2)]!, setB[setB.length - 1]!];
    for (const id of sample) check((await historyOf(id)).includes(expectHistory), `${label}: ${id} has no "${expectHistory}" history record`);
  }
  console.log(
    `${label.padEnd(16)} one by one ${int(before.ms).padStart(7)} ms (${before.perDoc.toFixed(2)} ms/doc, ${before.requestsPerDoc.toFixed(1)} DynamoDB requests/doc)   ` +
      `POST /receipts/bulk ${int(after.ms).padStart(7)} ms (${after.perDoc.toFixed(2)} ms/doc, ${after.requestsPerDoc.toFixed(1)} requests/doc)   ` +
      `ratio ${(before.ms / after.ms).toFixed(2)}×   counts = recount: ${agree ? 'yes' : 'NO'}`,
  );
  console.log(`${''.padEnd(16)} requests/doc × mean time — one by one: ${before.kinds}; bulk: ${after.kinds}`);
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-bulk-'));
  let stack: LocalStack | undefined;
  try {
    stack = await startLocalStack({ dataDir, port: 0, onCode: () => undefined, smtpPort: 0, mailCatcherPort: 0 });
    countRequests();
    const t0 = performance.now();
    const s = await seed(stack);
    console.log(`seeded: ${int(2 * DOCS)} documents of one company (two sets of ${int(DOCS)}) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const live = await openLiveChannel(stack.wsUrl, s.token, s.companyId);
    if (OVERLAP) stack.dynamo.conflicts.simulation.overlap = true;
    const conflicts0 = stack.dynamo.conflicts.conflictsAnswered;
    console.log(
      `${int(DOCS)} documents a set, ${CHUNK} ids a call, ${PARALLEL_CALLS} calls at a time; transactions ${OVERLAP ? 'cancelled on overlap (BENCH_CONFLICTS=overlap)' : 'serialised by the stand-in'}` +
        (LATENCY_MS ? `; ${LATENCY_MS} ms added to each DynamoDB request (BENCH_LATENCY_MS)` : ''),
    );
    await measure(stack, s, 'Flag', { action: 'flag', flag: true }, 'Flagged');
    await measure(stack, s, 'Approve (status)', { action: 'status', status: 'archive' }, 'Moved to archive');
    await measure(stack, s, 'Delete', { action: 'delete' });
    await new Promise((r) => setTimeout(r, 500));
    const events = live.messages.filter((m) => m.event.startsWith('receipt')).length;
    check(events === 6 * DOCS, `the open list received ${events} live events, not one per document and action`);
    console.log(`live events received by the open list: ${int(events)} (one per document and action: ${int(6 * DOCS)}); TransactionConflict answers: ${int(stack.dynamo.conflicts.conflictsAnswered - conflicts0)}`);
    live.close();
  } finally {
    await stack?.stop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (wrong) {
    console.log(`${wrong} WRONG`);
    process.exitCode = 1;
  }
}

await main();
