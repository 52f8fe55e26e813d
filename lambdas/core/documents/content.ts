/**
 * Recognised fields → the rule that decides whether a freshly recognised document is `ready` by
 * itself or goes to `review` (docs/decisions.md), and the helpers the documents domain needs around
 * the content tree (the content model itself is core/content's).
 */
import { valueError, type ContentItem } from '../../../shared/schemas/content';
import { valueOf, type ContentDocument } from '../content/tree';
import { amountsClose as close, comesToTotal } from '../../../shared/document-arithmetic';
import { roundMoney } from '../recognition/extract/amounts';
import type { ExtractedFields, FieldValue, HeaderFieldId } from '../recognition/types';
import type { ReceiptType } from './types';

export function emptyFields(): ExtractedFields {
  return { vat_lines: [], line_items: [] };
}

/** The counterparty: the supplier of a cost receipt, the customer of a sales invoice. */
export const counterpartyField = (type: ReceiptType): HeaderFieldId => (type === 'receipt' ? 'supplier_name' : 'customer_name');

/**
 * Converting receipt ⇄ invoice moves the counterparty's content between the supplier_* and the
 * customer_* datapoints (values, positions and confidences swap places).
 */
export function swapCounterpartyContent(doc: ContentDocument): ContentDocument {
  const byId = new Map<string, ContentItem>();
  const visit = (items: ContentItem[]) => {
    for (const i of items) {
      if (i.category === 'datapoint') byId.set(i.schema_id, i);
      visit(i.children);
    }
  };
  const copy = structuredClone(doc);
  visit(copy.items);
  for (const [schemaId, item] of byId) {
    if (!schemaId.startsWith('supplier_')) continue;
    const other = byId.get(`customer_${schemaId.slice('supplier_'.length)}`);
    if (!other) continue;
    const [a, b] = [item.content, other.content];
    item.content = b;
    other.content = a;
    const [fa, fb] = [item.file, other.file];
    item.file = fb;
    other.file = fa;
  }
  return copy;
}

/**
 * The content of a document converted to `to`: the counterparty moves to the side that type reads (supplier_* of a
 * receipt, customer_* of an invoice; swapCounterpartyContent), so the counterparty stays the counterparty — unless
 * that side already names a party and the other side names none. Then the document was read or typed with its
 * parties where they belong and only its type was wrong (a cost receipt uploaded as a sales invoice: the seller
 * read as its supplier, no customer), and swapping would empty the party the converted type shows.
 */
export function contentForType(doc: ContentDocument, to: ReceiptType): ContentDocument {
  const named = (side: 'supplier' | 'customer') => ['name', 'code', 'vat_id'].some((field) => valueOf(doc, `${side}_${field}`).trim() !== '');
  const target = to === 'receipt' ? 'supplier' : 'customer';
  const source = target === 'supplier' ? 'customer' : 'supplier';
  return named(target) && !named(source) ? structuredClone(doc) : swapCounterpartyContent(doc);
}

/** Confidence (0..100) a required field needs for the document to be ready without review. */
export const READY_CONFIDENCE = 90;
export interface ReadyCheck {
  ready: boolean;
  /** Why not (empty when ready). */
  reasons: string[];
  /** The arithmetic checks that could be made and passed. */
  checks: string[];
}

/** The checks that confirm the total itself (Σ VAT lines = tax leaves a misread total unseen). */
const TOTAL_CHECKS = new Set(['base + tax = total', 'Σ VAT-line gross = total', 'Σ VAT-line net + VAT = total', 'Σ line items = total']);

const num = (v: FieldValue | undefined) => (v && v.value !== '' && Number.isFinite(Number(v.value)) ? Number(v.value) : undefined);
/**
 * Do the items' amounts leave out a positive tax the document prints? Items that print a VAT or a VAT rate of their
 * own are priced before it (an invoice's lines add up to its net), and a tax that is the items' sum times a printed
 * rate, to the cent, is charged on top of that sum. A total equal to such a sum may be the net read for the total:
 * the sum is no check of it.
 */
function itemsLeaveOutTax(fields: ExtractedFields, itemsSum: number, tax: number | undefined): boolean {
  if (fields.line_items.some((li) => (num(li.vat) ?? 0) > 0 || (num(li.vat_rate) ?? 0) > 0)) return true;
  if (tax === undefined || tax <= 0) return false;
  const rates = fields.vat_lines.map((l) => num(l.vat_rate)).filter((r): r is number => r !== undefined && r > 0);
  return rates.some((r) => Math.abs(roundMoney((itemsSum * r) / 100) - tax) < 0.005);
}

/**
 * Ready rule: every required field (counterparty name, document number, issue date, total) is
 * present with confidence ≥ READY_CONFIDENCE, the issue date is a real date not in the future, at
 * least one arithmetic check of the total can be made, and every check that can be made passes:
 * base + tax = total; Σ VAT-line VAT = tax; Σ VAT-line gross = total (or, where the VAT lines print no
 * gross, Σ net + VAT = total); net + VAT = gross on each VAT line; Σ line-item totals = total or = base. A sum
 * comes to the total within a cent per amount added, or when the total is its cash rounding (`comesToTotal`).
 * The items' sum checks the total itself only where it is no net: not where it equals the base, nor where the
 * items leave out a tax the document prints (`itemsLeaveOutTax`).
 * `today` is the latest date on earth (`latestDateOnEarth` of shared/business-time.ts): an issue date after it is in
 * the future wherever the document was written.
 */
export function readyCheck(fields: ExtractedFields, type: ReceiptType, today: string): ReadyCheck {
  const reasons: string[] = [];
  const checks: string[] = [];
  const required: [HeaderFieldId, string][] = [
    [counterpartyField(type), type === 'receipt' ? 'supplier' : 'customer'],
    ['document_id', 'document number'],
    ['issue_date', 'issue date'],
    ['amount_total', 'total'],
  ];
  for (const [id, label] of required) {
    const v = fields[id];
    if (!v || !v.value.trim()) reasons.push(`${label} missing`);
    else if (v.confidence < READY_CONFIDENCE) reasons.push(`${label} read with low confidence (${v.confidence})`);
  }
  // A value the edit screen would refuse could not be confirmed as it stands.
  for (const [id, label] of [['amount_total', 'total'], ['amount_total_base', 'net'], ['amount_tax', 'tax']] as const) {
    const v = fields[id]?.value.trim();
    if (v && valueError({ type: 'amount' }, v, false)) reasons.push(`${label} is not a valid amount`);
  }
  const issue = fields.issue_date?.value;
  if (issue) {
    const valid = /^\d{4}-\d{2}-\d{2}$/.test(issue) && !Number.isNaN(Date.parse(`${issue}T00:00:00Z`)) && new Date(`${issue}T00:00:00Z`).toISOString().slice(0, 10) === issue;
    if (!valid) reasons.push('issue date is not a valid date');
    else if (issue > today) reasons.push('issue date is in the future');
  }
  const total = num(fields.amount_total);
  const base = num(fields.amount_total_base);
  const tax = num(fields.amount_tax);
  const fail = (what: string) => reasons.push(`${what} does not add up`);
  if (total !== undefined && base !== undefined && tax !== undefined) {
    if (comesToTotal(base + tax, total, 2)) checks.push('base + tax = total');
    else fail('base + tax = total');
  }
  const vatLines = fields.vat_lines;
  const vats = vatLines.map((l) => num(l.amount_vat));
  if (tax !== undefined && vats.length > 0 && vats.every((v) => v !== undefined)) {
    const sum = vats.reduce<number>((s, v) => s + v!, 0);
    if (close(sum, tax, vats.length)) checks.push('Σ VAT lines = tax');
    else fail('Σ VAT lines = tax');
  }
  const grosses = vatLines.map((l) => num(l.amount_gross));
  const nets = vatLines.map((l) => num(l.amount_net));
  if (total !== undefined && grosses.length > 0 && grosses.every((v) => v !== undefined)) {
    const sum = grosses.reduce<number>((s, v) => s + v!, 0);
    if (comesToTotal(sum, total, grosses.length)) checks.push('Σ VAT-line gross = total');
    else fail('Σ VAT-line gross = total');
  } else if (total !== undefined && vatLines.length > 0 && grosses.every((v) => v === undefined) && nets.every((v) => v !== undefined) && vats.every((v) => v !== undefined)) {
    // A tax summary of net and VAT only ("SR = 6 %  147.17  8.83") adds up to the total as its gross would.
    const sum = nets.reduce<number>((s, v, i) => s + v! + vats[i]!, 0);
    if (comesToTotal(sum, total, 2 * vatLines.length)) checks.push('Σ VAT-line net + VAT = total');
    else fail('Σ VAT-line net + VAT = total');
  }
  vatLines.forEach((l, i) => {
    const net = num(l.amount_net);
    const vat = num(l.amount_vat);
    const gross = num(l.amount_gross);
    if (net === undefined || vat === undefined || gross === undefined) return;
    if (close(net + vat, gross, 2)) checks.push(`VAT line ${i + 1}: net + VAT = gross`);
    else fail(`VAT line ${i + 1}: net + VAT = gross`);
  });
  const lineTotals = fields.line_items.map((li) => num(li.total_price));
  if (total !== undefined && lineTotals.length > 0 && lineTotals.every((v) => v !== undefined)) {
    const sum = lineTotals.reduce<number>((s, v) => s + v!, 0);
    const terms = lineTotals.length;
    // Items that add up to the base, or to a total that leaves out the tax they are charged, check the net only.
    if (comesToTotal(sum, total, terms)) checks.push(itemsLeaveOutTax(fields, sum, tax) ? 'Σ line items (before tax) = total' : 'Σ line items = total');
    else if (base !== undefined && close(sum, base, terms)) checks.push('Σ line items = base');
    else fail('Σ line items = total');
  }
  if (!reasons.some((r) => r.includes('does not add up'))) {
    if (checks.length === 0) reasons.push('no arithmetic check could be made');
    else if (!checks.some((c) => TOTAL_CHECKS.has(c))) reasons.push('no arithmetic check of the total could be made');
  }
  return { ready: reasons.length === 0, reasons, checks };
}

/** A digest input for "same document" duplicates: counterparty + number + total, normalised. */
export function documentKeyText(summary: { counterparty_name: string; document_number: string; total: string | null }): string | null {
  const name = summary.counterparty_name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
  const number = summary.document_number.toUpperCase().replace(/[^A-Z0-9]+/g, '');
  if (!name || !number || !summary.total) return null;
  return `${name}|${number}|${summary.total}`;
}
