/**
 * Sums of document totals, kept beside the status counts (docs/data-model.md, "counts"; docs/decisions.md "Profile
 * figures"): every counts item — a company's `COUNTS#<type>`, a user's `DOCCOUNTS#<type>` for their unassigned
 * documents — also keeps `total_cents`, the sum of the totals of the documents it counts, whatever their status. The
 * store moves it with ADD in the same transaction as the documents' writes, so it is exact as the counts are. Pure.
 */
import type { StatusCounts } from '../../../shared/schemas';
import { AMOUNT_PATTERN, MAX_WHOLE_DIGITS } from '../../../shared/schemas/content';
import type { DocumentChange, DocumentRecord, ReceiptType, ScopeKey } from './types';

/** One change of a sum: ADD `cents` to the `total_cents` of the counts item of (scope, type). */
export interface SumDelta {
  scope: ScopeKey;
  receipt_type: ReceiptType;
  cents: number;
}

/** What one counts item holds: the number of documents per status and the sum of their totals. */
export interface ScopeTally {
  counts: StatusCounts;
  total_cents: number;
}

/**
 * A document's total in cents. Only an amount the edit screen accepts (`0.00`, at most 12 digits before the point)
 * is summed; none, or one that is not a valid amount yet (a misread the document's review will correct), counts 0.
 */
export function totalCents(total: string | null | undefined): number {
  const value = total?.trim() ?? '';
  if (!AMOUNT_PATTERN.test(value)) return 0;
  const negative = value.startsWith('-');
  const [whole, fraction = ''] = value.replace(/^-/, '').split('.') as [string, string?];
  if (whole.replace(/^0+(?=\d)/, '').length > MAX_WHOLE_DIGITS) return 0;
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return negative ? -cents : cents;
}

/**
 * How a change moves the sums: a new document adds its total to its scope and type; an update takes the old
 * version's total out (of the old scope and type) and puts the new one in; a delete takes its total out. The purge of
 * a deleted company deletes documents without moving any counts (its counts and sums go with the company's partition,
 * docs/data-model.md A17): a change that moves no counts takes no deleted document out of the sums either.
 */
export function sumMoves(change: Pick<DocumentChange, 'puts' | 'updates' | 'deletes' | 'counts'>): SumDelta[] {
  const byKey = new Map<string, SumDelta>();
  const move = (doc: Pick<DocumentRecord, 'scope' | 'receipt_type' | 'total'>, sign: 1 | -1) => {
    const cents = totalCents(doc.total);
    if (cents === 0) return;
    const key = `${doc.scope}|${doc.receipt_type}`;
    const delta = byKey.get(key) ?? { scope: doc.scope, receipt_type: doc.receipt_type, cents: 0 };
    delta.cents += sign * cents;
    byKey.set(key, delta);
  };
  for (const doc of change.puts) move(doc, 1);
  for (const { before, after } of change.updates) {
    move(before, -1);
    move(after, 1);
  }
  if (change.counts.length > 0) for (const doc of change.deletes) move(doc, -1);
  return [...byKey.values()].filter((d) => d.cents !== 0);
}
