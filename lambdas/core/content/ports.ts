/**
 * What the content service needs from the outside. The documents side (records, access checks, versions,
 * history, live events) is the documents domain's; `DocumentsAccess` is the narrow view of it this service
 * uses, wired in the handler's deps to the documents store.
 */
import type { Grid } from '../../../shared/schemas/content';
import type { DocumentRecord } from '../documents/types';
import type { PageBoxes } from './build';
import type { SchemaOverrides } from './schema';
import type { ContentDocument } from './tree';

export interface ContentCaller {
  userId: string;
  companyId?: string;
}

/** The JSON stored at a document's content_key. */
export interface StoredContent {
  format: 'content/v1';
  items: ContentDocument['items'];
  seq: number;
}

export interface DocumentsAccess {
  /** The document, if the caller may see it (else 404, also for another company's document). */
  load(caller: ContentCaller, receiptId: string): Promise<DocumentRecord>;
  /**
   * Commits new content of a document: the record points at `contentKey` and its summary fields follow the
   * content, if its stored version is still `before.version` (else 409 with the current version); the version
   * goes up by one, a history entry named `historyName` is written in the same transaction and a
   * receipt-update event is published. Returns the record as stored.
   */
  saveContent(input: {
    caller: ContentCaller;
    before: DocumentRecord;
    contentKey: string;
    content: ContentDocument;
    historyName: string;
    /** The document leaves `ready` for review with this save (its counts move in the same transaction). */
    backToReview?: boolean;
  }): Promise<DocumentRecord>;
  /** Documents by id that the caller may see, for exports; others are left out. */
  loadMany(caller: ContentCaller, receiptIds: string[]): Promise<DocumentRecord[]>;
  /** A URL the browser can show the page image from, or null. */
  pageUrl?(record: DocumentRecord, page: number): Promise<string | null>;
}

export interface ContentBlobs {
  /** The JSON at a content key (undefined when missing). */
  readContent(key: string): Promise<unknown>;
  /** Writes content under a new key for this document and returns the key. */
  writeContent(record: DocumentRecord, content: StoredContent): Promise<string>;
  readBoxes(record: DocumentRecord): Promise<PageBoxes[] | undefined>;
  writeBoxes(record: DocumentRecord, boxes: PageBoxes[]): Promise<void>;
}

export interface GridTemplate {
  key: string;
  grid: Grid;
  updated_at: string;
  updated_by: string;
  source_receipt_id: string;
}

export interface ContentSettings {
  getSchemaOverrides(companyId: string): Promise<SchemaOverrides>;
  /** The overrides with their version (0 while none were written), read for a change (C1, consistent). */
  readSchemaOverrides(companyId: string): Promise<{ overrides: SchemaOverrides; version: number }>;
  /**
   * C5: writes the overrides as version `version + 1`, only while the stored version is still `version`;
   * false (nothing written) when another change came first.
   */
  putSchemaOverrides(companyId: string, overrides: SchemaOverrides, meta: { updated_by: string; updated_at: string }, version: number): Promise<boolean>;
  getGridTemplate(companyId: string, key: string): Promise<GridTemplate | undefined>;
  putGridTemplate(companyId: string, template: GridTemplate): Promise<void>;
  /** The company's name and code as they are now (a document keeps those of its upload; Settings may have changed them). */
  getCompany(companyId: string): Promise<{ name: string; code: string } | undefined>;
}

export interface ContentPorts {
  documents: DocumentsAccess;
  blobs: ContentBlobs;
  settings: ContentSettings;
  clock: { now(): Date };
  /** Font files for PDF exports (regular and bold TrueType), when available. */
  fonts?: () => Promise<{ regular?: Uint8Array; bold?: Uint8Array }>;
}
