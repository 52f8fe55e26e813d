/**
 * Learning from corrections, on confirm: the confirmed header values of a document's content and the OCR
 * words of its stored page boxes become a SupplierLayoutHint (`learnLayout`), stored for the document's
 * company under the supplier's keys. The processing job applies it to the same supplier's next documents.
 *
 * Only cost documents (receipt_type 'receipt') are learnt: their issuer is the supplier. A sales invoice
 * ('invoice') is issued by the company itself; its layout would be keyed by the company's own identity, which
 * is printed as the buyer on the company's cost documents too (see docs/recognition.md).
 */
import type { DocumentRecord, TaughtBy } from '../documents/types';
import type { ConfirmedFields, ConfirmedPlaces } from '../recognition/learn';
import { learnLayout } from '../recognition/learn';
import { supplierKeys, type SupplierKey } from '../recognition/layout-keys';
import type { SupplierLayouts } from '../recognition/ports';
import type { HeaderFieldId, OcrWord } from '../recognition/types';
import { SCHEMA_TO_HEADER, type PageBoxes } from './build';
import type { ContentBlobs } from './ports';
import { walk, type ContentDocument } from './tree';

/** The filled header values of a content tree as the learner's confirmed fields (rows are left out). */
export function confirmedFieldsFromContent(doc: ContentDocument): ConfirmedFields {
  const out: ConfirmedFields = {};
  for (const item of walk(doc.items)) {
    if (item.category !== 'datapoint' || item.id !== item.schema_id) continue; // datapoints in rows have row ids
    const field = SCHEMA_TO_HEADER.get(item.schema_id);
    const value = item.content?.value.trim();
    if (field && value && out[field] === undefined) out[field] = value;
  }
  return out;
}

/** Where the content says each filled header value was read (its stored position and page), by field. */
export function confirmedPlacesFromContent(doc: ContentDocument): ConfirmedPlaces {
  const out: ConfirmedPlaces = {};
  for (const item of walk(doc.items)) {
    if (item.category !== 'datapoint' || item.id !== item.schema_id) continue;
    const field = SCHEMA_TO_HEADER.get(item.schema_id);
    const c = item.content;
    if (field && c?.value.trim() && c.position && c.page && out[field] === undefined) out[field] = { page: c.page, box: c.position };
  }
  return out;
}

const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);

/**
 * The words of stored page boxes (fractions of the page, pages from 1) as the learner's OCR words. Words
 * without text or with a box outside the page are dropped; a page stored without words gives its lines.
 */
export function wordsFromBoxes(pages: readonly PageBoxes[] | null | undefined): OcrWord[] {
  if (!Array.isArray(pages)) return [];
  const out: OcrWord[] = [];
  for (const p of pages as unknown[]) {
    const page = p as Partial<PageBoxes> | null;
    if (!page || !Number.isInteger(page.page) || page.page! < 1) continue;
    const words = Array.isArray(page.words) && page.words.length ? page.words : Array.isArray(page.lines) ? page.lines : [];
    for (const w of words) {
      if (!w || typeof w.text !== 'string' || !w.text.trim()) continue;
      const { left, top, width, height } = w;
      if (![left, top, width, height].every(finite) || width <= 0 || height <= 0) continue;
      if (left < -0.01 || top < -0.01 || left + width > 1.01 || top + height > 1.01) continue;
      const confidence = finite(w.confidence) ? Math.min(100, Math.max(0, w.confidence)) : 0;
      out.push({ text: w.text.trim(), box: { left, top, width, height }, confidence, page: page.page! });
    }
  }
  return out;
}

export type LearnOutcome =
  | { learnt: true; keys: SupplierKey[]; fields: HeaderFieldId[] }
  | { learnt: false; reason: 'not a cost document' | 'no company' | 'no supplier identity' | 'no page boxes' | 'no field found on the page' };

export interface LearnDeps {
  blobs: Pick<ContentBlobs, 'readBoxes'>;
  layouts: SupplierLayouts;
  clock: { now(): Date };
}

/**
 * Learns the layout of a confirmed document and stores it for its company; says what it did. What the same document
 * taught before under other keys (confirmed earlier under another supplier, or under a name it no longer has) is
 * forgotten (C7), also when this confirm learns nothing: the document no longer says so.
 */
export async function learnFromConfirmed(deps: LearnDeps, input: { record: DocumentRecord; content: ContentDocument; userId: string }): Promise<LearnOutcome> {
  const { record } = input;
  if (record.receipt_type !== 'receipt') return { learnt: false, reason: 'not a cost document' };
  if (!record.company_id) return { learnt: false, reason: 'no company' };
  const outcome = await learnCostDocument(deps, { ...input, companyId: record.company_id });
  const kept = outcome.learnt ? outcome.keys : [];
  const stale = (await deps.layouts.taughtBy(record.company_id, record.receipt_id)).filter((k) => !kept.some((n) => n.kind === k.kind && n.value === k.value));
  if (stale.length) await deps.layouts.forget(record.company_id, stale, record.receipt_id);
  return outcome;
}

async function learnCostDocument(deps: LearnDeps, input: { record: DocumentRecord; content: ContentDocument; userId: string; companyId: string }): Promise<LearnOutcome> {
  const { record, content } = input;
  const confirmed = confirmedFieldsFromContent(content);
  if (!supplierKeys({ vat_id: confirmed.supplier_vat_id, code: confirmed.supplier_code, name: confirmed.supplier_name }).length) return { learnt: false, reason: 'no supplier identity' };
  const words = wordsFromBoxes(await deps.blobs.readBoxes(record));
  if (!words.length) return { learnt: false, reason: 'no page boxes' };
  const hint = learnLayout(confirmed, words, confirmedPlacesFromContent(content));
  if (!hint.fields.length) return { learnt: false, reason: 'no field found on the page' };
  // Also under the name printed where the name was read, when the confirmed one is another (the register's): the
  // supplier's next document is looked up by the name it prints (`lookupKeys`).
  const keys = supplierKeys({ vat_id: confirmed.supplier_vat_id, code: confirmed.supplier_code, name: confirmed.supplier_name, printed_name: hint.supplier.printed_name });
  await deps.layouts.put(input.companyId, keys, {
    hint,
    source_receipt_id: record.receipt_id,
    learned_at: deps.clock.now().toISOString(),
    learned_by: input.userId,
  });
  return { learnt: true, keys, fields: hint.fields.map((f) => f.field) };
}

/**
 * Forgets what a deleted cost document taught (C6): the layouts learnt from it, under every key they were stored.
 * The keys that hold them are found by the document (C7), whatever supplier they are of; a layout stored before
 * that index is found by the document's supplier as the record has it, and its own identity (the printed name
 * too) names its keys. A key a later confirm of the supplier wrote is another document's and stays. Without it the
 * supplier's next documents would still be read by the layout of a document that no longer exists (one deleted
 * because it was wrong).
 */
export async function forgetLearntFrom(layouts: Pick<SupplierLayouts, 'find' | 'forget' | 'taughtBy'>, record: TaughtBy): Promise<number> {
  if (record.receipt_type !== 'receipt' || !record.company_id) return 0;
  const taught = await layouts.taughtBy(record.company_id, record.receipt_id);
  const own = supplierKeys({ vat_id: record.counterparty_vat_id, code: record.counterparty_code, name: record.counterparty_name });
  const learnt = own.length ? (await layouts.find(record.company_id, own)).filter((l) => l.source_receipt_id === record.receipt_id) : [];
  const stored = learnt.flatMap((l) => supplierKeys(l.hint.supplier));
  const keys = [...taught, ...(learnt.length ? own : []), ...stored];
  return keys.length ? layouts.forget(record.company_id, keys, record.receipt_id) : 0;
}
