import { STATUS_TITLES, type ReceiptStatus } from '../../../../../shared/status';
import type { Receipt } from '../../receipts/api/types';

const BEING_READ = new Set(['processing', 'converting']);

const titleOf = (status: string) => STATUS_TITLES[status as ReceiptStatus] ?? status;

/**
 * What a screen reader is told when live events bring documents that the user saw being read and that are done
 * now (their rows leave In Processing without a sound otherwise): one document by its file name and list, several
 * by count per list ("3 documents processed: 2 To Review, 1 Failed"). Null when none of them finished.
 */
export function processedAnnouncement(receipts: ReadonlyArray<Pick<Receipt, 'receipt_id' | 'status' | 'original_file_name'>>, before: ReadonlyMap<string, string>): string | null {
  const done = new Map<string, Pick<Receipt, 'status' | 'original_file_name'>>();
  for (const r of receipts) {
    const was = before.get(r.receipt_id);
    if (was !== undefined && BEING_READ.has(was) && !BEING_READ.has(r.status)) done.set(r.receipt_id, r);
  }
  if (done.size === 0) return null;
  if (done.size === 1) {
    const [only] = done.values();
    return `${only!.original_file_name || 'Document'} processed: ${titleOf(only!.status)}`;
  }
  const perStatus = new Map<string, number>();
  for (const r of done.values()) perStatus.set(r.status, (perStatus.get(r.status) ?? 0) + 1);
  const parts = [...perStatus].map(([status, n]) => `${n} ${titleOf(status)}`);
  return `${done.size} documents processed: ${parts.join(', ')}`;
}
