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

/**
 * Does `vat` equal `net × rate` within rounding (one cent, or a little more for large sums)? `perUnit`: within the
 * rounding of a till that rounds each unit's tax and adds them up (8 × 0.95 = 7.60 on a net of 127.20 at 6 %, where
 * the rate gives 7.632): half a cent a unit, taken as 0.5 % of the tax.
 */
export function vatMatches(net: number, rate: number, vat: number, perUnit = false): boolean {
  const expected = (net * rate) / 100;
  const slack = perUnit ? Math.abs(vat) * 0.005 : Math.abs(expected) * 0.001;
  return Math.abs(expected - vat) <= Math.max(0.011, slack);
}

/** The first (net, VAT) pair of a row's amounts, by their places in `v`, that the rate ties together. */
function netAndVat(v: number[], rate: number, perUnit: boolean): [number, number] | undefined {
  for (let i = 0; i < v.length; i++) {
    for (let j = 0; j < v.length; j++) {
      if (i === j || (rate === 0 && v[i] === 0)) continue;
      if (vatMatches(v[i]!, rate, v[j]!, perUnit)) return [i, j];
    }
  }
  return undefined;
}

/** Reads VAT lines from rows that carry a rate and amounts. `base`/`tax` (if known) help one-amount rows. */
export function extractVatLines(rows: Row[], known: { subtotal?: number; tax?: number; total?: number } = {}): VatLine[] {
  const out: VatLine[] = [];
  // One-amount rate rows that fit nothing known by themselves: together they may make the tax.
  const unfitted: VatLine[] = [];
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
    // Try (net, vat, gross), (net, vat), (vat, gross) and (gross, net, vat) patterns, checked by arithmetic: to the
    // cent first, then within the rounding of each unit's tax.
    const pair = netAndVat(v, rate.value, false) ?? netAndVat(v, rate.value, true);
    if (pair) {
      const [i, j] = pair;
      const [net, vat] = [v[i]!, v[j]!];
      const gi = v.findIndex((g, k) => k !== i && k !== j && amountsEqual(g, roundMoney(net + vat), 0.011));
      line = {
        rate: rate.value,
        net,
        vat,
        ...(gi >= 0 ? { gross: v[gi]! } : {}),
        found: { rate: rateFound, net: f(usable[i]!), vat: f(usable[j]!), ...(gi >= 0 ? { gross: f(usable[gi]!) } : {}) },
      };
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
      } else if (!unfitted.some((u) => u.rate === rate.value)) {
        unfitted.push({ rate: rate.value, vat, found: { rate: rateFound, vat: f(usable[0]!) } });
      }
    }
    if (line && !out.some((o) => o.rate === line.rate && amountsEqual(o.vat, line.vat))) out.push(line);
  }
  out.push(...taxPerRate(unfitted, out, known.tax));
  return out;
}

/**
 * A tax printed one line per rate ("PVM 21 %: 45,99 / PVM 9 %: 18,50 / PVM 5 %: 1,24"): each line's one amount is its
 * rate's VAT where, with the VAT lines already read, they add up to the document's tax (two rates or more, one line
 * each).
 */
function taxPerRate(unfitted: VatLine[], read: VatLine[], tax: number | undefined): VatLine[] {
  const rows = unfitted.filter((u) => !read.some((o) => o.rate === u.rate));
  if (tax === undefined || rows.length + read.length < 2 || !rows.length) return [];
  const sum = [...read, ...rows].reduce((s, l) => s + l.vat, 0);
  return amountsEqual(roundMoney(sum), tax) ? rows : [];
}

export interface TotalsCheck {
  ok: boolean;
  problems: string[];
}

/**
 * Arithmetic checks: every VAT line's net × rate = VAT (within a till's rounding of each unit's tax) and net + VAT =
 * gross; lines add up to the tax and base; base + tax = total.
 */
export function checkTotals(t: { total?: number; subtotal?: number; tax?: number; vatLines: Pick<VatLine, 'rate' | 'net' | 'vat' | 'gross'>[] }): TotalsCheck {
  const problems: string[] = [];
  for (const l of t.vatLines) {
    if (l.net !== undefined && !vatMatches(l.net, l.rate, l.vat, true)) problems.push(`VAT ${l.rate}%: ${l.net} × ${l.rate}% ≠ ${l.vat}`);
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
