/**
 * Documents left in `processing` by a job that never reached its failure path (killed by its timeout or by
 * running out of memory: SQS delivers the message again and, after the last delivery, moves it to the
 * dead-letter queue). Two ways out, both ending the document `failed` with FAILED_MESSAGE and
 * `can_be_restarted` (the user may try again; a failed document no longer blocks actions):
 * - the dead-letter consumer: each message of the processing queue's dead-letter queue names the upload or
 *   processing ticket whose job died; its documents still in processing fail at once;
 * - the sweeper (on a schedule): documents in processing for longer than a bound — longer than all deliveries
 *   of a message can take — fail, whatever the reason: those of every company, and the unassigned documents of
 *   the all-companies view, kept in their uploader's own scope (`U#<userId>`), of every member of a company.
 */
import type { MembershipRecord } from '../accounts/types';
import type { CompaniesPage } from '../admin/ports';
import { parseProcessTicketKey, parseUploadKey } from './files';
import { failDocument, FAILED_MESSAGE, type ProcessingDeps } from './processing';
import type { DocumentsStore } from './ports';
import { companyScope, userScope, type DocumentRecord, type ReceiptType, type ScopeKey } from './types';

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
  /** The members of a company (A5): whose own scope may hold unassigned documents. */
  listMembers(companyId: string): Promise<Pick<MembershipRecord, 'user_id'>[]>;
}

const TYPES: ReceiptType[] = ['receipt', 'invoice'];
const PAGE = 100;
/** Member lists (A5) read at once. */
const MEMBER_READS = 10;

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
 * The scopes of one page of companies that can hold documents: each company's, and the own scope (unassigned
 * documents) of each of their members not seen on an earlier page.
 */
async function scopesOf(deps: SweepDeps, companyIds: string[], seenUsers: Set<string>): Promise<ScopeKey[]> {
  const scopes = companyIds.map(companyScope);
  for (let i = 0; i < companyIds.length; i += MEMBER_READS) {
    const lists = await Promise.all(companyIds.slice(i, i + MEMBER_READS).map((id) => deps.listMembers(id)));
    for (const member of lists.flat()) {
      if (seenUsers.has(member.user_id)) continue;
      seenUsers.add(member.user_id);
      scopes.push(userScope(member.user_id));
    }
  }
  return scopes;
}

/**
 * Fails every document in processing since before `now - olderThanMs` (by its last change, so a document restarted
 * recently is left alone): company documents, and unassigned documents in the own scope of every member of a
 * company, each user once. Reads the counts of those scopes (D15) and the documents only of the scopes whose counts
 * show documents in processing (S2).
 */
export async function sweepStuckDocuments(deps: SweepDeps, olderThanMs: number): Promise<string[]> {
  const cutoff = new Date(deps.clock.now().getTime() - olderThanMs).toISOString();
  const failed: string[] = [];
  const seenUsers = new Set<string>();
  let next: string | undefined;
  do {
    const page = await deps.listCompanies(PAGE, next);
    const scopes = await scopesOf(deps, page.items.map((c) => c.company_id), seenUsers);
    const tallies = await deps.documents.tallies(scopes);
    for (const scope of scopes) {
      for (const type of TYPES) {
        if (!((tallies.get(scope)?.[type].counts.processing ?? 0) > 0)) continue;
        for (const doc of await processingBefore(deps.documents, scope, type, cutoff)) {
          if (doc.status !== 'processing' || doc.updated_at >= cutoff) continue;
          deps.log.warn('document stuck in processing', { receipt_id: doc.receipt_id, scope: doc.scope, updated_at: doc.updated_at });
          await failDocument(deps, doc.receipt_id, doc.processing_run, FAILED_MESSAGE);
          failed.push(doc.receipt_id);
        }
      }
    }
    next = page.next ?? undefined;
  } while (next);
  return failed;
}
