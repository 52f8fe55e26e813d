/**
 * XLSX/XLS import of master data (issue: suppliers, customers, categories, items):
 * GET /upload/import records a pending import and hands out a presigned PUT to imports/<import_id>; the
 * object-created notification runs the import job (runImport), which checks the object's size and type,
 * reads the first sheet, finds the header row, validates every row and applies the rows in chunks, storing
 * after each chunk the progress together with the chunk's counts, so a retried message resumes where the
 * last one stopped and counts nothing twice. GET /upload/import/{id} reports the result.
 */
import { XLSX_MAX_BYTES } from '../../../../shared/constants';
import { AppError, forbidden, notFound } from '../../../../shared/errors';
import type { ImportResult, ImportType } from '../../../../shared/schemas/master-data';
import type { FileStore } from '../../documents/ports';
import type { Clock, IdGenerator } from '../../ports';
import type { MasterDataStore } from '../ports';
import { applyRow, CategoryResolver, independentGroups, inParallel, type RowOutcome } from './apply';
import type { ImportRecord, ImportsStore } from './ports';
import { parseRow, planSheet, rejectRepeatedRows, type RejectedRow, type SheetPlan } from './rows';
import { readWorkbook, WorkbookProblem } from './workbook';

/** Where uploaded workbooks go; the bucket notification for this prefix starts the import job. */
export const IMPORT_PREFIX = 'imports/';
/** The presigned PUT URL is valid this long. */
export const IMPORT_URL_SECONDS = 15 * 60;
/** Rows applied between two progress records. */
export const IMPORT_CHUNK_ROWS = 100;
/** Rows written at the same time within a chunk. */
export const IMPORT_ROW_CONCURRENCY = 8;
/** Deliveries of one job message before it goes to the dead-letter queue (CDK maxReceiveCount, local queue). */
export const IMPORT_MAX_RECEIVES = 5;
/** A chunk is not started with less time than this left in the invocation: the retry resumes instead. */
export const IMPORT_SAFETY_MS = 30_000;

export const IMPORT_MSG = {
  tooLarge: 'The file is larger than 10 MB',
  noRows: 'The sheet has no rows under the header',
  stopped: (rowsDone: string) => `The import stopped before it finished; ${rowsDone}. Import the file again to finish it.`,
} as const;

export interface ImportDeps {
  imports: ImportsStore;
  files: FileStore;
  clock: Clock;
  ids: IdGenerator;
}

export interface ImportJobDeps extends ImportDeps {
  masterData: MasterDataStore;
  /** Called once when an import of the company has changed its master data. */
  onChanged?: (companyId: string, type: ImportType, importId: string) => Promise<void>;
  log?: { info(message: string, data?: Record<string, unknown>): void };
}

export function importKey(importId: string): string {
  return `${IMPORT_PREFIX}${importId}`;
}

/** The import id of an object key, or undefined for a key that is not an import upload. */
export function importIdOfKey(key: string): string | undefined {
  if (!key.startsWith(IMPORT_PREFIX)) return undefined;
  const id = key.slice(IMPORT_PREFIX.length);
  return /^[0-9A-Za-z]{1,64}$/.test(id) ? id : undefined;
}

// ------------------------------------------------------------------ GET /upload/import

export interface ImportUploadRequest {
  upload_type: ImportType;
  content_type: string;
  /** The file's size in bytes (1 … XLSX_MAX_BYTES): signed into the URL, S3 refuses any other length. */
  size: number;
  original_file_name?: string;
}

export interface ImportUploadResponse {
  uploadURL: string;
  import_id: string;
  /** Headers the PUT must send (content type and If-None-Match are part of the signature). */
  headers: Record<string, string>;
}

/** 422 for a declared size the import would refuse: nothing is recorded and no URL is signed. */
function assertImportSize(size: number): void {
  const message = !Number.isInteger(size) || size <= 0 ? 'The file is empty' : size > XLSX_MAX_BYTES ? IMPORT_MSG.tooLarge : null;
  if (message) throw new AppError('ValidationFailed', message, [{ path: ['size'], message }]);
}

export async function requestImportUpload(
  deps: ImportDeps,
  caller: { userId: string; companyId?: string },
  query: ImportUploadRequest,
): Promise<ImportUploadResponse> {
  if (!caller.companyId) throw forbidden('You are not a member of this company');
  assertImportSize(query.size);
  const importId = deps.ids.newId();
  const key = importKey(importId);
  const now = deps.clock.now().toISOString();
  await deps.imports.create({
    import_id: importId,
    company_id: caller.companyId,
    upload_type: query.upload_type,
    status: 'pending',
    key,
    content_type: query.content_type,
    original_file_name: query.original_file_name?.trim() ?? '',
    created_by: caller.userId,
    created_at: now,
    updated_at: now,
    finished_at: null,
    message: null,
    total_rows: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    rejected_count: 0,
    next_row: 0,
    source_etag: null,
  });
  // Like a document upload's URL: exactly the declared length, and only where no object is (a second PUT gets
  // 412 while the file is there; one after the import ended is deleted by the job unread).
  const uploadURL = await deps.files.presignPut(key, query.content_type, IMPORT_URL_SECONDS, { contentLength: query.size, writeOnce: true });
  return { uploadURL, import_id: importId, headers: { 'content-type': query.content_type, 'if-none-match': '*' } };
}

// ------------------------------------------------------------------ GET /upload/import/{id}

export async function getImportResult(deps: Pick<ImportDeps, 'imports'>, caller: { companyId?: string }, importId: string): Promise<ImportResult> {
  const record = await deps.imports.get(importId);
  // Another company's import is answered as if it did not exist.
  if (!record || !caller.companyId || record.company_id !== caller.companyId) throw notFound('Import not found');
  const rejected = record.rejected_count > 0 ? await deps.imports.rejectedRows(importId) : [];
  return {
    import_id: record.import_id,
    upload_type: record.upload_type,
    status: record.status,
    message: record.message,
    total_rows: record.total_rows,
    created: record.created,
    updated: record.updated,
    unchanged: record.unchanged ?? 0,
    rejected,
    original_file_name: record.original_file_name,
    created_at: record.created_at,
    finished_at: record.finished_at,
  };
}

// ------------------------------------------------------------------ the job

/** Thrown when too little time is left to start another chunk: the message is retried and resumes. */
export class ImportPaused extends Error {
  constructor(readonly importId: string) {
    super(`import ${importId} paused for lack of time`);
    this.name = 'ImportPaused';
  }
}

export interface RunOptions {
  /** The last delivery of the message: a failure ends the import instead of waiting for a retry. */
  final?: boolean;
  /** Milliseconds left in this invocation. */
  remainingMs?: () => number;
}

function rowsDoneText(plan: SheetPlan | undefined, nextRow: number): string {
  if (!plan || nextRow === 0) return 'no row was imported';
  return `rows up to sheet row ${plan.rows[nextRow - 1]!.row} were imported`;
}

/** Imports the workbook uploaded to `key` (the job's work for one object-created notification). */
export async function runImport(deps: ImportJobDeps, key: string, options: RunOptions = {}): Promise<void> {
  const importId = importIdOfKey(key);
  if (!importId) return;
  const record = await deps.imports.get(importId);
  // An object of an import that has ended (a PUT after the import deleted its file), or of no import: not read, deleted.
  if (!record || record.status === 'done' || record.status === 'failed') return deps.files.delete([key]);
  const now = () => deps.clock.now().toISOString();
  const head = await deps.files.head(key);
  if (!head) return;
  if (record.status === 'processing' && record.source_etag !== head.etag) return;
  const refuse = async (message: string) => {
    // Only a file that has not started may be refused as a whole: nothing was changed.
    if (record.status === 'pending') await deps.imports.finish(importId, 'failed', message, now());
    await deps.files.delete([key]);
  };
  // The size from the object's metadata, before anything is read.
  if (head.size > XLSX_MAX_BYTES) return refuse(IMPORT_MSG.tooLarge);

  let plan: SheetPlan | undefined;
  let current: ImportRecord | undefined = record;
  try {
    const object = await deps.files.get(key);
    if (object.etag && object.etag !== head.etag) return; // replaced meanwhile: its own notification follows
    if (object.bytes.length > XLSX_MAX_BYTES) return refuse(IMPORT_MSG.tooLarge);
    let sheet: ReturnType<typeof readWorkbook>;
    try {
      sheet = readWorkbook(object.bytes);
    } catch (error) {
      if (error instanceof WorkbookProblem) return refuse(error.message);
      throw error;
    }
    const planned = planSheet(record.upload_type, sheet.rows, sheet.firstRow);
    if ('message' in planned) return refuse(planned.message);
    if (planned.rows.length === 0) return refuse(IMPORT_MSG.noRows);
    plan = planned;

    current = await deps.imports.start(importId, head.etag, plan.rows.length, now());
    if (!current) return;
    const categories = new CategoryResolver(deps.masterData, record.company_id);
    const uploadType = record.upload_type;
    const parsedRows = rejectRepeatedRows(plan.rows.map((r) => parseRow(uploadType, r.row, r.cells, planned.columns)));
    let changed = false;
    for (let from = current.next_row; from < plan.rows.length; from += IMPORT_CHUNK_ROWS) {
      if (options.remainingMs && options.remainingMs() < IMPORT_SAFETY_MS) throw new ImportPaused(importId);
      const to = Math.min(from + IMPORT_CHUNK_ROWS, plan.rows.length);
      const parsed = parsedRows.slice(from, to);
      const outcomes: RowOutcome[] = [];
      await inParallel(independentGroups(parsed), IMPORT_ROW_CONCURRENCY, async (group) => {
        for (const row of group) outcomes.push(await applyRow(deps, record.company_id, record.upload_type, row, categories));
      });
      const rejected: RejectedRow[] = outcomes
        .filter((o): o is Extract<RowOutcome, { outcome: 'rejected' }> => o.outcome === 'rejected')
        .map((o) => ({ row: o.row, reason: o.reason }))
        .sort((a, b) => a.row - b.row);
      const created = outcomes.filter((o) => o.outcome === 'created').length;
      const updated = outcomes.filter((o) => o.outcome === 'updated').length;
      const unchanged = outcomes.filter((o) => o.outcome === 'unchanged').length;
      changed ||= created + updated > 0;
      // Counts and progress in one write: a retry resumes at `to` and never counts these rows again.
      if (!(await deps.imports.commitChunk(importId, { from, to, created, updated, unchanged, rejected }, now()))) return;
      current = { ...current, next_row: to };
    }
    await deps.imports.finish(importId, 'done', null, now());
    await deps.files.delete([key]);
    deps.log?.info('import done', { importId, rows: plan.rows.length });
    if (changed || current.created + current.updated > 0) await deps.onChanged?.(record.company_id, record.upload_type, importId);
  } catch (error) {
    if (options.final) {
      const latest = (await deps.imports.get(importId)) ?? current;
      await deps.imports.finish(importId, 'failed', IMPORT_MSG.stopped(rowsDoneText(plan, latest?.next_row ?? 0)), now());
      await deps.files.delete([key]);
      if (latest && latest.next_row > 0) await deps.onChanged?.(record.company_id, record.upload_type, importId);
      return;
    }
    throw error;
  }
}
