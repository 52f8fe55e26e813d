/**
 * VAT lines per rate ("PVM 21 % 100,00 21,00 121,00", "SR @ 6% 21.00 1.26", "VAT 9% 0.90") and the
 * arithmetic checks that tie them to the totals.
 */
import { amountsEqual, findAmounts, findRates, formatAmount, roundMoney } from './amounts';
import { foundInRow, type Found, type Row } from './rows';
import { foldDiacritics } from './text';

export interface VatLine {
  rate: number;
  net?: number;
  vat: number;
  gross?: number;
  found: { rate: Found; net?: Found; vat: Found; gross?: Found };
}

const VAT_WORD = /\b(vat|pvm|gst|tax|tva|mwst|iva|sst|sr|zr|tx|s|z)\b|@/i;

/** Does `vat` equal `net × rate` within rounding (one cent, or a little more for large sums)? */
export function vatMatches(net: number, rate: number, vat: number): boolean {
  const expected = (net * rate) / 100;
  return Math.abs(expected - vat) <= Math.max(0.011, Math.abs(expected) * 0.001);
}

/** Reads VAT lines from rows that carry a rate and amounts. `base`/`tax` (if known) help one-amount rows. */
export function extractVatLines(rows: Row[], known: { subtotal?: number; tax?: number; total?: number } = {}): VatLine[] {
  const out: VatLine[] = [];
  for (const row of rows) {
    const text = foldDiacritics(row.text);
    const rates = findRates(text);
    if (rates.length !== 1) continue;
    if (!VAT_WORD.test(text) && !/^\s*\d{1,2}([.,]\d+)?\s?%/.test(text)) continue;
    const rate = rates[0]!;
    const amounts = findAmounts(text).filter((a) => a.index > rate.index || a.index + a.raw.length <= rate.index);
    const after = amounts.filter((a) => a.index > rate.index);
    const usable = after.length ? after : amounts;
    const rateFound = foundInRow(row, rate.index, rate.index + rate.raw.length, String(rate.value));
    const f = (a: (typeof usable)[number]) => foundInRow(row, a.index, a.index + a.raw.length, formatAmount(a.value));
    let line: VatLine | undefined;
    const v = usable.map((a) => a.value);
    // Try (net, vat, gross), (net, vat), (vat, gross) and (gross, net, vat) patterns, checked by arithmetic.
    for (let i = 0; i < v.length && !line; i++) {
      for (let j = 0; j < v.length && !line; j++) {
        if (i === j) continue;
        const net = v[i]!;
        const vat = v[j]!;
        if (!vatMatches(net, rate.value, vat)) continue;
        if (rate.value === 0 && net === 0) continue;
        const gi = v.findIndex((g, k) => k !== i && k !== j && amountsEqual(g, roundMoney(net + vat), 0.011));
        line = {
          rate: rate.value,
          net,
          vat,
          ...(gi >= 0 ? { gross: v[gi]! } : {}),
          found: { rate: rateFound, net: f(usable[i]!), vat: f(usable[j]!), ...(gi >= 0 ? { gross: f(usable[gi]!) } : {}) },
        };
      }
    }
    // One amount: the VAT of that rate, checked against the known tax or subtotal.
    if (!line && usable.length === 1 && rate.value > 0) {
      const vat = usable[0]!.value;
      const fitsTax = known.tax !== undefined && amountsEqual(known.tax, vat, 0.011);
      const fitsBase = known.subtotal !== undefined && vatMatches(known.subtotal, rate.value, vat);
      const fitsTotal = known.total !== undefined && vatMatches(known.total - vat, rate.value, vat);
      if (fitsTax || fitsBase || fitsTotal) {
        const net = fitsBase ? known.subtotal! : fitsTotal ? roundMoney(known.total! - vat) : undefined;
        line = { rate: rate.value, vat, ...(net !== undefined ? { net, gross: roundMoney(net + vat) } : {}), found: { rate: rateFound, vat: f(usable[0]!) } };
      }
    }
    if (line && !out.some((o) => o.rate === line.rate && amountsEqual(o.vat, line.vat))) out.push(line);
  }
  return out;
}

export interface TotalsCheck {
  ok: boolean;
  problems: string[];
}

/**
 * Arithmetic checks: every VAT line's net × rate = VAT and net + VAT = gross; lines add up to the
 * tax and base; base + tax = total.
 */
export function checkTotals(t: { total?: number; subtotal?: number; tax?: number; vatLines: Pick<VatLine, 'rate' | 'net' | 'vat' | 'gross'>[] }): TotalsCheck {
  const problems: string[] = [];
  for (const l of t.vatLines) {
    if (l.net !== undefined && !vatMatches(l.net, l.rate, l.vat)) problems.push(`VAT ${l.rate}%: ${l.net} × ${l.rate}% ≠ ${l.vat}`);
    if (l.net !== undefined && l.gross !== undefined && !amountsEqual(l.net + l.vat, l.gross, 0.011)) {
      problems.push(`VAT ${l.rate}%: ${l.net} + ${l.vat} ≠ ${l.gross}`);
    }
  }
  if (t.vatLines.length && t.tax !== undefined) {
    const sum = t.vatLines.reduce((s, l) => s + l.vat, 0);
    if (!amountsEqual(sum, t.tax, 0.011)) problems.push(`VAT lines add up to ${roundMoney(sum)}, tax is ${t.tax}`);
  }
  if (t.vatLines.length && t.subtotal !== undefined && t.vatLines.every((l) => l.net !== undefined)) {
    const sum = t.vatLines.reduce((s, l) => s + (l.net ?? 0), 0);
    if (!amountsEqual(sum, t.subtotal, 0.011)) problems.push(`VAT line bases add up to ${roundMoney(sum)}, base is ${t.subtotal}`);
  }
  if (t.subtotal !== undefined && t.tax !== undefined && t.total !== undefined && !amountsEqual(t.subtotal + t.tax, t.total, 0.011)) {
    problems.push(`${t.subtotal} + ${t.tax} ≠ ${t.total}`);
  }
  return { ok: problems.length === 0, problems };
}
