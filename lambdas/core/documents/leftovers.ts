/**
 * A deleted document's leftovers: what its delete removes after the transaction that took the document out (its
 * history, its export markers, the supplier layouts it taught and its files). An unassigned document given a company
 * is deleted the same way, and its history moves to its new id. The transaction writes them down as a leftovers item
 * (D17), the request removes them at once and drops the item (`clearLeftovers`), and the sweeper finishes those a
 * failed removal left (`sweepLeftovers`, D18). A change that has committed answers that it did, whatever its cleanup
 * met: the document is gone for the user, and nothing it held is left for ever.
 *
 * Every step is idempotent (deleting what is already gone does nothing; history copied again overwrites its own
 * items), so the request and the sweeper may both work on the same leftovers.
 */
import { forgetLearntFrom } from '../content/learn-layout';
import type { SupplierLayouts } from '../recognition/ports';
import type { Clock } from '../ports';
import type { DocumentsStore, FileStore } from './ports';
import type { DocumentLeftovers, DocumentRecord } from './types';

export interface LeftoversDeps {
  documents: Pick<DocumentsStore, 'copyHistory' | 'deleteHistory' | 'deleteExportMarkers' | 'dropLeftovers' | 'postponeLeftovers'>;
  files: Pick<FileStore, 'delete' | 'deletePrefix'>;
  layouts: Pick<SupplierLayouts, 'find' | 'forget' | 'taughtBy'>;
  log: { warn(msg: string, data?: Record<string, unknown>): void };
}

/** The sweeper leaves the leftovers of a delete this recent to the request still removing them. */
export const LEFTOVERS_GRACE_MS = 10 * 60_000;
/** Leftovers the sweeper takes on in one run. */
export const LEFTOVERS_PER_SWEEP = 100;

/**
 * The leftovers of a document a change deletes (a delete, and a combine's other document): `files` and `prefixes` it
 * alone held, and the supplier layouts it taught, which go with it.
 */
export function leftoversOf(doc: DocumentRecord, deletedAt: string, files: string[], prefixes: string[]): DocumentLeftovers {
  const taught = doc.receipt_type === 'receipt' && doc.company_id
    ? {
        receipt_id: doc.receipt_id,
        receipt_type: doc.receipt_type,
        company_id: doc.company_id,
        counterparty_name: doc.counterparty_name,
        ...(doc.counterparty_code ? { counterparty_code: doc.counterparty_code } : {}),
        ...(doc.counterparty_vat_id ? { counterparty_vat_id: doc.counterparty_vat_id } : {}),
      }
    : undefined;
  return { receipt_id: doc.receipt_id, deleted_at: deletedAt, files, prefixes, ...(taught ? { taught } : {}) };
}

/**
 * Removes everything the leftovers name, each removal on its own (one that fails does not keep the others from
 * running), and drops the leftovers item once all succeeded. Never throws: says whether all is gone.
 */
export async function clearLeftovers(deps: LeftoversDeps, left: DocumentLeftovers): Promise<boolean> {
  const steps: [string, () => Promise<unknown>][] = [
    ['history', () => moveOrDeleteHistory(deps, left)],
    ['export markers', () => deps.documents.deleteExportMarkers(left.receipt_id)],
    ['learnt layouts', () => (left.taught ? forgetLearntFrom(deps.layouts, left.taught) : Promise.resolve(0))],
    ['files', () => deps.files.delete(left.files)],
    ...left.prefixes.map((prefix): [string, () => Promise<unknown>] => ['files', () => deps.files.deletePrefix(prefix)]),
  ];
  const failed: string[] = [];
  for (const [what, run] of steps) {
    try {
      await run();
    } catch (error) {
      failed.push(what);
      deps.log.warn('a deleted document\'s leftovers stay for the sweeper', { receipt_id: left.receipt_id, what, error: String(error) });
    }
  }
  if (failed.length) return false;
  try {
    await deps.documents.dropLeftovers(left.receipt_id);
    return true;
  } catch (error) {
    deps.log.warn('a deleted document\'s leftovers item stays for the sweeper', { receipt_id: left.receipt_id, error: String(error) });
    return false;
  }
}

/** The history goes with its document, or to the document's new id first when it was given a company. */
async function moveOrDeleteHistory(deps: LeftoversDeps, left: DocumentLeftovers): Promise<void> {
  if (left.history_to) await deps.documents.copyHistory(left.receipt_id, left.history_to);
  await deps.documents.deleteHistory(left.receipt_id);
}

/**
 * The sweeper's part (D18): the leftovers of deletes older than LEFTOVERS_GRACE_MS, the earliest due first, at most
 * LEFTOVERS_PER_SWEEP a run. Those it fails to remove again are put behind the others (due again after the grace),
 * so a removal that keeps failing never holds up the rest. Says how many were cleared and how many stay.
 */
export async function sweepLeftovers(
  deps: LeftoversDeps & { documents: Pick<DocumentsStore, 'pendingLeftovers'>; clock: Clock },
): Promise<{ cleared: number; left: number }> {
  const now = deps.clock.now();
  const before = new Date(now.getTime() - LEFTOVERS_GRACE_MS).toISOString();
  const pending = await deps.documents.pendingLeftovers(before, LEFTOVERS_PER_SWEEP);
  let cleared = 0;
  for (const left of pending) {
    if (await clearLeftovers(deps, left)) cleared += 1;
    else await deps.documents.postponeLeftovers(left.receipt_id, now.toISOString()).catch((error: unknown) => deps.log.warn('a deleted document\'s leftovers were not put back', { receipt_id: left.receipt_id, error: String(error) }));
  }
  return { cleared, left: pending.length - cleared };
}
