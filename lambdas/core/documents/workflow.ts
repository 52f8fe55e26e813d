/**
 * User actions on documents (product.md section 4): status changes, flag, type conversion, delete,
 * choosing a company for an unassigned document, combine, restart, duplicates and history.
 * Every write carries the document's version as a condition; counts, usage, markers and history
 * change in the same transaction; live events go out after the commit.
 */
import { AppError, conflict, notFound } from '../../../shared/errors';
import type { Receipt, ReceiptSummary, StatusAction, DuplicateInfo } from '../../../shared/schemas/receipts';
import type { PageBoxes } from '../../../shared/schemas/content';
import { UPLOAD_MSG } from '../../../shared/schemas/receipts';
import { monthOf } from '../accounts/companies';
import type { AccountsStore, Clock, IdGenerator, LiveEventName, LiveEvents } from '../ports';
import { contentSummary, parseStoredContent, toStored } from '../content/service';
import { clearLeftovers, leftoversOf, type LeftoversDeps } from './leftovers';
import { contentForType, documentKeyText } from './content';
import type { MasterDataStore } from '../master-data/ports';
import { applyStakeholderToContent, counterpartyFacts, matchParty, partyKeysOfContent, stakeholderTypeOf } from './counterparty';
import { digest, documentKeys, processTicketKey } from './files';
import { searchTextOf } from './list';
import { CommitConflict, type DocumentsStore, type FileStore } from './ports';
import {
  ACTION_NAMES,
  assertDeletable,
  assertEditable,
  assertRestartable,
  countMove,
  MESSAGES,
  nextStatus,
  toWorkflowAction,
} from './status-machine';
import {
  companyScope,
  emptyChange,
  userScope,
  type DocumentChange,
  type DocumentLeftovers,
  type DocumentRecord,
  type HistoryRecord,
  type Marker,
  type PersonName,
  type ReceiptType,
} from './types';
import { toDetail, toSummary } from './views';

export interface DocumentDeps {
  documents: DocumentsStore;
  files: FileStore;
  store: AccountsStore;
  live: LiveEvents;
  clock: Clock;
  ids: IdGenerator;
  /** The company's suppliers and customers: a converted document is matched against the other register. */
  masterData?: MasterDataStore;
}

/**
 * A delete (and a combine, which deletes the other document) also removes what the document leaves (leftovers.ts):
 * its history, export markers, files and the supplier layouts learnt from it; what fails to go is logged and left
 * to the sweeper.
 */
export type DeleteDeps = DocumentDeps & Pick<LeftoversDeps, 'layouts' | 'log'>;

/** Who acts: the signed-in user and the company the call is about (query company_id). */
export interface DocCaller {
  userId: string;
  companyId?: string;
}

export interface Actor {
  userId: string | null;
  name: PersonName;
}

export const SYSTEM_ACTOR: Actor = { userId: null, name: { name: 'System', surname: '' } };

/** Presigned GET URLs of page images live this long. */
export const PAGE_URL_SECONDS = 15 * 60;
const MAX_ATTEMPTS = 3;

export async function actorOf(store: AccountsStore, userId: string): Promise<Actor> {
  const profile = await store.getProfile(userId);
  return { userId, name: { name: profile?.name ?? '', surname: profile?.surname ?? '' } };
}

/**
 * A document the caller may see: one of the company named by company_id, or one of the caller's own
 * unassigned documents. Anything else, existing or not, is the same 404.
 */
export function canSee(doc: DocumentRecord | undefined, caller: DocCaller): doc is DocumentRecord {
  if (!doc) return false;
  if (doc.company_id) return caller.companyId === doc.company_id;
  return doc.scope === userScope(caller.userId);
}

export async function loadVisible(documents: DocumentsStore, caller: DocCaller, receiptId: string): Promise<DocumentRecord> {
  const doc = await documents.get(receiptId);
  if (!canSee(doc, caller)) throw notFound('Document not found');
  return doc;
}

export function historyRecord(ids: IdGenerator, receiptId: string, date: string, name: string, actor: Actor): HistoryRecord {
  return { id: ids.newId(), receipt_id: receiptId, date, name, user_id: actor.userId, user: actor.name };
}

export function staleVersion(current: number): AppError {
  return conflict(MESSAGES.stale, { version: current });
}

/** Live events go to the document's company; unassigned documents go to their owner's own channel. */
export async function publishDoc(live: LiveEvents, event: LiveEventName, doc: DocumentRecord): Promise<void> {
  const payload = event === 'receipt-delete' ? { receipt_id: doc.receipt_id, company_id: doc.company_id, receipt_type: doc.receipt_type, status: doc.status } : toSummary(doc);
  if (doc.company_id) await live.publish(doc.company_id, event, payload);
  else await live.publishToUser(doc.user_id, event, payload);
}

export function hashMarker(doc: DocumentRecord): Marker | null {
  return doc.source ? { kind: 'hash', scope: doc.scope, value: doc.source.file_hash, receipt_id: doc.receipt_id } : null;
}
export function keyMarker(doc: DocumentRecord): Marker | null {
  return doc.key_digest ? { kind: 'key', scope: doc.scope, value: doc.key_digest, receipt_id: doc.receipt_id } : null;
}

/** The write moves the document's key marker when its key changed (`before` → `after`). */
export function moveKeyMarker(change: DocumentChange, before: DocumentRecord, after: DocumentRecord): void {
  const oldKey = keyMarker(before);
  const newKey = keyMarker(after);
  if (oldKey?.value === newKey?.value) return;
  if (oldKey) change.markers.delete.push(oldKey);
  if (newKey) change.markers.put.push(newKey);
}

/** The other documents of its scope holding the document's key (same counterparty, number and total; D10, consistent). */
export async function otherHoldersOfKey(documents: Pick<DocumentsStore, 'markers'>, doc: Pick<DocumentRecord, 'scope' | 'key_digest' | 'receipt_id'>): Promise<string[]> {
  if (!doc.key_digest) return [];
  return (await documents.markers('key', doc.scope, doc.key_digest)).filter((id) => id !== doc.receipt_id);
}

/**
 * Of these documents (`holders`: ids of other holders of the document's key), one was created before the document
 * (upload time, then id): the document is a copy of a same document, as a later upload of the same file is a copy
 * (`duplicate_id`), and the earliest is the original.
 */
export async function earlierHolderExists(documents: Pick<DocumentsStore, 'getMany'>, doc: Pick<DocumentRecord, 'scope' | 'receipt_id' | 'created_at'>, holders: string[]): Promise<boolean> {
  if (!holders.length) return false;
  const others = await documents.getMany(holders, { consistent: true });
  return others.some((o) => o.scope === doc.scope && (o.created_at < doc.created_at || (o.created_at === doc.created_at && o.receipt_id < doc.receipt_id)));
}

/** The document is a later one of a same document: an earlier document of its scope holds its key. */
export async function sameDocumentExists(documents: Pick<DocumentsStore, 'markers' | 'getMany'>, doc: Pick<DocumentRecord, 'scope' | 'key_digest' | 'receipt_id' | 'created_at'>): Promise<boolean> {
  return earlierHolderExists(documents, doc, await otherHoldersOfKey(documents, doc));
}

/**
 * The documents as shown: `same_document` checked again where it is set (it was decided when the document's key was
 * last set; the other document may have been deleted or corrected since): per such document the key's holders (D10)
 * and, when there are others, their records (D1b) for their upload times.
 */
export async function withSameDocumentChecked(documents: Pick<DocumentsStore, 'markers' | 'getMany'>, docs: DocumentRecord[]): Promise<DocumentRecord[]> {
  return Promise.all(docs.map(async (d) => (d.same_document && !(await sameDocumentExists(documents, d)) ? { ...d, same_document: false } : d)));
}

/**
 * `same_document` of a write that may change the document's key: looked for again when the key changed, else kept.
 */
export async function sameDocumentAfter(documents: Pick<DocumentsStore, 'markers' | 'getMany'>, before: DocumentRecord, after: DocumentRecord): Promise<boolean> {
  if (before.key_digest === after.key_digest && before.scope === after.scope) return before.same_document === true;
  return sameDocumentExists(documents, after);
}
const present = <T>(v: T | null): v is T => v !== null;

interface Edit {
  after: DocumentRecord;
  history: string;
  extra?: (change: DocumentChange) => void;
}

/** What an edit answers when the document is already as asked: nothing is written, no history, no event. */
const UNCHANGED = Symbol('unchanged');

/**
 * Read, check, write with the version as condition. With an expected version from the client a
 * stale write is a 409 carrying the current version; without one the edit is re-applied to the
 * fresh document (up to three times), so no update is lost.
 */
async function editDocument(
  deps: DocumentDeps,
  caller: DocCaller,
  receiptId: string,
  expectedVersion: number | undefined,
  edit: (doc: DocumentRecord, now: string) => Promise<Edit | typeof UNCHANGED> | Edit | typeof UNCHANGED,
  event: LiveEventName = 'receipt-update',
): Promise<DocumentRecord> {
  const actor = await actorOf(deps.store, caller.userId);
  return commitFresh(deps, receiptId, expectedVersion, async () => {
    const doc = await loadVisible(deps.documents, caller, receiptId);
    if (expectedVersion !== undefined && doc.version !== expectedVersion) throw staleVersion(doc.version);
    const now = deps.clock.now().toISOString();
    const made = await edit(doc, now);
    if (made === UNCHANGED) return { change: null, seen: doc.version, done: async () => doc };
    const { after: edited, history, extra } = made;
    const after: DocumentRecord = { ...edited, version: doc.version + 1, updated_at: now };
    const change = emptyChange();
    change.updates.push({ before: doc, after });
    change.counts.push(...countMove(doc, after));
    change.history.push(historyRecord(deps.ids, doc.receipt_id, now, history, actor));
    extra?.(change);
    return {
      change,
      seen: doc.version,
      done: async () => {
        await publishDoc(deps.live, event, after);
        return after;
      },
    };
  });
}

/**
 * Commits a change made from the document as just read (`attempt` reads it, checks it and builds the change), with
 * its version as condition. A write in between is a 409 carrying the current version when the client named the
 * version it saw; without one the change is made again from a fresh read (up to MAX_ATTEMPTS), so no update is
 * lost. After the commit, `done` gives the result.
 */
async function commitFresh<T>(
  deps: DocumentDeps,
  receiptId: string,
  expectedVersion: number | undefined,
  attempt: () => Promise<{ change: DocumentChange | null; seen: number; done: () => Promise<T> }>,
): Promise<T> {
  for (let n = 1; ; n++) {
    const { change, seen, done } = await attempt();
    // Nothing to write (the document is already as asked): no commit.
    if (!change) return done();
    try {
      await deps.documents.commit(change);
    } catch (error) {
      if (error instanceof CommitConflict && error.reason === 'version') {
        if (expectedVersion !== undefined || n >= MAX_ATTEMPTS) throw staleVersion((await deps.documents.get(receiptId))?.version ?? seen);
        continue;
      }
      throw error;
    }
    return done();
  }
}

export async function changeStatus(
  deps: DocumentDeps,
  caller: DocCaller,
  receiptId: string,
  status: StatusAction,
  version?: number,
): Promise<ReceiptSummary> {
  const after = await editDocument(deps, caller, receiptId, version, (doc) => {
    let action = toWorkflowAction(status);
    if (action === 'review' && doc.status === 'archive') action = 'unarchive';
    const to = nextStatus(doc.status, action);
    return { after: { ...doc, status: to }, history: ACTION_NAMES[action] };
  });
  return toSummary(after);
}

export async function setFlag(deps: DocumentDeps, caller: DocCaller, receiptId: string, flag: boolean, version?: number): Promise<ReceiptSummary> {
  const after = await editDocument(deps, caller, receiptId, version, (doc) => {
    assertEditable(doc);
    // Already as asked: answered as it is, so no colleague's version goes stale and the history does not repeat itself.
    if (doc.flag === flag) return UNCHANGED;
    return { after: { ...doc, flag }, history: flag ? 'Flagged' : 'Unflagged' };
  });
  return toSummary(after);
}

/** Receipt ⇄ invoice: the counts move between the types and the counterparty's fields move with it. */
export async function convertType(
  deps: DocumentDeps,
  caller: DocCaller,
  receiptId: string,
  receiptType: ReceiptType,
  version?: number,
): Promise<ReceiptSummary> {
  const after = await editDocument(deps, caller, receiptId, version, async (doc) => {
    assertEditable(doc);
    if (doc.receipt_type === receiptType) throw conflict(`The document is already of type ${receiptType}`);
    const stored = doc.content_key ? parseStoredContent(await deps.files.getJson<unknown>(doc.content_key)) : undefined;
    let contentKey = doc.content_key;
    let summary = { counterparty_name: '', counterparty_code: '', counterparty_vat_id: '', document_number: doc.document_number, total: doc.total };
    let party: MasterDataPatch = { stakeholder_id: null, stakeholder_date_format: null };
    if (stored) {
      let moved = contentForType(stored, receiptType);
      // The moved party is looked up in the other register (suppliers ⇄ customers).
      if (doc.company_id && deps.masterData) {
        const m = await matchParty(deps.masterData, doc.company_id, stakeholderTypeOf(receiptType), partyKeysOfContent(moved, stakeholderTypeOf(receiptType)));
        if (m) {
          moved = applyStakeholderToContent(moved, m.stakeholder);
          const facts = await counterpartyFacts(deps.masterData, doc.company_id, m.stakeholder);
          party = { stakeholder_id: facts.stakeholder_id, stakeholder_date_format: facts.stakeholder_date_format, ...(facts.category_id ? { category_id: facts.category_id, category: facts.category } : {}) };
        }
      }
      summary = contentSummary(moved, receiptType);
      contentKey = documentKeys.content(doc.receipt_id, deps.ids.newId());
      await deps.files.putJson(contentKey, toStored(moved));
    }
    const keyText = documentKeyText(summary);
    const converted: DocumentRecord = {
      ...doc,
      ...party,
      receipt_type: receiptType,
      counterparty_name: summary.counterparty_name,
      counterparty_code: summary.counterparty_code,
      counterparty_vat_id: summary.counterparty_vat_id,
      content_key: contentKey,
      key_digest: keyText ? digest(keyText) : null,
    };
    converted.search_text = searchTextOf(converted);
    converted.same_document = await sameDocumentAfter(deps.documents, doc, converted);
    return {
      after: converted,
      history: receiptType === 'invoice' ? 'Converted to invoice' : 'Converted to receipt',
      extra: (change) => moveKeyMarker(change, doc, converted),
    };
  });
  return toSummary(after);
}

/** S3 objects that belong to a document alone (also what the purge of a deleted company removes of each document). */
export function ownedObjects(doc: DocumentRecord): string[] {
  const keys = doc.pages.map((p) => p.image_key).filter(present);
  if (doc.content_key) keys.push(doc.content_key);
  // The uploaded object (one document per file) or the page PDF split from it.
  if (doc.source) keys.push(doc.source.key);
  return keys;
}

export async function deleteDocument(
  deps: DeleteDeps,
  caller: DocCaller,
  receiptId: string,
  version?: number,
): Promise<{ deleted: true; receipt_id: string }> {
  const actor = await actorOf(deps.store, caller.userId);
  return commitFresh(deps, receiptId, version, async () => {
    const doc = await loadVisible(deps.documents, caller, receiptId);
    if (version !== undefined && doc.version !== version) throw staleVersion(doc.version);
    assertDeletable(doc);
    const change = emptyChange();
    removeDocument(change, doc);
    const now = deps.clock.now().toISOString();
    const promoted = await copiesWithoutTheirOriginal(deps, doc, now);
    change.updates.push(...promoted);
    change.history.push(...promotionHistory(deps.ids, promoted, now, 'Original deleted', actor));
    const left = leftoversOf(doc, now, ownedObjects(doc), [documentKeys.prefix(doc.receipt_id)]);
    change.leftovers = [left];
    return {
      change,
      seen: doc.version,
      done: async () => {
        try {
          await publishDoc(deps.live, 'receipt-delete', doc);
          for (const { after } of promoted) await publishDoc(deps.live, 'receipt-update', after);
        } finally {
          await clearLeftovers(deps, left);
        }
        return { deleted: true as const, receipt_id: doc.receipt_id };
      },
    };
  });
}

/**
 * The copies of a deleted original (`duplicate_id` pointing at it): the oldest becomes the original and the others
 * its copies, written with the delete (each conditioned on its version), so no copy points at a document that is gone.
 */
async function copiesWithoutTheirOriginal(deps: DocumentDeps, original: DocumentRecord, now: string): Promise<DocumentChange['updates']> {
  const marker = hashMarker(original);
  if (!marker) return [];
  const ids = (await deps.documents.markers('hash', marker.scope, marker.value)).filter((id) => id !== original.receipt_id);
  if (!ids.length) return [];
  const copies = (await deps.documents.getMany(ids))
    .filter((d) => d.duplicate_id === original.receipt_id)
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.receipt_id.localeCompare(b.receipt_id));
  const first = copies[0];
  return copies.map((before) => ({
    before,
    after: { ...before, duplicate_id: before === first ? null : first!.receipt_id, version: before.version + 1, updated_at: now },
  }));
}

/**
 * The history entries of the copies `copiesWithoutTheirOriginal` rewrote, saying why their duplicate mark changed
 * (`cause`: what happened to the original, e.g. "Original deleted").
 */
function promotionHistory(
  ids: IdGenerator,
  promoted: DocumentChange['updates'],
  now: string,
  cause: string,
  actor: Actor,
  copies: DocumentChange['updates'] = promoted,
): HistoryRecord[] {
  const names = new Map(copies.map(({ after }) => [after.receipt_id, after.original_file_name]));
  return promoted.map(({ after }) =>
    historyRecord(ids, after.receipt_id, now, after.duplicate_id ? `${cause}: now a copy of ${names.get(after.duplicate_id) ?? after.duplicate_id}` : `${cause}: this document is no longer a copy`, actor),
  );
}

/** A document taken out by a change: its record, its place in the counts and its hash and key markers. */
function removeDocument(change: DocumentChange, doc: DocumentRecord): void {
  change.deletes.push(doc);
  change.counts.push(...countMove(doc, null));
  change.markers.delete.push(...[hashMarker(doc), keyMarker(doc)].filter(present));
}

/**
 * An unassigned document gets a company: a new receipt id in the target company, one document of the target
 * company's monthly quota (429 if none), and its reading starts there. An unassigned document is never read (only its
 * pages are rendered, processing.ts `keepUnread`): the new document goes to `processing` with the next run and a
 * processing ticket, as Try Again does, and ends in ready/review with the company's register, learnt layouts and items.
 */
export async function selectCompany(
  deps: DeleteDeps,
  caller: DocCaller,
  receiptId: string,
  targetCompanyId: string,
  version?: number,
): Promise<{ receipt_id: string; company_id: string; receipt: ReceiptSummary }> {
  const doc = await deps.documents.get(receiptId);
  if (!doc || doc.scope !== userScope(caller.userId)) throw notFound('Document not found');
  if (version !== undefined && doc.version !== version) throw staleVersion(doc.version);
  if (doc.status !== 'unassigned') throw conflict(doc.status === 'processing' ? MESSAGES.busy : 'Only unassigned documents can be given a company');
  const membership = await deps.store.getMembership(caller.userId, targetCompanyId);
  if (!membership) throw new AppError('Forbidden', 'You are not a member of this company');
  const [company] = await deps.store.getCompanies([targetCompanyId]);
  if (!company) throw new AppError('Forbidden', 'You are not a member of this company');
  const actor = await actorOf(deps.store, caller.userId);
  const now = deps.clock.now();
  const nowIso = now.toISOString();
  const month = monthOf(now);
  const scope = companyScope(targetCompanyId);
  const newId = deps.ids.newId();
  const duplicateOf = doc.source ? (await deps.documents.markers('hash', scope, doc.source.file_hash))[0] ?? null : null;
  const moved: DocumentRecord = {
    ...doc,
    receipt_id: newId,
    scope,
    company_id: company.company_id,
    company_name: company.name,
    company_code: company.code,
    status: 'processing',
    can_be_restarted: false,
    error_message: null,
    processing_run: doc.processing_run + 1,
    duplicate_id: duplicateOf,
    // the processing job reads the document again in its company, and its result says whether a same document is there
    same_document: false,
    created_at: nowIso,
    updated_at: nowIso,
    version: 1,
    charged_month: month,
    related_documents: doc.related_documents,
  };
  const change = emptyChange();
  change.deletes.push(doc);
  change.puts.push(moved);
  change.counts.push(...countMove(doc, null), ...countMove(null, moved));
  change.usage = {
    companyId: company.company_id,
    month,
    quota_taken: 1,
    used_documents: 1,
    reserved_documents: 0,
    duplicated_documents: duplicateOf ? 1 : 0,
    limit: company.available_documents - 1,
    quota: company.available_documents,
  };
  change.markers.delete.push(...[hashMarker(doc), keyMarker(doc)].filter(present));
  change.markers.put.push(...[hashMarker(moved), keyMarker(moved)].filter(present));
  change.history.push(historyRecord(deps.ids, newId, nowIso, `Company selected: ${company.name}`, actor));
  // The unassigned document's history moves to the new id after the commit; its files stay, the new record holds them.
  const left: DocumentLeftovers = { ...leftoversOf(doc, nowIso, [], []), history_to: newId };
  change.leftovers = [left];
  try {
    await deps.documents.commit(change);
  } catch (error) {
    if (error instanceof CommitConflict) {
      if (error.reason === 'quota') throw new AppError('QuotaExceeded', quotaMessage(company.available_documents));
      if (error.reason === 'version') throw staleVersion((await deps.documents.get(receiptId))?.version ?? doc.version);
    }
    throw error;
  }
  await clearLeftovers(deps, left);
  let answer = moved;
  try {
    await deps.files.putJson(processTicketKey(newId, moved.processing_run), { receipt_id: newId, run: moved.processing_run });
  } catch {
    // No job will come: the document is not left in processing but failed, to be tried again. The company is chosen
    // and the document charged, so its Try Again is not charged again. (Left in processing, the sweeper fails it.)
    const back: DocumentRecord = { ...moved, status: 'failed', can_be_restarted: true, error_message: NOT_STARTED_MESSAGE, version: moved.version + 1, updated_at: deps.clock.now().toISOString() };
    const undo = emptyChange();
    undo.updates.push({ before: moved, after: back });
    undo.counts.push(...countMove(moved, back));
    answer = await deps.documents.commit(undo).then(
      () => back,
      () => moved,
    );
  }
  await publishDoc(deps.live, 'receipt', answer);
  return { receipt_id: newId, company_id: company.company_id, receipt: toSummary(answer) };
}

/** A document whose reading could not be started (its processing ticket was not written). */
export const NOT_STARTED_MESSAGE = 'The document could not be read. Try again.';

export function quotaMessage(available: number): string {
  return `${UPLOAD_MSG.quotaExceeded} (${available} ${available === 1 ? 'document' : 'documents'} a month). Ask a platform administrator to raise it.`;
}

/** Statuses whose documents are not combined: a failed reading is tried again from the document's own file. */
const NOT_COMBINABLE: ReadonlyArray<DocumentRecord['status']> = ['failed', 'error'];
/** An unassigned document is read from its own file when its company is chosen: a merge would be lost then too. */
export const UNASSIGNED_NOT_COMBINABLE = 'Choose a company for these documents before combining them';

/**
 * The word boxes of both documents in one file, the other's pages numbered after this one's, so that a value can be
 * picked on every page of the merged document. The file is a new one (the merge may be retried on a conflict).
 */
async function combinedBoxes(files: FileStore, doc: DocumentRecord, other: DocumentRecord): Promise<string | null> {
  const theirs = other.boxes_key ? ((await files.getJson<PageBoxes[]>(other.boxes_key)) ?? []) : [];
  if (!theirs.length) return doc.boxes_key;
  const mine = doc.boxes_key ? ((await files.getJson<PageBoxes[]>(doc.boxes_key)) ?? []) : [];
  const key = documentKeys.combinedBoxes(doc.receipt_id, doc.version + 1);
  await files.putJson(key, [...mine, ...theirs.map((b) => ({ ...b, page: b.page + doc.pages.length }))]);
  return key;
}

/**
 * Merges another document's pages into this one (with their word boxes); the other document is removed. A ready
 * document goes back to review.
 */
export async function combineDocuments(
  deps: DeleteDeps,
  caller: DocCaller,
  receiptId: string,
  otherId: string,
  version?: number,
): Promise<ReceiptSummary> {
  if (receiptId === otherId) throw conflict('A document cannot be combined with itself');
  const actor = await actorOf(deps.store, caller.userId);
  return commitFresh(deps, receiptId, version, async () => {
    const doc = await loadVisible(deps.documents, caller, receiptId);
    const other = await loadVisible(deps.documents, caller, otherId);
    if (version !== undefined && doc.version !== version) throw staleVersion(doc.version);
    if (other.scope !== doc.scope) throw notFound('Document not found');
    assertEditable(doc);
    assertEditable(other);
    // A document that failed keeps its own file to be tried again; a merge would be lost by the next reading
    for (const d of [doc, other]) if (NOT_COMBINABLE.includes(d.status)) throw conflict(`A document in status ${d.status} cannot be combined`);
    // So does one waiting for a company: choosing it reads the document's own file (Select company)
    if ([doc, other].some((d) => d.status === 'unassigned' || !d.company_id)) throw conflict(UNASSIGNED_NOT_COMBINABLE);
    const now = deps.clock.now().toISOString();
    const pages = [...doc.pages, ...other.pages].map((p, i) => ({ ...p, page: i + 1 }));
    // The other document may be the original of copies (this one among them): the oldest copy becomes the original, as on a delete.
    const copies = await copiesWithoutTheirOriginal(deps, other, now);
    const ownPromotion = copies.find((u) => u.before.receipt_id === doc.receipt_id);
    const promoted = copies.filter((u) => u !== ownPromotion);
    const after: DocumentRecord = {
      ...doc,
      ...(ownPromotion ? { duplicate_id: ownPromotion.after.duplicate_id } : {}),
      // Pages nobody has looked at joined it: a ready document is to be reviewed again
      status: doc.status === 'ready' ? 'review' : doc.status,
      pages,
      boxes_key: await combinedBoxes(deps.files, doc, other),
      related_documents: [...doc.related_documents, { receipt_id: other.receipt_id, original_file_name: other.original_file_name }],
      version: doc.version + 1,
      updated_at: now,
    };
    const change = emptyChange();
    change.updates.push({ before: doc, after });
    change.counts.push(...countMove(doc, after));
    removeDocument(change, other);
    change.updates.push(...promoted);
    change.history.push(historyRecord(deps.ids, doc.receipt_id, now, `Combined with ${other.original_file_name}`, actor));
    change.history.push(...promotionHistory(deps.ids, promoted, now, `Original combined into ${doc.original_file_name}`, actor, copies));
    // The other document's pages now belong to this one (its prefix stays); its source, content and boxes are no
    // longer used, nor is this one's former boxes file. What it taught goes with it, as on a delete: a layout whose
    // document is gone could never be forgotten again; this one teaches its own when it is confirmed.
    const unused = [other.content_key, other.boxes_key].filter(present);
    if (doc.boxes_key && doc.boxes_key !== after.boxes_key) unused.push(doc.boxes_key);
    if (other.source) unused.push(other.source.key);
    const left = leftoversOf(other, now, unused, []);
    change.leftovers = [left];
    return {
      change,
      seen: doc.version,
      done: async () => {
        try {
          await publishDoc(deps.live, 'receipt-delete', other);
          await publishDoc(deps.live, 'receipt-update', after);
          for (const u of promoted) await publishDoc(deps.live, 'receipt-update', u.after);
        } finally {
          await clearLeftovers(deps, left);
        }
        return toSummary(after);
      },
    };
  });
}

/**
 * Try Again: back to processing with can_be_restarted false; the processing job is started by a
 * small ticket object (jobs/process/<id>/<run>.json) whose object-created event reaches the job.
 */
export async function restartDocument(deps: DocumentDeps, caller: DocCaller, receiptId: string, version?: number): Promise<ReceiptSummary> {
  let quotaLimit: number | undefined;
  const after = await editDocument(deps, caller, receiptId, version, async (doc) => {
    assertRestartable(doc);
    if (!doc.source) throw conflict(MESSAGES.notRestartable);
    const restarted: DocumentRecord = {
      ...doc,
      status: 'processing',
      can_be_restarted: false,
      error_message: null,
      processing_run: doc.processing_run + 1,
    };
    let extra: Edit['extra'];
    if (doc.company_id && !doc.charged_month) {
      // Never charged (it failed for the quota): charging it now is part of the restart.
      const [company] = await deps.store.getCompanies([doc.company_id]);
      const month = monthOf(deps.clock.now());
      quotaLimit = company?.available_documents ?? 0;
      restarted.charged_month = month;
      extra = (change) => {
        change.usage = {
          companyId: doc.company_id!,
          month,
          quota_taken: 1,
          used_documents: 1,
          reserved_documents: 0,
          duplicated_documents: 0,
          limit: (quotaLimit ?? 0) - 1,
          quota: quotaLimit,
        };
      };
    }
    // A document failed because its file could not be read gave up its hash marker (failDocument): it is put back.
    const marker = hashMarker(restarted);
    const charge = extra;
    const withMarker: Edit['extra'] = (change) => {
      charge?.(change);
      if (marker) change.markers.put.push(marker);
    };
    return { after: restarted, history: 'Restarted', extra: withMarker };
  }).catch((error: unknown) => {
    if (error instanceof CommitConflict && error.reason === 'quota') throw new AppError('QuotaExceeded', quotaMessage(quotaLimit ?? 0));
    throw error;
  });
  try {
    await deps.files.putJson(processTicketKey(after.receipt_id, after.processing_run), { receipt_id: after.receipt_id, run: after.processing_run });
  } catch (error) {
    // No job will come: put the document back as it was, so it is not left in processing.
    const now = deps.clock.now().toISOString();
    const back: DocumentRecord = { ...after, status: 'failed', can_be_restarted: true, error_message: 'The document could not be restarted. Try again.', version: after.version + 1, updated_at: now };
    const change = emptyChange();
    change.updates.push({ before: after, after: back });
    change.counts.push(...countMove(after, back));
    await deps.documents.commit(change).catch(() => undefined);
    throw error;
  }
  return toSummary(after);
}

export async function getDocument(deps: DocumentDeps, caller: DocCaller, receiptId: string): Promise<Receipt> {
  const [doc] = await withSameDocumentChecked(deps.documents, [await loadVisible(deps.documents, caller, receiptId)]);
  if (!doc) throw notFound('Document not found');
  const [content, history, urls] = await Promise.all([
    doc.content_key ? deps.files.getJson<unknown>(doc.content_key).then((raw) => parseStoredContent(raw)?.items) : Promise.resolve(undefined),
    deps.documents.history(doc.receipt_id),
    Promise.all(doc.pages.map((p) => (p.image_key ? deps.files.presignGet(p.image_key, PAGE_URL_SECONDS) : Promise.resolve(null)))),
  ]);
  return toDetail(doc, content, urls, history);
}

export async function getHistory(deps: DocumentDeps, caller: DocCaller, receiptId: string) {
  const doc = await loadVisible(deps.documents, caller, receiptId);
  const history = await deps.documents.history(doc.receipt_id);
  return { items: history.map((h) => ({ id: h.id, date: h.date, name: h.name, user: h.user })) };
}

/** Same file (hash) in the same company, and same counterparty + document number + total. */
export async function getDuplicates(deps: DocumentDeps, caller: DocCaller, receiptId: string): Promise<{ items: DuplicateInfo[] }> {
  const doc = await loadVisible(deps.documents, caller, receiptId);
  const sameFile = doc.source ? await deps.documents.markers('hash', doc.scope, doc.source.file_hash) : [];
  const sameDoc = doc.key_digest ? await deps.documents.markers('key', doc.scope, doc.key_digest) : [];
  const reasons = new Map<string, DuplicateInfo['reason']>();
  for (const id of sameDoc) if (id !== doc.receipt_id) reasons.set(id, 'same_document');
  for (const id of sameFile) if (id !== doc.receipt_id) reasons.set(id, 'same_file');
  const docs = await deps.documents.getMany([...reasons.keys()]);
  const items = docs
    .filter((d) => d.scope === doc.scope)
    .sort((a, b) => a.created_at.localeCompare(b.created_at))
    .map((d) => ({
      receipt_id: d.receipt_id,
      company_id: d.company_id,
      original_file_name: d.original_file_name,
      status: d.status,
      disabled_for_editing: toSummary(d).disabled_for_editing,
      reason: reasons.get(d.receipt_id)!,
      created_at: d.created_at,
    }));
  return { items };
}

// ---------------------------------------------------------------- master data

/**
 * What is set on a document beside its content: master data (its stakeholder, the stakeholder's date format, its
 * category) and the person's notes.
 */
export interface DocumentPatch {
  stakeholder_id?: string | null;
  stakeholder_date_format?: string | null;
  category_id?: string | null;
  /** The category's name, shown in lists and exports. */
  category?: string | null;
  external_category_id?: string | null;
  /** Free text of the people who handle the document (the export's Notes). */
  notes?: string;
}

/** What master data sets on a document. */
export type MasterDataPatch = Omit<DocumentPatch, 'notes'>;

/**
 * Sets a document's stakeholder, category and/or notes (edit screen, confirm, type change), with the version as
 * condition like every other edit; a patch that changes nothing writes nothing. The document must be editable as
 * read for the write: a write without a version (the edit screen's notes and category) that met a colleague's
 * Archive is made again from a fresh read, which finds it read-only (409), rather than writing on the archived one.
 */
export async function setDocumentFields(
  deps: DocumentDeps,
  caller: DocCaller,
  receiptId: string,
  patch: DocumentPatch,
  history: string,
  version?: number,
): Promise<ReceiptSummary> {
  const current = await loadVisible(deps.documents, caller, receiptId);
  const changes = (Object.keys(patch) as (keyof DocumentPatch)[]).filter((k) => patch[k] !== undefined && (current[k] ?? null) !== patch[k]);
  if (changes.length === 0 && (version === undefined || version === current.version)) return toSummary(current);
  const after = await editDocument(deps, caller, receiptId, version, (doc) => {
    assertEditable(doc);
    const next: DocumentRecord = { ...doc };
    for (const k of Object.keys(patch) as (keyof DocumentPatch)[]) if (patch[k] !== undefined) (next as unknown as Record<string, unknown>)[k] = patch[k] ?? null;
    next.search_text = searchTextOf(next);
    return { after: next, history };
  });
  return toSummary(after);
}
