/**
 * npm run bench:recognition-learning -- <folder> [--limit N] [--only 000,005] [--verbose]
 *   [--from-dump <dir> [--no-learning] [--register-from-keys] [--lm <file>]]
 *
 * The product's own `ready` on a stream of receipts of one company that confirms every document. Each receipt of a
 * SROIE-style folder (images/, keys/) is, in the folder's order,
 *   1. read as the processing job reads a cost document (recognition, learnt layouts, master data, the ready rule),
 *   2. judged: its status (`ready` or `review`) and its company, date and total against the key,
 *   3. put right as a person would on the edit screen — company, date, total and address set to the key's values
 *      in the POST /receipt/{id}?with_send=1 that confirms it — so the supplier joins the company's master data and
 *      its layout is learnt, as after every confirm.
 * It prints the ready share and its precision over all receipts, over the first receipt of each supplier (the
 * key's company) and over the receipts of a supplier confirmed before, with how many of each field were read right
 * (ready or not); `--verbose` one line per receipt.
 *
 * By default the whole product runs locally in this process (the local stack, its processing job and local
 * recogniser with the shipped model; on the development folder its training data, so an in-sample reading).
 * `--from-dump <dir>` replays kept readings instead (`bench:recognition --dump`, e.g. of held-out models): their lines,
 * the fields extracted again by this checkout's rules, through the same core functions in the job's order — the
 * layouts stored under `lookupKeys`, `applyHintsToResult`,
 * `mapExpenseToFields`, `matchStakeholder` against the suppliers confirmed so far, `withStakeholderFields`,
 * `readyCheck` — and confirms with `learnLayout` (values located where the content says they were read) and a
 * supplier kept when it has a code or VAT ID; a receipt read without a document number is not confirmed, as the
 * product refuses it; names are weighed against the lines known from other receipts of `--lm`'s text, as the local
 * recogniser weighs them (default the shipped text). `--no-learning` stores nothing (each receipt read as the first
 * of its supplier); `--register-from-keys` starts with every company the keys name in the register (names only).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../../lambdas/adapters/ddb/client';
import { keys as tableKeys } from '../../lambdas/adapters/ddb/keys';
import { findItem } from '../../lambdas/core/content/tree';
import { readyCheck } from '../../lambdas/core/documents/content';
import { withStakeholderFields } from '../../lambdas/core/documents/counterparty';
import type { StakeholderRecord } from '../../lambdas/core/master-data/types';
import type { Extraction } from '../../lambdas/core/recognition/extract';
import { blocksToDocument, toAnalyzeExpenseResult } from '../../lambdas/core/recognition/expense';
import { parseDate } from '../../lambdas/core/recognition/extract/dates';
import { lookupKeys, printedText, supplierKeys } from '../../lambdas/core/recognition/layout-keys';
import { applyHintsToResult, learnLayout, type ConfirmedFields, type ConfirmedPlaces } from '../../lambdas/core/recognition/learn';
import { mapExpenseToFields } from '../../lambdas/core/recognition/map-fields';
import { isSureMatch, matchStakeholder } from '../../lambdas/core/recognition/match';
import { HEADER_FIELD_IDS, type AnalyzeExpenseResult, type OcrDocument, type Stakeholder, type SupplierLayoutHint } from '../../lambdas/core/recognition/types';
import type { ContentResponse } from '../../shared/schemas/content';
import { accessTokenOf, registerUser, uploadThroughApi } from '../local/seed';
import { startLocalStack } from '../local/stack';
import { isRight, listReceipts, option, readerOptions, replayExtraction, scorable, type Keys, type Receipt } from './recognition/sroie';

const JUDGED = ['company', 'date', 'total'] as const;
const SCORED = ['company', 'date', 'total', 'address'] as const;
type Scored = (typeof SCORED)[number];
const CONTENT_ID = { company: 'supplier_name', date: 'issue_date', total: 'amount_total', address: 'supplier_street' } as const;
const FIELD_ID = { company: 'supplier_name', date: 'issue_date', total: 'amount_total', address: 'supplier_address' } as const;

/** One receipt as the product answered it: its status and the scored fields' values. */
interface Reading {
  status: string;
  values: Partial<Record<Scored, string>>;
}

/** A way of running the stream: the product through its API, or kept readings through the core functions. */
interface Stream {
  read(r: Receipt): Promise<Reading>;
  /** Confirms the receipt just read with the key's values typed in; false when the product refuses it. */
  confirm(r: Receipt): Promise<boolean>;
  close(): Promise<void>;
}

interface Outcome {
  id: string;
  repeat: boolean;
  status: string;
  right: boolean;
  /** Each field of the key read right (company, date, total, address), ready or not. */
  fields: Record<Scored, boolean>;
}

/** The key's values as a person types them on the edit screen (a date as YYYY-MM-DD, a total as 0.00). */
function corrections(k: Keys): Partial<Record<Scored, string>> {
  const out: Partial<Record<Scored, string>> = {};
  if (k.company?.trim()) out.company = k.company.trim();
  if (k.address?.trim()) out.address = k.address.trim();
  const date = k.date ? parseDate(k.date.trim()) : undefined;
  if (date) out.date = date;
  const total = k.total ? Number(k.total.replace(/[^\d.-]/g, '')) : NaN;
  if (Number.isFinite(total)) out.total = total.toFixed(2);
  return out;
}

const supplierOf = (k: Keys) => (k.company ?? '').toUpperCase().replace(/[^A-Z0-9]+/g, '');

/** The whole product, locally: upload through the API, the processing job, the content, the confirm. */
async function productStream(count: number): Promise<Stream> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-learning-'));
  const stack = await startLocalStack({ dataDir, port: 0, onCode: () => undefined });
  const user = { email: 'learning@bench.local', password: 'Bench12345', name: 'Bench', surname: 'User', company: 'Bench Company', company_code: '300000009' };
  await registerUser(stack, user);
  const token = await accessTokenOf(stack, user);
  const call = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${stack.apiUrl}${p}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const companies = (await call('GET', '/companies')).body as { items: { company_id: string }[] };
  const companyId = companies.items[0]!.company_id;
  // Room for the whole folder in the month's quota (the platform admin's setting, written as its route does).
  await ddb().send(
    new UpdateCommand({
      TableName: process.env.TABLE_NAME,
      Key: tableKeys.company(companyId),
      UpdateExpression: 'SET available_documents = :a',
      ExpressionAttributeValues: { ':a': count + 100 },
    }),
  );
  let current: { receiptId: string; version: number } | undefined;
  return {
    async read(r) {
      const fileName = `${r.id}${path.extname(r.image)}`;
      const up = await uploadThroughApi(stack.apiUrl, token, { company_id: companyId, receipt_type: 'receipt', original_file_name: fileName, content_type: 'image/jpeg' }, new Uint8Array(readFileSync(r.image)));
      if (up.status !== 200 || !up.put?.ok) throw new Error(`${r.id}: upload refused (${up.status})`);
      await stack.jobs.idle(300_000);
      let doc: { receipt_id: string; status: string } | undefined;
      for (let i = 0; i < 100 && (!doc || doc.status === 'processing'); i++) {
        const list = (await call('GET', `/receipts?company_id=${companyId}&limit=10`)).body as { items: { receipt_id: string; original_file_name: string; status: string }[] };
        doc = list.items.find((d) => d.original_file_name === fileName);
        if (!doc || doc.status === 'processing') await new Promise((res) => setTimeout(res, 200));
      }
      if (!doc || doc.status === 'processing') throw new Error(`${r.id}: not processed`);
      const content = (await call('GET', `/receipts/${doc.receipt_id}/content?company_id=${companyId}`)).body as ContentResponse;
      current = { receiptId: doc.receipt_id, version: content.version };
      const value = (id: string) => findItem({ items: content.content, seq: 0 }, id)?.content?.value || undefined;
      return { status: doc.status, values: Object.fromEntries(SCORED.map((f) => [f, value(CONTENT_ID[f])])) };
    },
    async confirm(r) {
      const items = Object.entries(corrections(r.keys)).map(([f, value]) => ({ id: CONTENT_ID[f as Scored], value }));
      const res = await call('POST', `/receipt/${current!.receiptId}?company_id=${companyId}&with_send=1`, { version: current!.version, items });
      return res.status === 200;
    },
    async close() {
      await stack.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Kept readings through the processing job's core functions, with an in-memory register and layout store. */
function replayStream(dumpDir: string, opts: { learning: boolean; register: string[]; extract: (doc: OcrDocument) => Extraction }): Stream {
  const layouts = new Map<string, SupplierLayoutHint>();
  const register: Stakeholder[] = [];
  const keep = (name: string, code = '', vat_id = '') => register.push({ id: `s${register.length}`, name, code, vat_id });
  // What withStakeholderFields reads of a register record: its side, name, code and VAT ID.
  const asRecord = (s: Stakeholder) => ({ ...s, type: 'supplier', code: s.code ?? '', vat_id: s.vat_id ?? '' }) as StakeholderRecord;
  for (const name of opts.register) keep(name);
  const today = new Date().toISOString().slice(0, 10);
  let current: { result: AnalyzeExpenseResult; fields: ReturnType<typeof mapExpenseToFields> } | undefined;
  return {
    async read(r) {
      const file = path.join(dumpDir, `${r.id}.json`);
      if (!existsSync(file)) throw new Error(`${r.id}: no kept reading in ${dumpDir}`);
      // The kept reading's lines, their fields extracted again by this checkout's rules (as bench:recognition
      // --from-dump does), so that a change of the extraction shows without reading the images again.
      const doc = blocksToDocument(JSON.parse(readFileSync(file, 'utf8')) as AnalyzeExpenseResult);
      const result = toAnalyzeExpenseResult(doc, opts.extract(doc));
      const hints = [...new Set(lookupKeys(mapExpenseToFields(result), printedText(result)).flatMap((k) => layouts.get(`${k.kind}#${k.value}`) ?? []))];
      let fields = mapExpenseToFields(applyHintsToResult(result, hints));
      const m = matchStakeholder(fields, register);
      if (!m.isNew) fields = withStakeholderFields(fields, asRecord(m.stakeholder), isSureMatch(m));
      current = { result, fields };
      const status = readyCheck(fields, 'receipt', today).ready ? 'ready' : 'review';
      return { status, values: Object.fromEntries(SCORED.map((f) => [f, fields[FIELD_ID[f]]?.value])) };
    },
    async confirm(r) {
      const { result, fields } = current!;
      const confirmed: ConfirmedFields = {};
      const places: ConfirmedPlaces = {};
      for (const id of HEADER_FIELD_IDS) {
        const v = fields[id];
        if (!v?.value) continue;
        confirmed[id] = v.value;
        // A value typed by hand keeps the position of the value it replaced, as the content does.
        places[id] = { page: v.page, box: v.box };
      }
      for (const [f, value] of Object.entries(corrections(r.keys))) confirmed[FIELD_ID[f as Scored]] = value;
      if (!confirmed.document_id) return false; // the product refuses a confirm without a document number
      if (!opts.learning) return true;
      const words = blocksToDocument(result).pages.flatMap((p) => p.lines.flatMap((l) => l.words));
      const hint = learnLayout(confirmed, words, places);
      if (hint.fields.length) for (const k of supplierKeys({ vat_id: confirmed.supplier_vat_id, code: confirmed.supplier_code, name: confirmed.supplier_name, printed_name: hint.supplier.printed_name })) layouts.set(`${k.kind}#${k.value}`, hint);
      const party = { name: confirmed.supplier_name, code: confirmed.supplier_code, vat_id: confirmed.supplier_vat_id };
      if (party.name && (party.code || party.vat_id) && matchStakeholder(party, register).isNew) keep(party.name, party.code, party.vat_id);
      return true;
    },
    async close() {},
  };
}

async function main() {
  const argv = process.argv.slice(2);
  const folder = argv[0];
  if (!folder || folder.startsWith('--')) throw new Error('usage: recognition-learning.ts <folder> [--limit N] [--only 000,005] [--verbose] [--from-dump <dir> [--no-learning] [--register-from-keys]]');
  const only = option(argv, '--only')?.split(',');
  const limit = Number(option(argv, '--limit') ?? Infinity);
  const verbose = argv.includes('--verbose');
  const fromDump = option(argv, '--from-dump');
  const receipts = listReceipts(folder)
    .filter((r) => !only || only.includes(r.id))
    .slice(0, limit);
  const companies = argv.includes('--register-from-keys') ? [...new Set(readdirSync(path.join(folder, 'keys')).map((f) => (JSON.parse(readFileSync(path.join(folder, 'keys', f), 'utf8')) as Keys).company?.trim() ?? '').filter(Boolean))] : [];
  const stream = fromDump ? replayStream(fromDump, { learning: !argv.includes('--no-learning'), register: companies, extract: replayExtraction(readerOptions(argv)) }) : await productStream(receipts.length);
  try {
    const seen = new Set<string>();
    const outcomes: Outcome[] = [];
    for (const r of receipts) {
      const { status, values } = await stream.read(r);
      const fields = Object.fromEntries(SCORED.map((f) => [f, scorable(r.keys, f) && isRight(f, r.keys[f]!, values[f])])) as Outcome['fields'];
      const right = JUDGED.every((f) => !scorable(r.keys, f) || fields[f]);
      const supplier = supplierOf(r.keys);
      const repeat = seen.has(supplier);
      const confirmed = await stream.confirm(r);
      if (confirmed) seen.add(supplier);
      outcomes.push({ id: r.id, repeat, status, right, fields });
      if (verbose) {
        const wrong = right ? '' : ` wrong: ${JSON.stringify(Object.fromEntries(JUDGED.map((f) => [f, values[f]])))} for ${JSON.stringify(Object.fromEntries(JUDGED.map((f) => [f, r.keys[f]])))}`;
        process.stderr.write(`${r.id} ${status}${repeat ? ' (supplier known)' : ''}${wrong}${confirmed ? '' : '; not confirmed'}\n`);
      }
    }
    const line = (label: string, list: Outcome[]) => {
      const ready = list.filter((o) => o.status === 'ready');
      const right = ready.filter((o) => o.right).length;
      const share = list.length ? (100 * ready.length) / list.length : 0;
      const precision = ready.length ? (100 * right) / ready.length : 100;
      const fieldsRight = SCORED.map((f) => `${f} ${list.filter((o) => o.fields[f]).length}`).join(', ');
      console.log(`${label}: ready ${share.toFixed(1)} % of ${list.length} receipts (${ready.length}), ${precision.toFixed(1)} % of them with company, date and total right; read right: ${fieldsRight}`);
    };
    line('all receipts', outcomes);
    line('first of their supplier', outcomes.filter((o) => !o.repeat));
    line('supplier confirmed before', outcomes.filter((o) => o.repeat));
  } finally {
    await stream.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
