/** Records of the documents domain (receipts and invoices) as the store keeps them. */
import type { ReceiptStatus } from '../../../shared/status';
import type { ReceiptType } from '../../../shared/schemas/receipts';

export type { ReceiptStatus, ReceiptType };

/**
 * Where a document lives: a company (`C#<companyId>`), or, for documents uploaded in the
 * all-companies view and not yet given a company, its owner (`U#<userId>`).
 */
export type ScopeKey = `C#${string}` | `U#${string}`;

export const companyScope = (companyId: string): ScopeKey => `C#${companyId}`;
export const userScope = (userId: string): ScopeKey => `U#${userId}`;
export function scopeCompanyId(scope: ScopeKey): string | null {
  return scope.startsWith('C#') ? scope.slice(2) : null;
}
export function scopeUserId(scope: ScopeKey): string | null {
  return scope.startsWith('U#') ? scope.slice(2) : null;
}

export type UploadMode = 'single' | 'multiple';

export interface PersonName {
  name: string;
  surname: string;
}

export interface SourceFile {
  /** S3 key of the bytes this document is recognised from. */
  key: string;
  mime: string;
  size: number;
  /** sha256 of the uploaded file (the whole upload, also for pages split from it). */
  sha256: string;
  /** What "same file" duplicates are found by: the sha256, or `<sha256>#p<n>` for a page split from a PDF. */
  file_hash: string;
  etag: string;
  /** Detected kind after the content check. */
  kind: 'image' | 'pdf' | 'office';
}

export interface PageRecord {
  page: number;
  /** Original file name the page came from. */
  document: string;
  /** S3 key of the rendered JPEG, null when the page could not be rendered. */
  image_key: string | null;
  status: 'processed' | 'not_processed' | 'pending';
  width: number | null;
  height: number | null;
}

export interface DocumentRecord {
  receipt_id: string;
  scope: ScopeKey;
  company_id: string | null;
  company_name: string;
  company_code: string;
  user_id: string;
  user: PersonName;
  receipt_type: ReceiptType;
  status: ReceiptStatus;
  flag: boolean;
  notes: string;
  category: string | null;
  original_file_name: string;
  email_id: string | null;
  /** The first document of the company with the same file (sha256), when this one is a copy. */
  duplicate_id: string | null;
  stakeholder_id: string | null;
  // Master data: the category chosen on the edit screen or taken from the matched stakeholder (its name is
  // in `category`), its id in the integration it was imported from, and the stakeholder's date format.
  category_id?: string | null;
  external_category_id?: string | null;
  stakeholder_date_format?: string | null;
  /** Supplier (receipt) or customer (invoice) name as recognised or edited. */
  counterparty_name: string;
  /**
   * The supplier's (receipt) or customer's (invoice) company code and VAT ID as recognised or edited: the content's
   * `<kind>_code` and `<kind>_vat_id` (core/content contentSummary), kept on the record for the search index
   * (search.ts). Missing on documents written before search index version 4 until the backfill (S3) sets them, and
   * on documents not read yet.
   */
  counterparty_code?: string;
  counterparty_vat_id?: string;
  document_number: string;
  issue_date: string | null;
  total: string | null;
  currency: string | null;
  /** Lower-case, accent-free text the list's search_value is matched against. */
  search_text: string;
  /** Digest of counterparty + document number + total, for duplicate look-ups; null until recognised. */
  key_digest: string | null;
  /**
   * A document of the scope uploaded before this one held the same key when this one's key was last set
   * (recognition, a content save, a type change): a copy of the same document, marked Duplicate and listed by the
   * list's Duplicates beside the same-file copies (`duplicate_id`); the earliest is the original. Checked again
   * where it is shown (the other may be gone or changed since). Absent: no.
   */
  same_document?: boolean;
  can_be_restarted: boolean;
  error_message: string | null;
  created_at: string;
  updated_at: string;
  version: number;
  upload_id: string | null;
  mode: UploadMode;
  /** For documents split from one PDF: the 1-based page of the upload. */
  split_page: number | null;
  upload_type: string | null;
  process_rows: boolean;
  source: SourceFile | null;
  pages: PageRecord[];
  /** S3 key of the content JSON (core/content's format); a new key per write, so a committed record always points at complete content. */
  content_key: string | null;
  /** S3 key of the OCR word and line boxes per page (core/content's PageBoxes[]). */
  boxes_key: string | null;
  related_documents: { receipt_id: string; original_file_name: string }[];
  /** Month whose usage this document was charged to (null: not charged, e.g. unassigned). */
  charged_month: string | null;
  /** Incremented by every restart; the processing job only acts on the token it was started for. */
  processing_run: number;
}

export interface HistoryRecord {
  id: string;
  receipt_id: string;
  date: string;
  name: string;
  user_id: string | null;
  user: PersonName;
}

export type UploadState = 'pending' | 'released' | 'consumed';

export interface UploadRecord {
  upload_id: string;
  key: string;
  scope: ScopeKey;
  company_id: string | null;
  company_name: string;
  company_code: string;
  owner_id: string;
  owner: PersonName;
  created_by: string;
  created_by_name: PersonName;
  receipt_type: ReceiptType;
  mode: UploadMode;
  upload_type: string | null;
  notes: string;
  receipt_id: string | null;
  category: string | null;
  original_file_name: string;
  content_type: string;
  declared_size: number;
  process_rows: boolean;
  /** Month the quota was reserved in. */
  month: string | null;
  state: UploadState;
  created_at: string;
  /** After this the reservation may be released (the presigned URL has expired long before). */
  expires_at: string;
  document_ids: string[];
  /** Email-in: the email record the attachment came with (set on the documents it becomes). */
  email_id?: string | null;
  /**
   * The user whose count of outstanding reservations this pending upload holds (GET /upload/document in a
   * company); the count is given back when the upload leaves `pending` (consumed or released).
   */
  held_by?: string | null;
}

/** One change of a status-count item: ADD delta to the status's number. */
export interface CountDelta {
  scope: ScopeKey;
  receipt_type: ReceiptType;
  status: ReceiptStatus;
  delta: number;
}

/**
 * A change of the month's usage item. `quota_taken` (= used + reserved) is the one number the
 * quota condition compares; `limit` is the highest value it may have before the change.
 */
export interface UsageDelta {
  companyId: string;
  month: string;
  quota_taken: number;
  used_documents: number;
  reserved_documents: number;
  duplicated_documents: number;
  /** Condition: quota_taken (missing = 0) <= limit before the change. Absent: unconditional. */
  limit?: number;
  /**
   * The company's monthly quota `limit` was worked out from, given with it: the usage item keeps it as the month's
   * `available_documents`, so a month that is over still shows the quota it was counted against.
   */
  quota?: number;
  /**
   * Condition: every counter this change lowers holds at least what it takes off (missing = 0), so a give-back never
   * makes one negative (the platform admin's reset may have zeroed the month since the charge).
   */
  notBelowZero?: boolean;
}

export type MarkerKind = 'hash' | 'key';
export interface Marker {
  kind: MarkerKind;
  scope: ScopeKey;
  value: string;
  receipt_id: string;
}

/**
 * Everything one user action or processing step changes, committed atomically
 * (one DynamoDB TransactWriteItems): documents, status counts, usage, markers, history.
 */
export interface DocumentChange {
  puts: DocumentRecord[];
  updates: { before: DocumentRecord; after: DocumentRecord }[];
  deletes: DocumentRecord[];
  counts: CountDelta[];
  usage?: UsageDelta;
  upload?: { upload: UploadRecord; to: UploadState; document_ids?: string[] };
  markers: { put: Marker[]; delete: Marker[] };
  history: HistoryRecord[];
  /** What each document this change deletes leaves to remove after it (leftovers.ts), kept with the change. */
  leftovers?: DocumentLeftovers[];
}

/**
 * What a deleted document leaves behind its transaction: its history and export markers (under `DOC#<id>`), the
 * files it alone held, and, for a deleted cost document, the supplier layouts learnt from it (C6). An unassigned
 * document given a company leaves its history to be moved to its new id. Written in the
 * delete's own transaction and dropped once all of it is removed, so a removal that failed is finished later by the
 * sweeper instead of being left for ever.
 */
export interface DocumentLeftovers {
  receipt_id: string;
  deleted_at: string;
  /** S3 keys of the objects only this document held. */
  files: string[];
  /** S3 prefixes of its own objects (`documents/<id>/`). */
  prefixes: string[];
  /** The deleted cost document as the forgetting of its learnt layouts needs it; absent when nothing is to be forgotten. */
  taught?: TaughtBy;
  /** A document given a company (a new id in that company): the id its history moves to, copied there before it is removed. */
  history_to?: string;
  /** Set by a sweep that failed to remove them: the next sweeps take them on after this time, behind the others. */
  retry_at?: string;
  /** Sweeps that failed to remove them. */
  attempts?: number;
}

/** What forgetting the layouts a document taught needs of it: its id, type, company and supplier as the record has them. */
export type TaughtBy = Pick<DocumentRecord, 'receipt_id' | 'receipt_type' | 'company_id' | 'counterparty_name' | 'counterparty_code' | 'counterparty_vat_id'>;

export function emptyChange(): DocumentChange {
  return { puts: [], updates: [], deletes: [], counts: [], markers: { put: [], delete: [] }, history: [] };
}
