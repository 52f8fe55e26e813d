/**
 * The processing job's reading of one document (`processDocument`): checked by content, rendered to page images,
 * recognised, matched to the company's master data, and ended in ready, review, unassigned or failed — never left
 * in processing (`failDocument`). How an uploaded object becomes its documents is ./intake.ts.
 */
import { UPLOAD_MSG } from '../../../shared/schemas/receipts';
import { CONTENT_MSG } from '../../../shared/schemas/content';
import { monthOf } from '../accounts/companies';
import { contentFromRecognition, type PageBoxes } from '../content/build';
import type { ContentSettings } from '../content/ports';
import { companySchema, schemaById } from '../content/schema';
import { contentSummary, toStored } from '../content/service';
import { emptyContent, findItem, type ContentDocument } from '../content/tree';
import { validateContent } from '../content/validate';
import type { AccountsStore, Clock, IdGenerator, LiveEvents } from '../ports';
import { mapExpenseToFields } from '../recognition/map-fields';
import { UNSUPPORTED_MESSAGE } from '../recognition/file-type';
import { applyDateFormat, applyHintsToResult } from '../recognition/learn';
import type { MasterDataStore } from '../master-data/ports';
import { lookupKeys, printedText } from '../recognition/layout-keys';
import type { SupplierLayouts } from '../recognition/ports';
import type { AnalyzeExpenseResult, ExtractedFields, Recogniser } from '../recognition/types';
import { documentKeyText, emptyFields, readyCheck, type ReadyCheck } from './content';
import { applyStakeholderToContent, counterpartyFacts, matchCounterparty, matchLineItemsToRegister, withStakeholderFields, type CounterpartyFacts, type CounterpartyMatch } from './counterparty';
import { checkContent, digest, documentKeys, extensionOf, EXTENSIONS } from './files';
import { searchTextOf } from './list';
import { DOCUMENT_MAX_BYTES, IMAGE_MAX_BYTES } from '../../../shared/constants';
import { latestDateOnEarth } from '../../../shared/business-time';
import { CommitConflict, DocumentProblem, ObjectChanged, ObjectTooLarge, type DocumentsStore, type FileStore, type OfficeConverter, type PageRenderer, type RenderedPage } from './ports';
import { countMove } from './status-machine';
import { emptyChange, type DocumentRecord, type PageRecord } from './types';
import { earlierHolderExists, historyRecord, keyMarker, moveKeyMarker, otherHoldersOfKey, publishDoc, SYSTEM_ACTOR } from './workflow';

export interface ProcessingDeps {
  documents: DocumentsStore;
  files: FileStore;
  store: AccountsStore;
  live: LiveEvents;
  clock: Clock;
  ids: IdGenerator;
  renderer: PageRenderer;
  /** Office files as PDF for their page images (LibreOffice where installed); none: no preview, the text is still read. */
  office: OfficeConverter;
  /** Supplier layouts learnt from confirmed documents (applied to the recogniser's answer). */
  layouts: SupplierLayouts;
  /** The company's suppliers, customers, categories and items (matched to what is recognised). */
  masterData: MasterDataStore;
  /** The company's Fields configuration (schema overrides): what a confirm requires decides ready too. */
  schemas: Pick<ContentSettings, 'getSchemaOverrides'>;
  /** The recogniser (Textract or local), created on first use. */
  recogniser(): Promise<Recogniser>;
  log: { info(msg: string, data?: Record<string, unknown>): void; warn(msg: string, data?: Record<string, unknown>): void };
}

/** Shown when processing failed for a reason the user cannot fix (after the retries). */
export const FAILED_MESSAGE = 'The document could not be processed. Try again.';
/** Pages of one PDF document that are rendered and recognised; the rest are kept in the file but not read. */
export const MAX_RECOGNISED_PAGES = 50;
export const pagesCappedMessage = (total: number) => `Only the first ${MAX_RECOGNISED_PAGES} of ${total} pages were recognised`;
/** The stored file is no longer the one the document was made from (a second write to its key). */
export const REPLACED_MESSAGE = 'The file was replaced after it was uploaded. Upload it again as a new document.';
/** The most bytes the job reads of any uploaded file (the largest upload allowed); larger objects are refused unread. */
export const READ_MAX_BYTES = Math.max(DOCUMENT_MAX_BYTES, IMAGE_MAX_BYTES);

/** The refusal of a file over the largest upload of its kind. */
export function tooBigMessage(fileName: string): string {
  return sourceKind(fileName) === 'image' ? UPLOAD_MSG.imageTooBig : UPLOAD_MSG.documentTooBig;
}

/** Reads a stored file with the read cap, only in the version the caller recorded; problems the user can read. */
export async function readSource(deps: ProcessingDeps, key: string, fileName: string, etag?: string): Promise<{ bytes: Uint8Array; etag: string }> {
  try {
    return await deps.files.get(key, { maxBytes: READ_MAX_BYTES, ...(etag ? { ifMatch: etag } : {}) });
  } catch (error) {
    if (error instanceof ObjectTooLarge) throw new DocumentProblem(tooBigMessage(fileName));
    if (error instanceof ObjectChanged) throw new DocumentProblem(REPLACED_MESSAGE);
    throw error;
  }
}

export interface RunOptions {
  /** The last delivery of this event: a failure now ends the document in `failed` instead of a retry. */
  final: boolean;
}

/** What kind of file a name is by its extension (an unknown one is read as an office file). */
export function sourceKind(fileName: string): 'image' | 'pdf' | 'office' {
  return EXTENSIONS[extensionOf(fileName)]?.kind ?? 'office';
}

/** Why a document that passed every other check stays in review: it may be booked twice. */
export const POSSIBLE_DUPLICATE = 'possible duplicate of an earlier document';

/**
 * A document is a possible duplicate when the same file was uploaded before in its company (`duplicate_id`, this
 * function) or another document there has the same counterparty, number and total (the key GET
 * receipts/{id}/duplicates lists: `sameDocumentExists`, kept on the document as `same_document`).
 * It then does not reach `ready` by itself: a copy confirmed and exported unseen would be booked twice.
 * The same file is looked for again now, not only at creation: two copies created at the same moment (a double
 * drop, the same file mailed and uploaded) each found no other then, and both would reach `ready`; read after
 * both were written, each sees the other and both stay in review. Likewise the key: `doc` already holds its own
 * key marker (claimKey), so of two documents of one key processed at the same moment the later reader sees the
 * earlier (both stay in review when each reads after both markers were written). Both reads are consistent.
 */
async function isSameFile(deps: Pick<ProcessingDeps, 'documents'>, doc: DocumentRecord): Promise<boolean> {
  if (doc.duplicate_id) return true;
  const fileHash = doc.source?.file_hash;
  return Boolean(fileHash && (await deps.documents.markers('hash', doc.scope, fileHash)).some((id) => id !== doc.receipt_id));
}

/**
 * The document with its key (`key_digest`) and its key marker written, under its version, before its processing result
 * looks for other documents of that key; undefined when the document changed meanwhile (another delivery of the event,
 * the sweeper). Of two documents of one key processed at the same moment, the one that reads the markers second reads
 * after both markers were written and sees the other, so at most one of them reaches `ready` by itself. The marker
 * moves with the record in one transaction, as every other key change does, so no commit, lost or won, leaves a
 * marker naming a document whose record holds another key. A document already holding this key claims nothing.
 */
async function claimKey(deps: Pick<ProcessingDeps, 'documents'>, doc: DocumentRecord, keyDigest: string): Promise<DocumentRecord | undefined> {
  if (doc.key_digest === keyDigest) return doc;
  // Still processing: no status, count or time changes (the sweeper reads updated_at), no event.
  const claimed: DocumentRecord = { ...doc, key_digest: keyDigest, version: doc.version + 1 };
  const change = emptyChange();
  change.updates.push({ before: doc, after: claimed });
  const oldKey = keyMarker(doc);
  if (oldKey) change.markers.delete.push(oldKey);
  change.markers.put.push(keyMarker(claimed)!);
  try {
    await deps.documents.commit(change);
  } catch (error) {
    if (error instanceof CommitConflict && error.reason === 'version') return undefined;
    throw error;
  }
  return claimed;
}

function isUnsupported(error: unknown): error is Error {
  return error instanceof Error && error.name === 'UnsupportedDocumentError';
}

/**
 * The recogniser's answer with the layouts the document's company learnt for its supplier applied
 * (docs/recognition.md, "Matching and learning"): one BatchGet by the supplier's VAT ID, company code and
 * normalised name and the VAT IDs printed on the page. Cost documents of a company only; a failed look-up
 * leaves the answer as it was.
 */
async function withLearntLayouts(deps: ProcessingDeps, doc: DocumentRecord, result: AnalyzeExpenseResult): Promise<AnalyzeExpenseResult> {
  if (!doc.company_id || doc.receipt_type !== 'receipt') return result;
  try {
    const keys = lookupKeys(mapExpenseToFields(result), printedText(result));
    if (!keys.length) return result;
    const layouts = await deps.layouts.find(doc.company_id, keys);
    if (!layouts.length) return result;
    return applyHintsToResult(result, layouts.map((l) => l.hint));
  } catch (error) {
    deps.log.warn('learnt layouts not applied', { receipt_id: doc.receipt_id, error: error instanceof Error ? error.message : String(error) });
    return result;
  }
}

/**
 * The document's supplier (cost) or customer (sales) looked up in its company's register
 * (counterparty.ts: at most five exact or bounded look-ups). Unassigned documents match nothing; a failed
 * look-up is logged and leaves the party new.
 */
async function matchedCounterparty(deps: ProcessingDeps, doc: DocumentRecord, fields: ExtractedFields): Promise<CounterpartyMatch | undefined> {
  if (!doc.company_id) return undefined;
  try {
    return await matchCounterparty(deps.masterData, doc.company_id, doc.receipt_type, fields);
  } catch (error) {
    deps.log.warn('stakeholder not matched', { receipt_id: doc.receipt_id, error: error instanceof Error ? error.message : String(error) });
    return undefined;
  }
}

/** Line items matched to the company's items; a failed look-up leaves the lines as read. */
async function registerItems(deps: ProcessingDeps, doc: DocumentRecord, companyId: string, fields: ExtractedFields): Promise<ExtractedFields> {
  try {
    return (await matchLineItemsToRegister(deps.masterData, companyId, fields)).fields;
  } catch (error) {
    deps.log.warn('items not matched', { receipt_id: doc.receipt_id, error: error instanceof Error ? error.message : String(error) });
    return fields;
  }
}

/** What the matched stakeholder sets on the document; a failed category look-up sets it without the category. */
async function registerFacts(deps: ProcessingDeps, doc: DocumentRecord, companyId: string, matched: CounterpartyMatch): Promise<CounterpartyFacts> {
  try {
    return await counterpartyFacts(deps.masterData, companyId, matched.stakeholder);
  } catch (error) {
    deps.log.warn('stakeholder category not read', { receipt_id: doc.receipt_id, error: error instanceof Error ? error.message : String(error) });
    return { stakeholder_id: matched.stakeholder.id, category_id: null, category: null, stakeholder_date_format: matched.stakeholder.selected_date_format ?? null };
  }
}

/**
 * Page images of an office file: LibreOffice's PDF rendered like any PDF. No converter, a failed conversion
 * or a PDF that cannot be rendered leaves the document without images (logged); it is still recognised.
 */
async function officePages(deps: ProcessingDeps, doc: DocumentRecord, bytes: Uint8Array): Promise<{ rendered: RenderedPage[]; pdf?: Uint8Array }> {
  let pdf: Uint8Array;
  try {
    const converted = await deps.office.toPdf(bytes, doc.original_file_name);
    if (!converted.pdf) {
      deps.log.info('no office preview', { receipt_id: doc.receipt_id, reason: converted.reason });
      return { rendered: [] };
    }
    pdf = converted.pdf;
  } catch (error) {
    deps.log.warn('office conversion failed', { receipt_id: doc.receipt_id, error: error instanceof Error ? error.message : String(error) });
    return { rendered: [] };
  }
  try {
    return { rendered: await deps.renderer.renderPdf(pdf), pdf };
  } catch (error) {
    if (!(error instanceof DocumentProblem)) throw error;
    deps.log.warn('office preview not rendered', { receipt_id: doc.receipt_id, error: error.message });
    return { rendered: [] };
  }
}

/** History entry of an unassigned document whose pages are ready: it is read once a company is chosen. */
export const UNREAD_HISTORY = 'Waiting for a company: not read yet';

/**
 * An unassigned document ends its processing unread (docs/decisions.md, "Upload"): its pages rendered for the
 * Select-company screen, no content, no key, no recognised field, status `unassigned`. Nothing is recognised,
 * learnt or matched before a company is chosen: recognition is what the company's quota pays for.
 */
async function keepUnread(deps: ProcessingDeps, doc: DocumentRecord, pages: PageRecord[], note: string | null): Promise<void> {
  const now = deps.clock.now().toISOString();
  const after: DocumentRecord = {
    ...doc,
    status: 'unassigned',
    pages,
    content_key: null,
    boxes_key: null,
    counterparty_name: '',
    counterparty_code: '',
    counterparty_vat_id: '',
    stakeholder_id: null,
    stakeholder_date_format: null,
    document_number: '',
    issue_date: null,
    total: null,
    currency: null,
    key_digest: null,
    same_document: false,
    can_be_restarted: false,
    error_message: note,
    version: doc.version + 1,
    updated_at: now,
  };
  after.search_text = searchTextOf(after);
  const change = emptyChange();
  change.updates.push({ before: doc, after });
  change.counts.push(...countMove(doc, after));
  const oldKey = keyMarker(doc);
  if (oldKey) change.markers.delete.push(oldKey);
  change.history.push(historyRecord(deps.ids, doc.receipt_id, now, UNREAD_HISTORY, SYSTEM_ACTOR));
  try {
    await deps.documents.commit(change);
  } catch (error) {
    if (error instanceof CommitConflict && error.reason === 'version') {
      deps.log.info('processing result not saved: the document changed meanwhile', { receipt_id: doc.receipt_id });
      return;
    }
    throw error;
  }
  await publishDoc(deps.live, 'receipt-update', after);
}

/**
 * A document given a company (selectCompany) is read there under its new id; the page images and content its
 * unassigned document had (under that document's key prefix) are no longer used once its reading is saved. Objects
 * under the document's own prefix go with its delete; a failed delete is logged and leaves them.
 */
async function dropReplacedObjects(deps: ProcessingDeps, before: DocumentRecord, after: DocumentRecord): Promise<void> {
  // A document other documents were combined into holds their pages' only copies: nothing of it is deleted.
  if (before.related_documents.some((r) => r.original_file_name)) return;
  const own = documentKeys.prefix(after.receipt_id);
  const used = new Set([...after.pages.map((p) => p.image_key), after.content_key, after.boxes_key, after.source?.key]);
  const stale = [...before.pages.map((p) => p.image_key), before.content_key, before.boxes_key].filter(
    (key): key is string => Boolean(key) && !key!.startsWith(own) && !used.has(key),
  );
  if (!stale.length) return;
  try {
    await deps.files.delete(stale);
  } catch (error) {
    deps.log.warn('replaced objects not deleted', { receipt_id: after.receipt_id, error: error instanceof Error ? error.message : String(error) });
  }
}

/** The schema fields the ready rule (`readyCheck`) checks and names itself. */
const READY_RULE_FIELDS = new Set(['supplier_name', 'customer_name', 'document_id', 'issue_date', 'amount_total', 'amount_total_base', 'amount_tax']);

/**
 * The ready rule and what a confirm would refuse in the built content: `validateContent` with the company's Fields
 * configuration, as a confirm and a move to ready by hand check it (`ready` promises a document a confirm would take
 * as it stands). A field the company made Required left empty keeps the document in review, the reason naming it;
 * the edit screen marks the same fields. A document without a company is not ready in any case.
 */
async function withCompanyFields(deps: ProcessingDeps, doc: DocumentRecord, content: ContentDocument, ready: ReadyCheck): Promise<ReadyCheck> {
  if (!doc.company_id) return ready;
  const schema = companySchema(await deps.schemas.getSchemaOverrides(doc.company_id));
  const refused = validateContent(content, schema, doc.receipt_type);
  if (!refused.length) return ready;
  const fields = schemaById(schema);
  const named = refused.flatMap((e) => {
    const field = fields.get(findItem(content, e.id)?.schema_id ?? '');
    // What the ready rule found wrong it has said already.
    if (!field || (!ready.ready && READY_RULE_FIELDS.has(field.id))) return [];
    return [e.message === CONTENT_MSG.required ? `${field.label} missing (required by the company)` : `${field.label}: ${e.message}`];
  });
  return { ...ready, ready: false, reasons: [...new Set([...ready.reasons, ...named])] };
}

/** Check, render, recognise, decide; ends in ready / review / unassigned, or failed with a message. */
export async function processDocument(deps: ProcessingDeps, doc: DocumentRecord, opts: RunOptions): Promise<void> {
  const run = doc.processing_run;
  // Until the recogniser is called a file problem means the file could not be read at all: its charge is given back.
  let reading = false;
  try {
    if (!doc.source) throw new DocumentProblem(UPLOAD_MSG.typeNotAllowed);
    // Only the object the document was made from (its ETag; split pages are the job's own copies), read with the cap.
    const obj = await readSource(deps, doc.source.key, doc.original_file_name, doc.split_page ? undefined : doc.source.etag);
    const check = await checkContent(obj.bytes, doc.original_file_name, doc.split_page ? 'single' : doc.mode);
    if (!check.ok) throw new DocumentProblem(check.message);

    let rendered: RenderedPage[] = [];
    let officePdf: Uint8Array | undefined;
    const pages: PageRecord[] = [];
    const storePage = async (page: RenderedPage, i: number) => {
      const imageKey = documentKeys.pageImage(doc.receipt_id, i + 1, run);
      await deps.files.put(imageKey, page.jpeg, 'image/jpeg');
      pages.push({ page: i + 1, document: doc.original_file_name, image_key: imageKey, status: 'processed', width: page.width, height: page.height });
    };
    // A long PDF: only its first pages are rendered and recognised (from a copy of them, Textract included).
    let source = { bytes: obj.bytes, key: doc.source.key };
    let cappedFrom: number | null = null;
    if (check.kind === 'pdf') {
      const first = await deps.renderer.firstPages(obj.bytes, MAX_RECOGNISED_PAGES).catch((error: unknown) => {
        if (error instanceof DocumentProblem) return undefined; // renderPdf says what is wrong with it
        throw error;
      });
      if (first && first.total > MAX_RECOGNISED_PAGES) {
        source = { bytes: first.bytes, key: documentKeys.firstPages(doc.receipt_id, run) };
        await deps.files.put(source.key, source.bytes, 'application/pdf');
        cappedFrom = first.total;
      }
    }
    if (check.kind === 'image') rendered = [await deps.renderer.renderImage(obj.bytes)];
    // Page by page: each image is stored as soon as it is rendered.
    else if (check.kind === 'pdf') await deps.renderer.renderPdf(source.bytes, storePage);
    else if (check.kind === 'office') ({ rendered, pdf: officePdf } = await officePages(deps, doc, obj.bytes));
    for (const [i, page] of rendered.entries()) await storePage(page, i);
    if (pages.length === 0) pages.push({ page: 1, document: doc.original_file_name, image_key: null, status: 'not_processed', width: null, height: null });
    // An unassigned document is not read until a company is chosen (selectCompany starts its reading there).
    if (!doc.company_id) return await keepUnread(deps, doc, pages, check.kind === 'office' && rendered.length === 0 ? UNSUPPORTED_MESSAGE : null);
    reading = true;

    let fields: ExtractedFields = emptyFields();
    let content: ContentDocument = emptyContent(companySchema());
    let boxes: PageBoxes[] | undefined;
    let matched: CounterpartyMatch | undefined;
    let facts: CounterpartyFacts | undefined;
    // An office file without page images (no LibreOffice) keeps this note; its fields still come from its text.
    let note: string | null = check.kind === 'office' && rendered.length === 0 ? UNSUPPORTED_MESSAGE : null;
    const recogniser = await deps.recogniser();
    try {
      const result = await recogniser.analyzeExpense({
        bytes: source.bytes,
        mime: check.mime,
        fileName: doc.original_file_name,
        s3Object: { bucket: deps.files.bucket(), key: source.key },
        ...(officePdf ? { officePdf } : {}),
        idempotencyKey: `${doc.receipt_id}.${run}`,
        // PDF pages are stored as they are rendered (storePage), so their count is that of the stored images.
        ...(check.kind === 'pdf' && pages.some((p) => p.image_key) ? { pageCount: pages.length } : {}),
      });
      let learnt = await withLearntLayouts(deps, doc, result);
      fields = mapExpenseToFields(learnt);
      matched = await matchedCounterparty(deps, doc, fields);
      // The stakeholder's date format decides ambiguous dates such as 01/02/2024.
      const dateFormat = matched?.stakeholder.selected_date_format ?? undefined;
      if (dateFormat) {
        learnt = applyDateFormat(learnt, dateFormat);
        fields = mapExpenseToFields(learnt, { dateFormat });
      }
      if (matched) fields = withStakeholderFields(fields, matched.stakeholder, matched.sure);
      if (!doc.process_rows) fields = { ...fields, line_items: [] };
      else if (doc.company_id && fields.line_items.length) fields = await registerItems(deps, doc, doc.company_id, fields);
      const built = contentFromRecognition(learnt, { fields, pageDocuments: pages.map((p) => p.document) });
      content = matched ? applyStakeholderToContent(built.content, matched.stakeholder) : built.content;
      boxes = built.boxes;
      if (matched && doc.company_id) facts = await registerFacts(deps, doc, doc.company_id, matched);
    } catch (error) {
      if (!isUnsupported(error)) throw error;
      note = error.message;
      const detail = (error as { details?: { detail?: string } }).details?.detail;
      deps.log.info('not recognised', { receipt_id: doc.receipt_id, ...(detail ? { detail } : {}) });
    }
    const summary = contentSummary(content, doc.receipt_type);
    // An issue date is in the future only after today in the latest time zone on earth (UTC+14): a document dated
    // today where it was written is never sent to review for its date, whatever the hour in UTC.
    const today = latestDateOnEarth(deps.clock.now());
    const ready = await withCompanyFields(deps, doc, content, readyCheck(fields, doc.receipt_type, today));
    const keyText = documentKeyText(summary);
    const keyDigest = keyText ? digest(keyText) : null;
    const mayBeReady = Boolean(doc.company_id) && ready.ready && !note;
    // A document that may reach ready holds its key (marker) before it looks for others of that key.
    const before = mayBeReady && keyDigest ? await claimKey(deps, doc, keyDigest) : doc;
    if (!before) {
      deps.log.info('processing result not saved: the document changed meanwhile', { receipt_id: doc.receipt_id });
      return;
    }
    // Read after the claim: of two documents of one key processed at the same moment the later reader sees the earlier.
    // Any other holder keeps it from ready; it is a copy (`same_document`) when one was uploaded before it.
    const holders = await otherHoldersOfKey(deps.documents, { scope: before.scope, receipt_id: before.receipt_id, key_digest: keyDigest });
    const duplicate = mayBeReady && (holders.length > 0 || (await isSameFile(deps, before)));
    const sameDocument = await earlierHolderExists(deps.documents, before, holders);
    const reasons = duplicate ? [POSSIBLE_DUPLICATE] : ready.reasons;
    const status = doc.company_id ? (mayBeReady && !duplicate ? 'ready' : 'review') : 'unassigned';
    const contentKey = documentKeys.content(doc.receipt_id, deps.ids.newId());
    await deps.files.putJson(contentKey, toStored(content));
    const boxesKey = boxes ? documentKeys.boxes(doc.receipt_id, run) : null;
    if (boxesKey) await deps.files.putJson(boxesKey, boxes);
    const now = deps.clock.now().toISOString();
    const after: DocumentRecord = {
      ...before,
      status,
      pages,
      content_key: contentKey,
      boxes_key: boxesKey,
      counterparty_name: summary.counterparty_name,
      counterparty_code: summary.counterparty_code,
      counterparty_vat_id: summary.counterparty_vat_id,
      stakeholder_id: facts?.stakeholder_id ?? null,
      stakeholder_date_format: facts?.stakeholder_date_format ?? null,
      // The stakeholder's category; without one the category given at upload stays.
      ...(facts?.category_id ? { category_id: facts.category_id, category: facts.category } : {}),
      document_number: summary.document_number,
      issue_date: summary.issue_date,
      total: summary.total,
      currency: summary.currency,
      key_digest: keyDigest,
      same_document: sameDocument,
      can_be_restarted: false,
      error_message: note,
      version: before.version + 1,
      updated_at: now,
    };
    after.search_text = searchTextOf(after);
    const change = emptyChange();
    change.updates.push({ before, after });
    change.counts.push(...countMove(before, after));
    moveKeyMarker(change, before, after);
    const outcome = status === 'ready' ? 'Recognised: ready' : status === 'review' ? `Recognised: to review (${reasons.join('; ') || note})` : 'Recognised';
    change.history.push(historyRecord(deps.ids, doc.receipt_id, now, outcome, SYSTEM_ACTOR));
    if (cappedFrom !== null) change.history.push(historyRecord(deps.ids, doc.receipt_id, now, pagesCappedMessage(cappedFrom), SYSTEM_ACTOR));
    try {
      await deps.documents.commit(change);
    } catch (error) {
      // Another delivery of the same event finished first.
      if (error instanceof CommitConflict && error.reason === 'version') {
        deps.log.info('processing result not saved: the document changed meanwhile', { receipt_id: doc.receipt_id });
        return;
      }
      throw error;
    }
    await dropReplacedObjects(deps, before, after);
    await publishDoc(deps.live, 'receipt-update', after);
  } catch (error) {
    if (error instanceof DocumentProblem) return failDocument(deps, doc.receipt_id, run, error.message, { refund: !reading });
    if (opts.final) {
      deps.log.warn('processing failed for good', { receipt_id: doc.receipt_id, error: error instanceof Error ? error.message : String(error) });
      return failDocument(deps, doc.receipt_id, run, FAILED_MESSAGE);
    }
    throw error;
  }
}

/** History entry of a failed document whose charge was given back (`failDocument` with refund). */
export const CHARGE_RETURNED = 'Not counted in the monthly document limit: the file could not be read';

/**
 * processing → failed with a readable message; the user may try again. With `refund` (the file is not of an allowed
 * type or could not be read at all: nothing was recognised) a document charged in the current month gives its
 * document back in the same write (used −1, charged_month null), so its Try Again charges it again; the write is
 * conditioned on the document's version and status, so a second delivery of the job finds it failed and gives back
 * nothing. A charge of an earlier month stays: that month is over (and its Try Again is not charged again). The
 * give-back never takes the month's counters below 0: when the platform admin reset the month since the charge
 * (nothing left to give back), the document is failed without it (charged_month null, no give-back history line).
 * With `refund` the document also gives up its hash marker in that write: a file that could not be read is no copy
 * of anything, so a later upload of the same bytes (renamed to what they are) is not held back as its duplicate.
 */
export async function failDocument(
  deps: Pick<ProcessingDeps, 'documents' | 'live' | 'clock' | 'ids'>,
  receiptId: string,
  run: number,
  message: string,
  opts: { refund?: boolean } = {},
): Promise<void> {
  // Cleared when the month's usage no longer holds the charge to give back (the platform admin reset it since).
  let usageHoldsCharge = true;
  for (let attempt = 1; attempt <= 3; attempt++) {
    const doc = await deps.documents.get(receiptId);
    if (!doc || doc.status !== 'processing' || doc.processing_run !== run) return;
    const now = deps.clock.now().toISOString();
    const chargedNow = Boolean(opts.refund && doc.company_id && doc.charged_month && doc.charged_month === monthOf(deps.clock.now()));
    const refund = chargedNow && usageHoldsCharge;
    const after: DocumentRecord = {
      ...doc,
      status: 'failed',
      can_be_restarted: true,
      error_message: message,
      pages: doc.pages.length ? doc.pages : [{ page: 1, document: doc.original_file_name, image_key: null, status: 'not_processed', width: null, height: null }],
      // Also when the reset already wiped its charge: it is not counted, so its Try Again is charged as after a give-back.
      ...(chargedNow ? { charged_month: null } : {}),
      version: doc.version + 1,
      updated_at: now,
    };
    const change = emptyChange();
    change.updates.push({ before: doc, after });
    change.counts.push(...countMove(doc, after));
    change.history.push(historyRecord(deps.ids, receiptId, now, `Processing failed: ${message}`, SYSTEM_ACTOR));
    // A file that could not be read is no copy of anything: its hash marker goes with this write (a later upload of
    // the same bytes is no duplicate of it), and its Try Again puts it back (restartDocument).
    if (opts.refund && doc.source) change.markers.delete.push({ kind: 'hash', scope: doc.scope, value: doc.source.file_hash, receipt_id: receiptId });
    if (refund) {
      change.usage = {
        companyId: doc.company_id!,
        month: doc.charged_month!,
        quota_taken: -1,
        used_documents: -1,
        reserved_documents: 0,
        duplicated_documents: 0,
        notBelowZero: true,
      };
      change.history.push(historyRecord(deps.ids, receiptId, now, CHARGE_RETURNED, SYSTEM_ACTOR));
    }
    try {
      await deps.documents.commit(change);
    } catch (error) {
      if (error instanceof CommitConflict && error.reason === 'version') continue;
      if (refund && error instanceof CommitConflict && error.reason === 'quota') {
        // Nothing to give back: failed without it (once, so this try does not count).
        usageHoldsCharge = false;
        attempt -= 1;
        continue;
      }
      throw error;
    }
    await publishDoc(deps.live, 'receipt-update', after);
    return;
  }
}
