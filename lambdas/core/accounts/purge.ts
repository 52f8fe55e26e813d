/**
 * The purge of a deleted company (docs/decisions.md "Company deletion: the purge job"). DELETE /company removes what
 * makes the company visible at once (its META item, memberships, email-in claims, counts, credentials, imports) and
 * queues this purge, which removes everything else the company owned, step by step (PURGE_STEPS), a page at a time:
 * pending uploads, documents (with their search items, markers, history, export markers, upload and email records and
 * files), the email records left (with their raw messages), master data (each record with its guards, look-ups and words, through the master-data store's own delete),
 * invitations, members left over, the rest of the `COMPANY#<id>` partition and the company's upload objects.
 *
 * Resumable: when the run's time runs low, or after MAX_PAGES_PER_RUN pages, what is left goes into a new message.
 * Idempotent: every delete skips what is already gone, so a redelivered or duplicated message does no harm.
 */
import { EMAIL_IN_DOMAIN } from '../../../shared/constants';
import { STUCK_PROCESSING_AFTER_MS } from '../../../shared/processing-limits';
import { documentKeys, PROCESS_PREFIX, UPLOAD_PREFIX } from '../documents/files';
import { CommitConflict, type DocumentsStore, type FileStore } from '../documents/ports';
import { companyScope, emptyChange, type DocumentRecord } from '../documents/types';
import { hashMarker, keyMarker, ownedObjects } from '../documents/workflow';
import type { MasterDataStore } from '../master-data/ports';
import type { CategoryRecord, ItemRecord, Page, StakeholderRecord } from '../master-data/types';
import type { TeamStore } from '../team/types';
import type { ConnectionStore } from '../live/connections';
import type { Clock, CompanyPurgeStore, PurgeEmail, PurgeQueue } from '../ports';
import { emailIdOf } from '../email-in/ids';
import { PURGE_STEPS, type PurgeMessage, type PurgeStep } from './purge-message';

/** Items (documents, records) per page. */
export const PURGE_PAGE_SIZE = 25;
/** Pages one run works through before it hands over to a new message (keeps one delivery short and bounded). */
export const MAX_PAGES_PER_RUN = 200;
/** A run stops starting pages when less than this is left of its time. */
export const MIN_REMAINING_MS = 60_000;
/** How long the purge waits before it looks again at documents still in processing. */
export const DEFER_SECONDS = 300;
/** SQS's longest delay. */
const MAX_DELAY_SECONDS = 900;

export interface PurgeDeps {
  purge: CompanyPurgeStore;
  documents: DocumentsStore;
  files: FileStore;
  masterData: MasterDataStore;
  team: Pick<TeamStore, 'listMembers' | 'removeMember'>;
  connections: Pick<ConnectionStore, 'unsubscribeCompany'>;
  queue: PurgeQueue;
  clock: Clock;
  log: { info(msg: string, data?: Record<string, unknown>): void; warn(msg: string, data?: Record<string, unknown>): void };
}

export interface PurgeRunOptions {
  /** Milliseconds left of this run (the Lambda's remaining time). */
  remainingMs: () => number;
  /** Pages before handing over (default MAX_PAGES_PER_RUN; tests lower it). */
  maxPages?: number;
  pageSize?: number;
}

export type PurgeOutcome =
  | { state: 'done' }
  /** The company is there: DELETE /company queues the purge before it deletes, and that delete did not happen. */
  | { state: 'company-exists' }
  /** Handed over to a new message (time or pages used up, or waiting: `delay_seconds`). */
  | { state: 'continued'; message: PurgeMessage; delay_seconds: number };

/** What one page of a step did: where the step goes on (null: the step is finished) and how many it left for later. */
interface StepPage {
  next: string | null;
  deferred?: number;
  filesAfter?: string | null;
}

/** Runs the purge from where the message stands until it is done or hands over to a new message. */
export async function runPurge(deps: PurgeDeps, start: PurgeMessage, opts: PurgeRunOptions): Promise<PurgeOutcome> {
  const maxPages = opts.maxPages ?? MAX_PAGES_PER_RUN;
  const size = opts.pageSize ?? PURGE_PAGE_SIZE;
  let msg: PurgeMessage = { ...start };
  let pages = 0;
  const handOver = async (delaySeconds: number): Promise<PurgeOutcome> => {
    const delay = Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil(delaySeconds)));
    await deps.queue.send(msg, delay);
    deps.log.info('company purge continues in a new message', { company_id: msg.company_id, step: msg.step, delay_seconds: delay, pages });
    return { state: 'continued', message: msg, delay_seconds: delay };
  };
  if (await deps.purge.companyExists(msg.company_id)) {
    deps.log.warn('company purge dropped: the company exists', { company_id: msg.company_id, step: msg.step });
    return { state: 'company-exists' };
  }
  for (;;) {
    if (pages >= maxPages || opts.remainingMs() < MIN_REMAINING_MS) return handOver(0);
    // The files step waits until the files of the uploads removed can no longer arrive.
    if (msg.step === 'files' && msg.files_after) {
      const wait = (Date.parse(msg.files_after) - deps.clock.now().getTime()) / 1000;
      if (wait > 0) return handOver(wait);
    }
    const page = await purgePage(deps, msg, size);
    pages += 1;
    msg = {
      ...msg,
      cursor: page.next,
      deferred: msg.deferred + (page.deferred ?? 0),
      files_after: latest(msg.files_after, page.filesAfter ?? null),
    };
    if (page.next !== null) continue;
    // The documents step is passed again, later, while documents of the company are still in processing.
    if (msg.step === 'documents' && msg.deferred > 0) {
      deps.log.info('company purge waits for documents in processing', { company_id: msg.company_id, documents: msg.deferred });
      msg = { ...msg, cursor: null, deferred: 0 };
      return handOver(DEFER_SECONDS);
    }
    const next = PURGE_STEPS[PURGE_STEPS.indexOf(msg.step) + 1];
    if (!next) {
      deps.log.info('company purged', { company_id: msg.company_id, requested_at: msg.requested_at });
      return { state: 'done' };
    }
    msg = { ...msg, step: next, cursor: null, deferred: 0 };
  }
}

function latest(a: string | null, b: string | null): string | null {
  if (!a) return b;
  if (!b) return a;
  return a > b ? a : b;
}

async function purgePage(deps: PurgeDeps, msg: PurgeMessage, size: number): Promise<StepPage> {
  const companyId = msg.company_id;
  const step: PurgeStep = msg.step;
  switch (step) {
    case 'uploads': {
      const page = await deps.purge.deletePendingUploads(companyId, msg.cursor, size);
      return { next: page.next, filesAfter: page.latest_expiry };
    }
    case 'documents':
      return purgeDocumentsPage(deps, companyId, msg.cursor, size);
    case 'emails': {
      const page = await deps.purge.companyEmails(companyId, msg.cursor, size);
      for (const mail of page.items) await purgeEmail(deps, companyId, mail);
      return { next: page.next };
    }
    case 'suppliers':
    case 'customers': {
      const type = step === 'suppliers' ? 'supplier' : 'customer';
      return purgeMasterPage(
        (cursor) => deps.masterData.listStakeholders({ companyId, type, source: 'all', limit: size, cursor }),
        (r: StakeholderRecord) => deps.masterData.deleteStakeholder(r),
        (r) => deps.masterData.getStakeholder(companyId, r.id),
        msg.cursor,
      );
    }
    case 'categories':
      return purgeMasterPage(
        (cursor) => deps.masterData.listCategories({ companyId, source: 'all', limit: size, cursor }),
        (r: CategoryRecord) => deps.masterData.deleteCategory(r),
        (r) => deps.masterData.getCategory(companyId, r.id),
        msg.cursor,
      );
    case 'items':
      return purgeMasterPage(
        (cursor) => deps.masterData.listItems({ companyId, source: 'all', limit: size, cursor }),
        (r: ItemRecord) => deps.masterData.deleteItem(r),
        (r) => deps.masterData.getItem(companyId, r.name_id),
        msg.cursor,
      );
    case 'invitations':
      return { next: (await deps.purge.deleteInvitations(companyId, msg.cursor, size)).next };
    case 'members':
      await purgeMembers(deps, companyId);
      return { next: null };
    case 'company':
      return { next: (await deps.purge.deleteCompanyItems(companyId, msg.cursor, size)).next };
    case 'files':
      // Uploads made in the company (their documents' own objects went with the documents).
      await deps.files.deletePrefix(`${UPLOAD_PREFIX}${companyId}/`);
      return { next: null };
  }
}

/**
 * One page of the company's documents (D2's partition, newest first): each is deleted with what belongs to it. A
 * document still in processing (and not yet past the bound after which the sweeper fails it) is left for a later pass,
 * so its processing ends first and leaves no file behind.
 */
async function purgeDocumentsPage(deps: PurgeDeps, companyId: string, cursor: string | null, size: number): Promise<StepPage> {
  const read = await deps.documents.read(
    { by: 'scope', scope: companyScope(companyId) },
    { limit: size, filter: null, continuation: cursor ? JSON.parse(cursor) : undefined },
  );
  let deferred = 0;
  for (const doc of read.items) {
    if ((await purgeDocument(deps, companyId, doc)) === 'deferred') deferred += 1;
  }
  return { next: read.continuation ? JSON.stringify(read.continuation) : null, deferred };
}

function stillProcessing(deps: PurgeDeps, doc: DocumentRecord): boolean {
  return doc.status === 'processing' && deps.clock.now().getTime() - Date.parse(doc.updated_at) < STUCK_PROCESSING_AFTER_MS;
}

/**
 * Deletes one document the way a user's delete does (the store's commit conditioned on its version removes the search
 * items and the markers with it), without touching the counts (they go with the company's partition), then its history
 * and export markers, its upload record, the email record it came with and its files.
 */
export async function purgeDocument(deps: PurgeDeps, companyId: string, listed: DocumentRecord): Promise<'deleted' | 'deferred' | 'skipped'> {
  let doc: DocumentRecord | undefined = listed;
  let last: DocumentRecord = listed;
  for (let attempt = 1; doc; attempt++) {
    // The list index is eventually consistent: only a document of this company is deleted.
    if (doc.company_id !== companyId) return 'skipped';
    if (stillProcessing(deps, doc)) return 'deferred';
    last = doc;
    const change = emptyChange();
    change.deletes.push(doc);
    for (const marker of [hashMarker(doc), keyMarker(doc)]) if (marker) change.markers.delete.push(marker);
    try {
      await deps.documents.commit(change);
      break;
    } catch (error) {
      // Changed meanwhile (processing finished, an old copy in the index) or already deleted: read it again.
      if (!(error instanceof CommitConflict) || error.reason !== 'version' || attempt >= 5) throw error;
      doc = await deps.documents.get(listed.receipt_id);
    }
  }
  await deps.documents.deleteHistory(last.receipt_id);
  await deps.purge.deleteDocumentItems(last.receipt_id);
  if (last.upload_id) await deps.purge.deleteUpload(last.upload_id, companyId);
  if (last.email_id) {
    const mail = await deps.purge.getEmail(last.email_id);
    if (mail) await purgeEmail(deps, companyId, mail);
  }
  await deps.files.delete(ownedObjects(last));
  await deps.files.deletePrefix(documentKeys.prefix(last.receipt_id));
  await deps.files.deletePrefix(`${PROCESS_PREFIX}${last.receipt_id}/`);
  return 'deleted';
}

/**
 * Deletes one of the company's email records (subject, sender, text, names of the attachments) and, first, the raw
 * message it names when no other company the message was addressed to keeps its record of it (one raw object serves
 * every company of the message). A record of another company is left. A record received before the companies of the
 * message were kept leaves its raw message to the bucket's lifecycle rule (`inbound/`, 90 days).
 */
async function purgeEmail(deps: PurgeDeps, companyId: string, mail: PurgeEmail): Promise<void> {
  if (mail.company_id !== companyId) return;
  if (mail.raw_key && mail.to_companies && !(await rawMessageKeptByOthers(deps, companyId, mail))) await deps.files.delete([mail.raw_key]);
  await deps.purge.deleteEmail(mail.email_id, companyId);
}

async function rawMessageKeptByOthers(deps: PurgeDeps, companyId: string, mail: PurgeEmail): Promise<boolean> {
  for (const other of mail.to_companies ?? []) {
    if (other === companyId) continue;
    if (await deps.purge.getEmail(emailIdOf(mail, other))) return true;
  }
  return false;
}

/**
 * One page of a master-data list (M2's `all` partition), each record deleted by the store's own delete, which removes
 * its guards, look-ups, search words and item words in the same transaction. A record changed since the list was read
 * (or already gone) is read again first.
 */
async function purgeMasterPage<T extends { version: number }>(
  list: (cursor: string | undefined) => Promise<Page<T>>,
  remove: (record: T) => Promise<void>,
  reload: (record: T) => Promise<T | undefined>,
  cursor: string | null,
): Promise<StepPage> {
  const page = await list(cursor ?? undefined);
  for (const listed of page.items) {
    let record: T | undefined = listed;
    for (let attempt = 1; record; attempt++) {
      try {
        await remove(record);
        break;
      } catch (error) {
        const fresh = await reload(record);
        if (fresh && (fresh.version === record.version || attempt >= 5)) throw error;
        record = fresh;
      }
    }
  }
  return { next: page.cursor };
}

/** Members left over (an invitation accepted while the company was being deleted): membership and Email-in claim. */
async function purgeMembers(deps: PurgeDeps, companyId: string): Promise<void> {
  for (const m of await deps.team.listMembers(companyId)) {
    await deps.team.removeMember(companyId, m.user_id, m.email_prefix ? `${m.email_prefix}@${EMAIL_IN_DOMAIN}` : undefined);
  }
  // And any live subscription opened meanwhile (A14 again).
  await deps.connections.unsubscribeCompany(companyId);
}
