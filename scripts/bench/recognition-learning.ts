/**
 * npm run bench:recognition-learning -- <folder> [--limit N] [--only 000,005] [--verbose]
 *
 * The product's own `ready` on a stream of receipts of one company that confirms every document: the whole product
 * runs locally in this process (the local stack, its processing job and local recogniser), and each receipt of a
 * SROIE-style folder (images/, keys/) is, in the folder's order,
 *   1. uploaded through the API as a cost document and processed by the real job (recognition, master data,
 *      learnt layouts, the ready rule),
 *   2. judged: its status (`ready` or `review`) and its company, date and total against the key,
 *   3. put right as a person would on the edit screen — company, date, total and address set to the key's values
 *      in the same POST /receipt/{id}?with_send=1 that confirms it — so the supplier joins the company's master
 *      data and its layout is learnt, as after every confirm.
 * It prints the ready share and its precision over all receipts, over the first receipt of each supplier (the
 * key's company) and over the receipts of a supplier confirmed before, with how many of each field were read right
 * (ready or not); `--verbose` one line per receipt.
 * The recogniser is the shipped one with its default options; on the development folder that is its training
 * data (in-sample reading), so this measures what learning and master data add, not unseen reading.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../../lambdas/adapters/ddb/client';
import { keys as tableKeys } from '../../lambdas/adapters/ddb/keys';
import { parseDate } from '../../lambdas/core/recognition/extract/dates';
import { findItem } from '../../lambdas/core/content/tree';
import type { ContentResponse } from '../../shared/schemas/content';
import { accessTokenOf, registerUser, uploadThroughApi } from '../local/seed';
import { startLocalStack } from '../local/stack';
import { isRight, listReceipts, option, scorable, type Keys, type Receipt } from './recognition/sroie';

const JUDGED = ['company', 'date', 'total'] as const;
const SCORED = ['company', 'date', 'total', 'address'] as const;
const CONTENT_ID = { company: 'supplier_name', date: 'issue_date', total: 'amount_total', address: 'supplier_street' } as const;

interface Outcome {
  id: string;
  repeat: boolean;
  status: string;
  right: boolean;
  /** Each field of the key read right (company, date, total, address), ready or not. */
  fields: Record<(typeof SCORED)[number], boolean>;
  got: Record<(typeof JUDGED)[number], string | undefined>;
}

/** The key's values as a person types them on the edit screen (a date as YYYY-MM-DD, a total as 0.00). */
function corrections(k: Keys): { id: string; value: string }[] {
  const out: { id: string; value: string }[] = [];
  if (k.company?.trim()) out.push({ id: CONTENT_ID.company, value: k.company.trim() });
  if (k.address?.trim()) out.push({ id: CONTENT_ID.address, value: k.address.trim() });
  const date = k.date ? parseDate(k.date.trim()) : undefined;
  if (date) out.push({ id: CONTENT_ID.date, value: date });
  const total = k.total ? Number(k.total.replace(/[^\d.-]/g, '')) : NaN;
  if (Number.isFinite(total)) out.push({ id: CONTENT_ID.total, value: total.toFixed(2) });
  return out;
}

const supplierOf = (k: Keys) => (k.company ?? '').toUpperCase().replace(/[^A-Z0-9]+/g, '');

async function main() {
  const argv = process.argv.slice(2);
  const folder = argv[0];
  if (!folder || folder.startsWith('--')) throw new Error('usage: recognition-learning.ts <folder> [--limit N] [--only 000,005] [--verbose]');
  const only = option(argv, '--only')?.split(',');
  const limit = Number(option(argv, '--limit') ?? Infinity);
  const verbose = argv.includes('--verbose');
  const receipts = listReceipts(folder)
    .filter((r) => !only || only.includes(r.id))
    .slice(0, limit);

  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-learning-'));
  const stack = await startLocalStack({ dataDir, port: 0, onCode: () => undefined });
  try {
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
        ExpressionAttributeValues: { ':a': receipts.length + 100 },
      }),
    );

    const seen = new Set<string>();
    const outcomes: Outcome[] = [];
    for (const r of receipts) outcomes.push(await oneReceipt(r));

    async function oneReceipt(r: Receipt): Promise<Outcome> {
      const fileName = `${r.id}${path.extname(r.image)}`;
      const bytes = new Uint8Array(readFileSync(r.image));
      const up = await uploadThroughApi(stack.apiUrl, token, { company_id: companyId, receipt_type: 'receipt', original_file_name: fileName, content_type: 'image/jpeg' }, bytes);
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
      const value = (id: string) => findItem({ items: content.content, seq: 0 }, id)?.content?.value ?? undefined;
      const got = { company: value(CONTENT_ID.company), date: value(CONTENT_ID.date), total: value(CONTENT_ID.total) };
      const read = { ...got, address: value(CONTENT_ID.address) };
      const fields = Object.fromEntries(SCORED.map((f) => [f, scorable(r.keys, f) && isRight(f, r.keys[f]!, read[f] || undefined)])) as Outcome['fields'];
      const right = JUDGED.every((f) => !scorable(r.keys, f) || fields[f]);
      const supplier = supplierOf(r.keys);
      const repeat = seen.has(supplier);
      const confirmed = await call('POST', `/receipt/${doc.receipt_id}?company_id=${companyId}&with_send=1`, { version: content.version, items: corrections(r.keys) });
      if (confirmed.status === 200) seen.add(supplier);
      const outcome: Outcome = { id: r.id, repeat, status: doc.status, right, fields, got };
      if (verbose) {
        const note = confirmed.status === 200 ? '' : `; confirm answered ${confirmed.status} ${JSON.stringify(confirmed.body).slice(0, 200)}`;
        process.stderr.write(`${r.id} ${doc.status}${repeat ? ' (supplier known)' : ''}${right ? '' : ` wrong: ${JSON.stringify(got)} for ${JSON.stringify({ company: r.keys.company, date: r.keys.date, total: r.keys.total })}`}${note}\n`);
      }
      return outcome;
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
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
