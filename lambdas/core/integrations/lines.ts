/**
 * The accounting lines of a document, shared by the Rivile and NSOFT exports: its line items when they account for
 * the whole document, else one line per VAT rate (as the i.SAF export totals them).
 *
 * The VAT the ledger books must be the VAT of the i.SAF register to the cent (VMI cross-checks them), so line items
 * are booked only when, per VAT rate, their nets and their VAT amounts equal the document's VAT lines after a
 * rounding adjustment: line VAT is worked out and rounded line by line (10 items at 0.99 gross give 8.20 + 1.70, the
 * receipt prints 8.18 + 1.72), and a difference of at most 0.01 per line of the rate, in the net and in the VAT
 * separately, is put on the largest line of that rate. Anything more (a line misread as 9,009.00 for 9,000.00, items
 * read in part, rates that do not match the VAT lines, a line without a rate on a document of several) books the
 * per-rate lines, which never carry a wrong amount. A document without VAT lines is checked against its net and
 * VAT totals as a whole.
 *
 * A line item without a VAT rate takes the document's rate when it has only one. Line totals are read as nets, and
 * when those do not match, as gross amounts (the VAT backed out of them).
 */
import { rowsOf } from '../content/tree';
import type { ExportDocument } from '../export/fields';
import { documentTotals, isafTaxCode, type IsafTotal } from '../export/isaf';

export interface AccountingLine {
  code: string;
  description: string;
  quantity: number;
  unit: string;
  net: number;
  rate: number | null;
  tax: number;
  taxCode: string | null;
  /** True for a line made from the VAT totals (no line items). */
  fromTotals: boolean;
}

export const money = (v: number) => (Math.round(v * 100) / 100).toFixed(2);
export const num = (s: string | undefined) => {
  const n = Number((s ?? '').replace(',', '.'));
  return s !== undefined && s.trim() !== '' && Number.isFinite(n) ? n : undefined;
};
type Reading = 'net' | 'gross';

/** Whole cents, so that sums are exact. */
const cents = (v: number) => Math.round(v * 100);
/** The key of a rate (21, 5.5) or of a total without one. */
const rateKey = (rate: number | null | undefined) => (rate === null || rate === undefined ? '?' : String(cents(rate)));

/**
 * The lines adjusted to the document's totals per rate, or undefined when they differ by more than a cent per line
 * of a rate. Totals of one unknown rate (a document without VAT lines whose tax is no rate of the date) are matched
 * by all the lines.
 */
function reconciled(lines: AccountingLine[], totals: IsafTotal[]): AccountingLine[] | undefined {
  const wholeDocument = totals.length === 1 && totals[0]!.taxPercentage === null;
  const keyOf = (l: AccountingLine) => (wholeDocument ? '?' : rateKey(l.rate));
  const groups = new Map<string, { net: number; tax: number; lines: AccountingLine[] }>();
  const group = (key: string) => groups.get(key) ?? groups.set(key, { net: 0, tax: 0, lines: [] }).get(key)!;
  for (const t of totals) {
    const g = group(rateKey(t.taxPercentage === null ? null : Number(t.taxPercentage)));
    g.net += cents(Number(t.taxableValue));
    g.tax += cents(Number(t.amount ?? 0));
  }
  const out = lines.map((l) => ({ ...l }));
  for (const l of out) group(keyOf(l)).lines.push(l);
  for (const g of groups.values()) {
    const net = g.net - g.lines.reduce((s, l) => s + cents(l.net), 0);
    const tax = g.tax - g.lines.reduce((s, l) => s + cents(l.tax), 0);
    if (Math.abs(net) > g.lines.length || Math.abs(tax) > g.lines.length) return undefined;
    if (!net && !tax) continue;
    // The largest line of the rate (the first of equals) takes the rounding difference.
    const largest = g.lines.reduce((a, b) => (Math.abs(b.net) > Math.abs(a.net) ? b : a));
    largest.net = (cents(largest.net) + net) / 100;
    largest.tax = (cents(largest.tax) + tax) / 100;
  }
  return out;
}

export function accountingLines(doc: ExportDocument, date: string): AccountingLine[] {
  const totals = documentTotals(doc, date);
  const rates = totals.map((t) => num(t.taxPercentage ?? undefined)).filter((r): r is number => r !== undefined);
  const docRate = rates.length === 1 ? rates[0]! : undefined;
  const items = rowsOf(doc.content, 'line_items').filter((r) => num(r.total_price) !== undefined || num(r.unit_price_without_vat) !== undefined);
  const fromTotals = (): AccountingLine[] =>
    totals.map((t) => ({
      code: '',
      description: '',
      quantity: 1,
      unit: '',
      net: Number(t.taxableValue),
      rate: num(t.taxPercentage ?? undefined) ?? null,
      tax: Number(t.amount ?? 0),
      taxCode: t.taxCode,
      fromTotals: true,
    }));
  const itemLines = (reading: Reading) =>
    items.map((r): AccountingLine => {
      const rate = num(r.vat_rate) ?? docRate ?? null;
      const qty = num(r.quantity) ?? 1;
      const lineTotal = num(r.total_price);
      const vat = num(r.vat);
      const unitNet = num(r.unit_price_without_vat);
      let net: number;
      if (unitNet !== undefined && lineTotal === undefined) net = unitNet * qty;
      else if (reading === 'gross') net = (lineTotal ?? 0) - (vat ?? ((lineTotal ?? 0) * (rate ?? 0)) / (100 + (rate ?? 0)));
      else net = lineTotal ?? 0;
      const tax = vat ?? (net * (rate ?? 0)) / 100;
      return {
        code: (r.product_code ?? '').trim(),
        description: (r.description ?? '').trim(),
        quantity: qty,
        unit: (r.unit_of_measurement ?? '').trim(),
        net: Math.round(net * 100) / 100,
        rate,
        tax: Math.round(tax * 100) / 100,
        taxCode: rate === null ? null : isafTaxCode(rate, date),
        fromTotals: false,
      };
    });
  if (items.length) {
    // Nothing to check them against: the line items as nets.
    if (!totals.length) return itemLines('net');
    for (const reading of ['net', 'gross'] as const) {
      const lines = itemLines(reading);
      if (!lines.every((l) => l.rate !== null)) break;
      const booked = reconciled(lines, totals);
      if (booked) return booked;
    }
  }
  return fromTotals();
}
