/**
 * Documents left in `processing` by a job that never reached its failure path (killed by its timeout or by
 * running out of memory: SQS delivers the message again and, after the last delivery, moves it to the
 * dead-letter queue). Two ways out, both ending the document `failed` with FAILED_MESSAGE and
 * `can_be_restarted` (the user may try again; a failed document no longer blocks actions):
 * - the dead-letter consumer: each message of the processing queue's dead-letter queue names the upload or
 *   processing ticket whose job died; its documents still in processing fail at once;
 * - the sweeper (on a schedule): documents of every company in processing for longer than a bound — longer
 *   than all deliveries of a message can take — fail, whatever the reason.
 */
import type { CompaniesPage } from '../admin/ports';
import { parseProcessTicketKey, parseUploadKey } from './files';
import { failDocument, FAILED_MESSAGE, type ProcessingDeps } from './processing';
import type { DocumentsStore } from './ports';
import { companyScope, type DocumentRecord, type ReceiptType, type ScopeKey } from './types';

export type StuckDeps = Pick<ProcessingDeps, 'documents' | 'live' | 'clock' | 'ids'> & {
  log: { info(msg: string, data?: Record<string, unknown>): void; warn(msg: string, data?: Record<string, unknown>): void };
};

/** Fails the documents of one dead-lettered object-created event (an upload or a processing ticket). */
export async function failDeadLettered(deps: StuckDeps, key: string): Promise<string[]> {
  const ticket = parseProcessTicketKey(key);
  if (ticket) {
    const doc = await deps.documents.get(ticket.receiptId);
    if (!doc || doc.status !== 'processing' || doc.processing_run !== ticket.run) return [];
    await failDocument(deps, doc.receipt_id, doc.processing_run, FAILED_MESSAGE);
    return [doc.receipt_id];
  }
  const upload = parseUploadKey(key);
  if (!upload) {
    deps.log.info('dead letter of no document', { key });
    return [];
  }
  const record = await deps.documents.getUpload(upload.uploadId);
  if (!record || record.key !== key || record.state !== 'consumed') {
    // No document was created: the upload's reservation is released when it expires (D12).
    deps.log.info('dead letter of an upload without documents', { key, state: record?.state ?? null });
    return [];
  }
  const docs = await deps.documents.getMany(record.document_ids);
  const failed: string[] = [];
  for (const doc of docs) {
    if (doc.status !== 'processing') continue;
    await failDocument(deps, doc.receipt_id, doc.processing_run, FAILED_MESSAGE);
    failed.push(doc.receipt_id);
  }
  return failed;
}

export interface SweepDeps extends StuckDeps {
  /** Every company, a page at a time (access pattern A7). */
  listCompanies(limit: number, next?: string): Promise<CompaniesPage>;
}

const TYPES: ReceiptType[] = ['receipt', 'invoice'];
const PAGE = 100;

/** The processing documents of one scope and type created before `before` (D4 with an upper bound). */
async function processingBefore(documents: DocumentsStore, scope: ScopeKey, type: ReceiptType, before: string): Promise<DocumentRecord[]> {
  const out: DocumentRecord[] = [];
  let continuation: unknown;
  do {
    const res = await documents.read(
      { by: 'type-status', scope, receipt_type: type, status: 'processing' },
      { upper: before, limit: PAGE, filter: null, continuation },
    );
    out.push(...res.items);
    continuation = res.continuation;
  } while (continuation);
  return out;
}

/**
 * Fails every company document in processing since before `now - olderThanMs` (by its last change, so a
 * document restarted recently is left alone). Reads only companies whose counts show documents in processing.
 */
export async function sweepStuckDocuments(deps: SweepDeps, olderThanMs: number): Promise<string[]> {
  const cutoff = new Date(deps.clock.now().getTime() - olderThanMs).toISOString();
  const failed: string[] = [];
  let next: string | undefined;
  do {
    const page = await deps.listCompanies(PAGE, next);
    for (const company of page.items) {
      const scope = companyScope(company.company_id);
      const counts = await deps.documents.counts(scope);
      for (const type of TYPES) {
        if (!(counts[type]?.processing > 0)) continue;
        for (const doc of await processingBefore(deps.documents, scope, type, cutoff)) {
          if (doc.status !== 'processing' || doc.updated_at >= cutoff) continue;
          deps.log.warn('document stuck in processing', { receipt_id: doc.receipt_id, updated_at: doc.updated_at });
          await failDocument(deps, doc.receipt_id, doc.processing_run, FAILED_MESSAGE);
          failed.push(doc.receipt_id);
        }
      }
    }
    next = page.next ?? undefined;
  } while (next);
  return failed;
}
