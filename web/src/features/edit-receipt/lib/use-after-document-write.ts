import { useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../../lib/query-keys';
import { receiptOfPayload } from '../../live/lib/cache-updates';
import { useReceiptCache } from '../../live/use-receipt-cache';

/**
 * After a write to one of the edit screen's document-level values (its category, its notes): the document the answer
 * carries goes into the lists' cache, and, when it is the document shown, its content (whose version moved with the
 * document's, `refresh`) and its detail are read again.
 */
export function useAfterDocumentWrite({ receiptId, refresh }: { receiptId: string; refresh(): Promise<unknown> }) {
  const qc = useQueryClient();
  const cache = useReceiptCache();
  return async (answer: unknown, written: { receiptId: string; companyId: string }) => {
    const updated = receiptOfPayload(answer);
    if (updated) cache.applyReceipt(updated);
    if (written.receiptId !== receiptId) return;
    await Promise.all([refresh(), qc.invalidateQueries({ queryKey: queryKeys.receipt(written.receiptId, written.companyId) })]);
  };
}
