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
