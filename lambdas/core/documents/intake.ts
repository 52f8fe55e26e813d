/**
 * The processing job's entry (`handleObjectCreated`): an uploaded object becomes one document (or one per page of a
 * PDF in mode multiple), idempotently, charged to the company's month or failed uncharged over its quota; a process
 * ticket (jobs/process/…) reads one document (./processing.ts).
 */
import { MAX_SEARCH_BUCKETS } from './search';
import { monthOf } from '../accounts/companies';
import { checkContent, documentIdFor, documentKeys, parseProcessTicketKey, parseUploadKey, processTicketKey, sha256Hex } from './files';
import { searchTextOf } from './list';
import { CommitConflict, DocumentProblem } from './ports';
import { countMove, mergeCountDeltas } from './status-machine';
import { emptyChange, type DocumentChange, type DocumentRecord, type UploadRecord, type UsageDelta } from './types';
import { historyRecord, publishDoc, quotaMessage, type Actor } from './workflow';
import { failDocument, FAILED_MESSAGE, processDocument, READ_MAX_BYTES, readSource, sourceKind, tooBigMessage, type ProcessingDeps, type RunOptions } from './processing';

/** Pages a PDF may be split into (mode multiple). */
export const MAX_SPLIT_PAGES = 200;
/**
 * Documents created per transaction: each is a put, a hash marker, a history entry and up to
 * MAX_SEARCH_BUCKETS search-index items; with the counts, the usage and the upload ≤ 100 items.
 */
export const DOCS_PER_TRANSACTION = Math.floor(92 / (3 + MAX_SEARCH_BUCKETS));
export const TOO_MANY_PAGES_MESSAGE = `The PDF has more than ${MAX_SPLIT_PAGES} pages: upload it as one document per file`;

export interface ObjectCreated {
  /** Decoded object key. */
  key: string;
}

export async function handleObjectCreated(deps: ProcessingDeps, event: ObjectCreated, opts: RunOptions): Promise<void> {
  const ticket = parseProcessTicketKey(event.key);
  if (ticket) {
    const doc = await deps.documents.get(ticket.receiptId);
    if (doc && doc.status === 'processing' && doc.processing_run === ticket.run) await processDocument(deps, doc, opts);
    await deps.files.delete([event.key]);
    return;
  }
  const upload = parseUploadKey(event.key);
  if (upload) return handleUpload(deps, event.key, upload.uploadId, opts);
  deps.log.info('object ignored', { key: event.key });
}

interface Part {
  /** 1-based page of the upload for split PDFs, null for one document per file. */
  page: number | null;
  bytes?: Uint8Array;
  problem?: string;
}

async function partsOf(deps: ProcessingDeps, upload: UploadRecord, bytes: Uint8Array): Promise<Part[]> {
  if (upload.mode !== 'multiple') return [{ page: null }];
  const check = await checkContent(bytes, upload.original_file_name, 'multiple');
  if (!check.ok || check.kind !== 'pdf') return [{ page: null }];
  try {
    const pages = await deps.renderer.splitPdf(bytes, MAX_SPLIT_PAGES);
    if (pages === null) return [{ page: null, problem: TOO_MANY_PAGES_MESSAGE }];
    if (pages.length <= 1) return [{ page: null }];
    return pages.map((b, i) => ({ page: i + 1, bytes: b }));
  } catch (error) {
    // A PDF that cannot be split is one document; its processing reports what is wrong with it.
    if (!(error instanceof DocumentProblem)) deps.log.warn('split failed', { key: upload.key, error: error instanceof Error ? error.message : String(error) });
    return [{ page: null }];
  }
}

async function handleUpload(deps: ProcessingDeps, key: string, uploadId: string, opts: RunOptions): Promise<void> {
  let upload = await deps.documents.getUpload(uploadId);
  if (!upload || upload.key !== key) {
    deps.log.warn('object without a pending upload', { key });
    return;
  }
  // Size from the object's metadata first: a file over the largest upload allowed is refused without reading it.
  const head = await deps.files.head(key);
  if (!head) {
    deps.log.warn('uploaded object is gone', { key });
    return;
  }
  const still = await uploaderStillMember(deps, upload);
  if (still === 'refused') return;
  upload = still;
  const known = upload.state === 'consumed' ? (await deps.documents.getMany(upload.document_ids.slice(0, 1)))[0] : undefined;
  if (known?.source && !known.split_page && known.source.key === key && known.source.etag !== head.etag) {
    // A second object under an upload's key never silently becomes its document's file (write-once URLs prevent it).
    deps.log.warn('upload object replaced after its documents were made', { key, receipt_id: known.receipt_id });
  }
  let obj: { bytes: Uint8Array; etag: string; size?: number; sha256?: string };
  let parts: Part[];
  try {
    if (head.size > READ_MAX_BYTES) throw new DocumentProblem(tooBigMessage(upload.original_file_name));
    obj = await readSource(deps, key, upload.original_file_name, head.etag);
    parts = await partsOf(deps, upload, obj.bytes);
  } catch (error) {
    if (!(error instanceof DocumentProblem)) throw error;
    // One failed document keeps the upload's record; its digest names this object, not its (unread) content.
    obj = { bytes: new Uint8Array(), etag: head.etag, size: head.size, sha256: sha256Hex(new TextEncoder().encode(`${key}\n${head.etag}`)) };
    parts = [{ page: null, problem: error.message }];
  }
  const idOf = (p: Part) => documentIdFor(key, obj.etag, p.page);
  let docs: DocumentRecord[] = [];
  for (let attempt = 1; attempt <= 3; attempt++) {
    const ids = upload.state === 'consumed' ? upload.document_ids : parts.map(idOf);
    const existing = await deps.documents.getMany(ids);
    const have = new Set(existing.map((d) => d.receipt_id));
    const missing = parts.filter((p) => ids.includes(idOf(p)) && !have.has(idOf(p)));
    if (missing.length === 0) {
      docs = ids.map((id) => existing.find((d) => d.receipt_id === id)).filter((d): d is DocumentRecord => !!d);
      break;
    }
    try {
      const created = await createDocuments(deps, upload, obj, missing, idOf, parts.length);
      docs = [...existing, ...created];
      break;
    } catch (error) {
      if (error instanceof CommitConflict && (error.reason === 'exists' || error.reason === 'upload-state') && attempt < 3) {
        upload = (await deps.documents.getUpload(uploadId)) ?? upload;
        continue;
      }
      throw error;
    }
  }
  const pending = docs.filter((d) => d.status === 'processing');
  if (pending.length === 1 && docs.length === 1) {
    await processDocument(deps, pending[0]!, opts);
    return;
  }
  // Pages of a split PDF: one job per page (each its own Lambda invocation in AWS).
  try {
    for (const d of pending) await deps.files.putJson(processTicketKey(d.receipt_id, d.processing_run), { receipt_id: d.receipt_id, run: d.processing_run });
  } catch (error) {
    if (!opts.final) throw error;
    for (const d of pending) await failDocument(deps, d.receipt_id, d.processing_run, FAILED_MESSAGE);
  }
  await dropSplitOriginal(deps, key, docs);
}

/**
 * The uploaded PDF a split made its documents from, once every one of them exists with its own page PDF
 * (`documents/<id>/source.pdf`, what their reading, Try Again and delete use) and its job is started: no document
 * refers to the upload's object, so it is deleted at once instead of staying for as long as the company does (or,
 * uploaded without a company, for ever). A later delivery of its event finds it gone and does nothing.
 */
async function dropSplitOriginal(deps: ProcessingDeps, key: string, docs: DocumentRecord[]): Promise<void> {
  if (docs.length === 0 || !docs.every((d) => d.split_page && d.source && d.source.key !== key)) return;
  await deps.files.delete([key]);
}

/**
 * An upload a person asked for into a company (GET /upload/document: `held_by`; its URL stays valid 15 minutes)
 * whose documents are not made yet is made only while that person is still a member of the company (A4). A member
 * removed meanwhile gets nothing made: the reservation is given back (D12's release: usage and the person's
 * outstanding uploads), the object is deleted and 'refused' is answered. The processing of a later delivery, or a
 * release that found the upload consumed by another delivery, goes on with the upload as it is now.
 * Imports (Email-in, Google Drive, Dropbox) have no `held_by`: they choose a current member when they run.
 */
async function uploaderStillMember(deps: ProcessingDeps, upload: UploadRecord): Promise<UploadRecord | 'refused'> {
  if (!upload.company_id || !upload.held_by || upload.state === 'consumed') return upload;
  if (await deps.store.getMembership(upload.created_by, upload.company_id)) return upload;
  // A deleted company's upload is the purge's (its pending uploads go first, A16): handled as before, not released here.
  if (!(await deps.store.getCompanies([upload.company_id]))[0]) return upload;
  if (upload.state === 'pending' && !(await deps.documents.releaseUpload(upload))) {
    // No longer pending: another delivery made its documents (go on with them), or the reservation expired.
    const now = await deps.documents.getUpload(upload.upload_id);
    if (now?.state === 'consumed') return now;
  }
  deps.log.warn('upload refused: the uploader is no longer a member of the company', {
    upload_id: upload.upload_id,
    company_id: upload.company_id,
    user_id: upload.created_by,
  });
  await deps.files.delete([upload.key]);
  return 'refused';
}

/** What a new document's record holds of its own, beside what it takes from its upload (`documentOfUpload`). */
type NewDocumentParts = Pick<
  DocumentRecord,
  'receipt_id' | 'status' | 'original_file_name' | 'duplicate_id' | 'can_be_restarted' | 'error_message' | 'mode' | 'split_page' | 'source' | 'related_documents' | 'charged_month'
>;

/**
 * A new document of an upload, created at `at`: the upload's company, owner, type, notes and category, nothing
 * read yet (no pages, content or key fields), and the parts that differ from document to document.
 */
function documentOfUpload(upload: UploadRecord, at: string, parts: NewDocumentParts): DocumentRecord {
  const doc: DocumentRecord = {
    ...parts,
    scope: upload.scope,
    company_id: upload.company_id,
    company_name: upload.company_name,
    company_code: upload.company_code,
    user_id: upload.owner_id,
    user: upload.owner,
    receipt_type: upload.receipt_type,
    flag: false,
    notes: upload.notes,
    category: upload.category,
    email_id: upload.email_id ?? null,
    stakeholder_id: null,
    counterparty_name: '',
    document_number: '',
    issue_date: null,
    total: null,
    currency: null,
    search_text: '',
    key_digest: null,
    created_at: at,
    updated_at: at,
    version: 1,
    upload_id: upload.upload_id,
    upload_type: upload.upload_type,
    process_rows: upload.process_rows,
    pages: [],
    content_key: null,
    boxes_key: null,
    processing_run: 1,
  };
  doc.search_text = searchTextOf(doc);
  return doc;
}

/**
 * Creates the missing documents of an upload. The first transaction also turns the upload's quota
 * reservation into used documents (all documents of the upload at once) and marks the upload consumed,
 * so a second delivery of the event finds them and creates nothing.
 */
async function createDocuments(
  deps: ProcessingDeps,
  upload: UploadRecord,
  obj: { bytes: Uint8Array; etag: string; size?: number; sha256?: string },
  parts: Part[],
  idOf: (p: Part) => string,
  totalParts: number,
): Promise<DocumentRecord[]> {
  const now = deps.clock.now();
  const month = upload.state === 'pending' && upload.month ? upload.month : monthOf(now);
  const sha = obj.sha256 ?? sha256Hex(obj.bytes);
  const firstTime = upload.state !== 'consumed';
  const company = upload.company_id ? (await deps.store.getCompanies([upload.company_id]))[0] : undefined;
  const allIds = parts.map(idOf);
  const actor: Actor = { userId: upload.created_by, name: upload.created_by_name };
  const records: DocumentRecord[] = [];
  let duplicates = 0;
  for (const part of parts) {
    const id = idOf(part);
    const fileHash = part.page ? `${sha}#p${part.page}` : sha;
    const same = (await deps.documents.markers('hash', upload.scope, fileHash)).filter((other) => !allIds.includes(other));
    // A part that is failed already (a file over the largest upload, a PDF of too many pages) is not charged.
    if (same.length > 0 && company && !part.problem) duplicates += 1;
    if (part.bytes) await deps.files.put(documentKeys.pageSource(id), part.bytes, 'application/pdf');
    // Newest first: page 1 of a split PDF is listed above page 2.
    const createdAt = new Date(now.getTime() + (part.page ? totalParts - part.page : 0)).toISOString();
    const fileName = upload.original_file_name;
    records.push(
      documentOfUpload(upload, createdAt, {
        receipt_id: id,
        status: part.problem ? 'failed' : 'processing',
        original_file_name: part.page ? fileName.replace(/(\.[^.]+)?$/, (ext) => ` (page ${part.page})${ext}`) : fileName,
        duplicate_id: same[0] ?? null,
        can_be_restarted: Boolean(part.problem),
        error_message: part.problem ?? null,
        mode: upload.mode,
        split_page: part.page,
        source: {
          key: part.bytes ? documentKeys.pageSource(id) : upload.key,
          mime: part.bytes ? 'application/pdf' : upload.content_type,
          size: part.bytes ? part.bytes.length : (obj.size ?? obj.bytes.length),
          sha256: sha,
          file_hash: fileHash,
          etag: obj.etag,
          kind: part.bytes ? 'pdf' : sourceKind(fileName),
        },
        related_documents: upload.receipt_id ? [{ receipt_id: upload.receipt_id, original_file_name: '' }] : [],
        charged_month: company && !part.problem ? month : null,
      }),
    );
  }

  const chunks: DocumentRecord[][] = [];
  for (let i = 0; i < records.length; i += DOCS_PER_TRANSACTION) chunks.push(records.slice(i, i + DOCS_PER_TRANSACTION));
  for (const [index, chunk] of chunks.entries()) {
    const change = creationChange(deps, chunk, actor, (d) => d.status !== 'failed');
    if (index === 0 && firstTime) {
      change.upload = { upload, to: 'consumed', document_ids: allIds };
      if (company) change.usage = usageForUpload(upload, company.company_id, month, records.filter((r) => r.charged_month).length, duplicates, company.available_documents);
    }
    try {
      await deps.documents.commit(change);
    } catch (error) {
      if (error instanceof CommitConflict && error.reason === 'quota' && index === 0) {
        return createQuotaFailures(deps, upload, records, company?.available_documents ?? 0, actor);
      }
      throw error;
    }
    for (const d of chunk) await publishDoc(deps.live, 'receipt', d);
  }
  return records;
}

/**
 * The creation write of documents. `hashed` says which get a hash marker: all but those failed at creation by a file
 * problem (a file over the largest upload, a PDF of too many pages), which are no copy of anything, as a document
 * failed later because its file could not be read gives its marker up (`failDocument` with refund).
 */
function creationChange(deps: ProcessingDeps, docs: DocumentRecord[], actor: Actor, hashed: (d: DocumentRecord) => boolean = () => true): DocumentChange {
  const change = emptyChange();
  change.puts.push(...docs);
  change.counts.push(...mergeCountDeltas(docs.flatMap((d) => countMove(null, d))));
  for (const d of docs) {
    if (hashed(d)) change.markers.put.push({ kind: 'hash', scope: d.scope, value: d.source!.file_hash, receipt_id: d.receipt_id });
    change.history.push(historyRecord(deps.ids, d.receipt_id, d.created_at, d.email_id ? 'Received by email' : 'Uploaded', actor));
  }
  return change;
}

/**
 * The upload held one reserved document (state pending) or none (released after it expired).
 * Creating n documents takes n - reserved more, conditionally on the quota. Documents are counted in
 * the month of their reservation (the month the upload was requested), else in the current month.
 */
function usageForUpload(upload: UploadRecord, companyId: string, month: string, n: number, duplicates: number, available: number): UsageDelta {
  const reserved = upload.state === 'pending' ? 1 : 0;
  const extra = n - reserved;
  return {
    companyId,
    month,
    quota_taken: extra,
    reserved_documents: -reserved,
    used_documents: n,
    duplicated_documents: duplicates,
    // The month's quota is recorded where it is compared; documents the reservation covers were compared then.
    ...(extra > 0 ? { limit: available - extra, quota: available } : {}),
  };
}

/**
 * Over the quota when the documents were to be created: each of them is made failed and uncharged instead, keeping
 * its file (a split PDF's pages their own page PDF), so Try Again — once the quota allows — reads each as it would
 * have been read: a page a document, one document a charge.
 */
async function createQuotaFailures(deps: ProcessingDeps, upload: UploadRecord, records: DocumentRecord[], available: number, actor: Actor): Promise<DocumentRecord[]> {
  const failed = records.map(
    (r): DocumentRecord => ({ ...r, status: 'failed', can_be_restarted: true, error_message: quotaMessage(available), charged_month: null }),
  );
  for (let i = 0; i < failed.length; i += DOCS_PER_TRANSACTION) {
    const change = creationChange(deps, failed.slice(i, i + DOCS_PER_TRANSACTION), actor);
    if (i === 0) {
      change.upload = { upload, to: 'consumed', document_ids: failed.map((d) => d.receipt_id) };
      if (upload.state === 'pending' && upload.company_id && upload.month) {
        // Give the reservation back: these documents are not charged.
        change.usage = { companyId: upload.company_id, month: upload.month, quota_taken: -1, reserved_documents: -1, used_documents: 0, duplicated_documents: 0 };
      }
    }
    await deps.documents.commit(change);
  }
  for (const d of failed) await publishDoc(deps.live, 'receipt', d);
  return failed;
}

