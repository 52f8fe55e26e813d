/**
 * The arithmetic of a document's amounts, one rule for the ready check (lambdas/core/documents/content.ts) and the
 * edit screen's hints (web edit-receipt lib/form.ts): amounts added up come to a total within a cent per amount
 * added (each was rounded to the cent on its own), or the total is their sum's cash rounding.
 */

/** One cent: the rounding of each amount printed. */
const CENT = 0.01;

/** An amount rounded to the nearest 5 cents: the cash rounding of tills where 0.05 is the smallest coin (Malaysia's). */
export function toFiveCents(amount: number): number {
  return Math.round(amount * 20) / 20;
}

/** Two amounts agree within a cent per amount added up into `a` (at least one). */
export function amountsClose(a: number, b: number, terms = 1): boolean {
  return Math.abs(a - b) <= CENT * Math.max(1, terms) + 1e-9;
}

/**
 * A sum of `terms` amounts comes to the total: within a cent per amount, or the total is the sum's cash rounding to
 * the nearest 5 cents (a till that rounds the amount paid prints its "ROUNDING ADJ -0.02" between them).
 */
export function comesToTotal(sum: number, total: number, terms = 1): boolean {
  return amountsClose(sum, total, terms) || Math.abs(toFiveCents(sum) - total) < 0.005;
}

/** A VAT line's amounts (Taxable amount, VAT amount, Amount with VAT); undefined: not given, or not an amount. */
export interface VatLineAmounts {
  base?: number;
  vat?: number;
  gross?: number;
}

/**
 * Where a document's VAT lines do not add up, by the ready rule's checks of them (lambdas/core/documents/content.ts
 * `readyCheck`), each made where its amounts are all given: a line's Taxable amount + VAT amount make its Amount with
 * VAT (within two cents); the lines' VAT amounts make the Tax total (a cent per line); their Amounts with VAT — where
 * no line gives one, their Taxable amount + VAT amount — make the Total (a cent per amount, or its cash rounding).
 * The first that fails, said in the edit screen's words (`line`: one line is off, else the lines together); null when
 * none fails or none can be made. The edit screen's hint under VAT lines and the exports that take their VAT from the
 * lines (i.SAF, Rivile, NSOFT) say the same.
 */
export function vatLinesMismatch(lines: readonly VatLineAmounts[], tax: number | undefined, total: number | undefined): { text: string; line: boolean } | null {
  if (!lines.length) return null;
  const money = (v: number) => (Math.round(v * 100) / 100).toFixed(2);
  for (const [i, l] of lines.entries()) {
    if (l.base === undefined || l.vat === undefined || l.gross === undefined) continue;
    if (!amountsClose(l.base + l.vat, l.gross, 2)) return { text: `VAT line ${i + 1}: Taxable amount + VAT amount is ${money(l.base + l.vat)}`, line: true };
  }
  if (tax !== undefined && lines.every((l) => l.vat !== undefined)) {
    const sum = lines.reduce((s, l) => s + l.vat!, 0);
    if (!amountsClose(sum, tax, lines.length)) return { text: `VAT amounts add up to ${money(sum)}, the Tax total is ${money(tax)}`, line: false };
  }
  if (total === undefined) return null;
  if (lines.every((l) => l.gross !== undefined)) {
    const sum = lines.reduce((s, l) => s + l.gross!, 0);
    if (!comesToTotal(sum, total, lines.length)) return { text: `Amounts with VAT add up to ${money(sum)}, the Total is ${money(total)}`, line: false };
  } else if (lines.every((l) => l.gross === undefined && l.base !== undefined && l.vat !== undefined)) {
    const sum = lines.reduce((s, l) => s + l.base! + l.vat!, 0);
    if (!comesToTotal(sum, total, 2 * lines.length)) return { text: `Taxable amounts + VAT amounts add up to ${money(sum)}, the Total is ${money(total)}`, line: false };
  }
  return null;
}
