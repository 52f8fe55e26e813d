import type { StatusCounts } from '../../../shared/schemas';
import { RECEIPT_STATUSES } from '../../../shared/status';

export function emptyCounts(): StatusCounts {
  return Object.fromEntries(RECEIPT_STATUSES.map((s) => [s, 0])) as StatusCounts;
}

/** Reads a stored counts item (one numeric attribute per status) into the API shape. */
export function countsFromItem(item: Record<string, unknown> | undefined): StatusCounts {
  const counts = emptyCounts();
  if (!item) return counts;
  for (const status of RECEIPT_STATUSES) {
    const value = item[status];
    if (typeof value === 'number' && Number.isFinite(value)) counts[status] = value;
  }
  return counts;
}
