/** What the documents domain needs from the outside world; adapters implement it. */
import type { StatusCounts } from '../../../shared/schemas';
import type { StreamReader } from './list';
import type { ScopeTally } from './sums';
import type {
  DocumentChange,
  DocumentLeftovers,
  DocumentRecord,
  HistoryRecord,
  MarkerKind,
  ReceiptType,
  ScopeKey,
  UploadRecord,
  UsageDelta,
} from './types';

/** Why an atomic commit was refused. */
export type ConflictReason = 'version' | 'exists' | 'quota' | 'upload-state' | 'held' | 'unknown';

export class CommitConflict extends Error {
  constructor(
    readonly reason: ConflictReason,
    readonly receiptId?: string,
  ) {
    super(`commit refused: ${reason}${receiptId ? ` (${receiptId})` : ''}`);
    this.name = 'CommitConflict';
  }
}

export interface DocumentsStore extends StreamReader {
  get(receiptId: string): Promise<DocumentRecord | undefined>;
  /** The documents of these ids that exist (in no particular order); `consistent` sees every write committed before. */
  getMany(receiptIds: string[], options?: { consistent?: boolean }): Promise<DocumentRecord[]>;
  /** Commits the change atomically; throws CommitConflict when a condition fails. */
  commit(change: DocumentChange): Promise<void>;
  history(receiptId: string): Promise<HistoryRecord[]>;
  /** Removes the history items of deleted documents. */
  deleteHistory(receiptId: string): Promise<void>;
  copyHistory(fromReceiptId: string, toReceiptId: string): Promise<void>;
  /**
   * Removes the export markers of a deleted document (`DOC#<id>` / `EXPORT#<target>`: what was delivered where, with
   * the delivered file paths), so they do not outlive it.
   */
  deleteExportMarkers(receiptId: string): Promise<void>;
  /** The leftovers of deleted documents due before `dueBefore` (deleted, or last postponed, before it; D18), the earliest first, at most `limit`. */
  pendingLeftovers(dueBefore: string, limit: number): Promise<DocumentLeftovers[]>;
  /** Drops a deleted document's leftovers item once everything it names is removed. */
  dropLeftovers(receiptId: string): Promise<void>;
  /** Puts a deleted document's leftovers behind the others, to be taken on again after `retryAt` (D18); none: nothing. */
  postponeLeftovers(receiptId: string, retryAt: string): Promise<void>;
  /** Receipt ids that carry the marker. */
  markers(kind: MarkerKind, scope: ScopeKey, value: string): Promise<string[]>;
  counts(scope: ScopeKey): Promise<Record<ReceiptType, StatusCounts>>;
  /** The counts and the sums of document totals (sums.ts) of several scopes at once, per scope and type (D15). */
  tallies(scopes: ScopeKey[]): Promise<Map<ScopeKey, Record<ReceiptType, ScopeTally>>>;

  /**
   * Stores a pending upload; with `reserve`, takes one document of the month's quota in the same transaction;
   * with `hold` (and `upload.held_by`), also raises that user's count of outstanding uploads — in the company, or
   * for an all-companies upload (no company) the user's own — conditionally on `maxOutstanding` (CommitConflict
   * 'held' when over it). The count falls again when the upload leaves `pending` (commit with `change.upload`,
   * releaseUpload).
   */
  putUpload(upload: UploadRecord, reserve?: UsageDelta, hold?: { maxOutstanding: number }): Promise<void>;
  getUpload(uploadId: string): Promise<UploadRecord | undefined>;
  /**
   * Pending uploads whose reservation has expired (bounded): of a company (`C#…`), or a user's held all-companies
   * uploads (`U#…`).
   */
  expiredUploads(scope: ScopeKey, nowIso: string, limit: number): Promise<UploadRecord[]>;
  /** pending → released and the reservation returned, atomically; false when it was no longer pending. */
  releaseUpload(upload: UploadRecord): Promise<boolean>;
  usage(companyId: string, month: string): Promise<{ used_documents: number; reserved_documents: number; quota_taken: number }>;
}

export interface StoredObject {
  bytes: Uint8Array;
  etag: string;
  size: number;
  contentType?: string;
}

/** What an upload URL binds besides its key: the exact length, and that it writes only where nothing is. */
export interface PutBinding {
  /** Signed into the URL (content-length): S3 refuses a body of another length. */
  contentLength?: number;
  /** Signed `If-None-Match: *`: the URL cannot replace an object (S3 answers 412). */
  writeOnce?: boolean;
}

export interface GetOptions {
  /** Read at most this many bytes (streamed); more → ObjectTooLarge, without reading the rest. */
  maxBytes?: number;
  /** Only this version of the object (its ETag); another → ObjectChanged. */
  ifMatch?: string;
}

/** The object is larger than the reader's cap. */
export class ObjectTooLarge extends Error {
  constructor(readonly key: string) {
    super(`Object ${key} is larger than allowed`);
    this.name = 'ObjectTooLarge';
  }
}

/** The object is not the version the caller recorded (it was replaced). */
export class ObjectChanged extends Error {
  constructor(readonly key: string) {
    super(`Object ${key} was replaced`);
    this.name = 'ObjectChanged';
  }
}

export interface FileStore {
  get(key: string, opts?: GetOptions): Promise<StoredObject>;
  head(key: string): Promise<{ etag: string; size: number } | undefined>;
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  getJson<T>(key: string): Promise<T | undefined>;
  putJson(key: string, value: unknown): Promise<void>;
  deletePrefix(prefix: string): Promise<void>;
  delete(keys: string[]): Promise<void>;
  presignPut(key: string, contentType: string, expiresInSeconds: number, bind?: PutBinding): Promise<string>;
  presignGet(key: string, expiresInSeconds: number): Promise<string>;
  bucket(): string;
}

/** A file problem the user can read; the document ends in `failed` with this message. */
export class DocumentProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DocumentProblem';
  }
}

export interface RenderedPage {
  jpeg: Uint8Array;
  width: number;
  height: number;
}

export interface PageRenderer {
  /** The image upright (EXIF orientation applied) as a JPEG; DocumentProblem for bombs, tiny or broken images. */
  renderImage(bytes: Uint8Array): Promise<RenderedPage>;
  /**
   * Every page of a PDF as a JPEG; DocumentProblem for broken, protected or oversized PDFs. With `onPage`, each
   * page is handed over as soon as it is rendered and not kept (the result is then empty): one page in memory at a time.
   */
  renderPdf(bytes: Uint8Array, onPage?: (page: RenderedPage, index: number) => Promise<void>): Promise<RenderedPage[]>;
  /** The first `maxPages` pages of a PDF as a PDF of their own, and how many pages it had (the same bytes when it fits). */
  firstPages(bytes: Uint8Array, maxPages: number): Promise<{ bytes: Uint8Array; total: number }>;
  /** One single-page PDF per page; null when it has more than maxPages; DocumentProblem when the PDF cannot be read. */
  splitPdf(bytes: Uint8Array, maxPages: number): Promise<Uint8Array[] | null>;
}

/** An office file as PDF, or why there is none (no converter installed, the conversion failed). */
export type OfficeConversion = { pdf: Uint8Array } | { pdf: null; reason: string };

/**
 * Office files (docx, xlsx, odt, …) converted to PDF, for page images and exact word positions (LibreOffice
 * where it is installed). Never throws for a file it cannot convert: the document is then recognised from
 * its text and keeps the note that no preview could be made.
 */
export interface OfficeConverter {
  toPdf(bytes: Uint8Array, fileName: string): Promise<OfficeConversion>;
}
