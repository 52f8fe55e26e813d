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
