/** What the documents domain needs from the outside world; adapters implement it. */
import type { StatusCounts } from '../../../shared/schemas';
import type { StreamReader } from './list';
import type {
  DocumentChange,
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
  getMany(receiptIds: string[]): Promise<DocumentRecord[]>;
  /** Commits the change atomically; throws CommitConflict when a condition fails. */
  commit(change: DocumentChange): Promise<void>;
  history(receiptId: string): Promise<HistoryRecord[]>;
  /** Removes the history items of deleted documents. */
  deleteHistory(receiptId: string): Promise<void>;
  copyHistory(fromReceiptId: string, toReceiptId: string): Promise<void>;
  /** Receipt ids that carry the marker. */
  markers(kind: MarkerKind, scope: ScopeKey, value: string): Promise<string[]>;
  counts(scope: ScopeKey): Promise<Record<ReceiptType, StatusCounts>>;

  /**
   * Stores a pending upload; with `reserve`, takes one document of the month's quota in the same transaction;
   * with `hold` (and `upload.held_by`), also raises that user's count of outstanding reservations in the company,
   * conditionally on `maxOutstanding` (CommitConflict 'held' when over it). The count falls again when the upload
   * leaves `pending` (commit with `change.upload`, releaseUpload).
   */
  putUpload(upload: UploadRecord, reserve?: UsageDelta, hold?: { maxOutstanding: number }): Promise<void>;
  getUpload(uploadId: string): Promise<UploadRecord | undefined>;
  /** Pending uploads of the company whose reservation has expired (bounded). */
  expiredUploads(companyId: string, nowIso: string, limit: number): Promise<UploadRecord[]>;
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

export interface FileStore {
  get(key: string): Promise<StoredObject>;
  head(key: string): Promise<{ etag: string; size: number } | undefined>;
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  getJson<T>(key: string): Promise<T | undefined>;
  putJson(key: string, value: unknown): Promise<void>;
  deletePrefix(prefix: string): Promise<void>;
  delete(keys: string[]): Promise<void>;
  presignPut(key: string, contentType: string, expiresInSeconds: number): Promise<string>;
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
  /** Every page of a PDF as a JPEG; DocumentProblem for broken, protected or oversized PDFs. */
  renderPdf(bytes: Uint8Array): Promise<RenderedPage[]>;
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
