/**
 * What the XLSX/XLS import needs from storage: the import record (one per GET /upload/import) and the
 * rejected rows of each chunk. The DynamoDB adapter is lambdas/adapters/ddb/imports-store.ts.
 */
import type { ImportType } from '../../../../shared/schemas/master-data';
import type { RejectedRow } from './rows';

export type ImportStatus = 'pending' | 'processing' | 'done' | 'failed';

export interface ImportRecord {
  import_id: string;
  company_id: string;
  upload_type: ImportType;
  status: ImportStatus;
  /** The S3 key the workbook is uploaded to (imports/…). */
  key: string;
  content_type: string;
  original_file_name: string;
  created_by: string;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
  /** Why the whole file was refused, or why the import stopped. */
  message: string | null;
  /** Non-blank data rows of the sheet (known once the file was read). */
  total_rows: number;
  created: number;
  updated: number;
  /** Rows whose values the record already held (absent on imports stored before it was counted). */
  unchanged?: number;
  rejected_count: number;
  /** Progress: data rows (0-based, blank rows left out) before this one are applied and counted. */
  next_row: number;
  /** ETag of the object being imported: a later upload to the same key is not mixed into this import. */
  source_etag: string | null;
}

/** What one chunk of rows did; committed together with the progress. */
export interface ChunkResult {
  from: number;
  to: number;
  created: number;
  updated: number;
  unchanged: number;
  rejected: RejectedRow[];
}

export interface ImportsStore {
  create(record: ImportRecord): Promise<void>;
  get(importId: string): Promise<ImportRecord | undefined>;
  /** Rejected rows of the import, in sheet order. */
  rejectedRows(importId: string): Promise<RejectedRow[]>;
  /**
   * pending → processing for this object (or a retry of the same object: processing with the same etag);
   * the record as it is now, or undefined when the import belongs to another object or has ended.
   */
  start(importId: string, etag: string, totalRows: number, nowIso: string): Promise<ImportRecord | undefined>;
  /** Adds a chunk's counts and rejected rows and moves next_row from `from` to `to`; false when next_row was not `from`. */
  commitChunk(importId: string, chunk: ChunkResult, nowIso: string): Promise<boolean>;
  /** Ends the import (done, or failed with the message) unless it has already ended. */
  finish(importId: string, status: 'done' | 'failed', message: string | null, nowIso: string): Promise<void>;
}
