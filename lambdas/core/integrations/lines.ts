/**
 * The accounting lines of a document, shared by the Rivile and NSOFT exports: its line items when it has
 * priced ones that account for the whole document, else one line per VAT rate (as the i.SAF export totals them).
 * A line item without a VAT rate takes the document's rate when it has only one; line totals count as net when
 * they add up to the document's net amount (or it has none), as gross when they add up to its total. Line items
 * are booked only when their nets add up to the document's net amount and each has a VAT rate: items read in part
 * (one line of three) or without their rates on a document of several rates would book a wrong amount or lose
 * its VAT, and the VAT totals never do.
 */
import { rowsOf, valueOf } from '../content/tree';
import type { ExportDocument } from '../export/fields';
import { documentTotals, isafTaxCode } from '../export/isaf';

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
const near = (a: number, b: number) => Math.abs(a - b) < 0.02 + Math.abs(b) * 0.001;

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
  if (items.length) {
    const sum = items.reduce((s, r) => s + (num(r.total_price) ?? 0), 0);
    const base = num(valueOf(doc.content, 'amount_total_base'));
    const total = num(valueOf(doc.content, 'amount_total'));
    const gross = base === undefined ? total !== undefined && near(sum, total) && !near(sum, total - (num(valueOf(doc.content, 'amount_tax')) ?? 0)) : !near(sum, base) && total !== undefined && near(sum, total);
    const lines = items.map((r): AccountingLine => {
      const rate = num(r.vat_rate) ?? docRate ?? null;
      const qty = num(r.quantity) ?? 1;
      const lineTotal = num(r.total_price);
      const vat = num(r.vat);
      const unitNet = num(r.unit_price_without_vat);
      let net: number;
      if (unitNet !== undefined && lineTotal === undefined) net = unitNet * qty;
      else if (gross) net = (lineTotal ?? 0) - (vat ?? ((lineTotal ?? 0) * (rate ?? 0)) / (100 + (rate ?? 0)));
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
    if (!totals.length) return lines;
    const net = totals.reduce((s, t) => s + Number(t.taxableValue), 0);
    const linesNet = lines.reduce((s, l) => s + l.net, 0);
    if (near(linesNet, net) && lines.every((l) => l.rate !== null)) return lines;
  }
  return fromTotals();
}
