/**
 * A currency as read or typed, written in export files as its ISO code: trimmed, upper case, the euro sign as EUR
 * ('€', 'eur' → 'EUR'); none stays none.
 */
export function isoCurrency(typed: string): string {
  const code = typed.trim().toUpperCase();
  return code === '€' ? 'EUR' : code;
}

/** The currency of an accounting export (i.SAF, Rivile, NSOFT): its ISO code, a document without one in EUR. */
export function currencyCode(typed: string): string {
  return isoCurrency(typed) || 'EUR';
}
