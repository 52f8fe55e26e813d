import type { Receipt } from '../api/types';
import { rowRules } from './row-rules';

/**
 * "Select all" of a list takes the rows loaded so far (50 a page); its offer to select the whole list reads the
 * remaining pages first, up to this many documents (bulk actions and exports then go 100 at a time).
 */
export const SELECT_ALL_MAX = 1000;

/** The ids of the whole list's selectable documents, the first `max` of them. */
export function wholeListSelection(rows: ReadonlyArray<Receipt>, max = SELECT_ALL_MAX): string[] {
  return rows
    .filter((r) => rowRules(r).canSelect)
    .slice(0, max)
    .map((r) => r.receipt_id);
}

/**
 * A shift-click on a row's checkbox: every selectable row from the row last clicked (`anchorId`) to this one, in the
 * list's order, is selected (or let go) as this one is, as in a file manager or a mail client. Without an anchor in
 * the list (none clicked yet, or it left the list) only this row changes.
 */
export function selectRange(rows: ReadonlyArray<Receipt>, selected: ReadonlySet<string>, anchorId: string | null, id: string, on: boolean): Set<string> {
  const next = new Set(selected);
  const to = rows.findIndex((r) => r.receipt_id === id);
  const from = anchorId === null ? -1 : rows.findIndex((r) => r.receipt_id === anchorId);
  const span = from < 0 || to < 0 ? rows.filter((r) => r.receipt_id === id) : rows.slice(Math.min(from, to), Math.max(from, to) + 1);
  for (const r of span) {
    if (r.receipt_id !== id && !rowRules(r).canSelect) continue;
    if (on) next.add(r.receipt_id);
    else next.delete(r.receipt_id);
  }
  return next;
}
