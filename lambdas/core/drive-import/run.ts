/**
 * The scheduled run of the Google Drive and Dropbox imports (EventBridge in AWS, a timer in local mode): for each
 * import with a folder, the provider's change cursor (Drive changes.list, Dropbox list_folder/continue) gives the
 * files that appeared since the last run; each one becomes a pending upload whose object is written where an
 * upload's would be, so the processing job creates and recognises the document exactly like an upload.
 *
 * Exactly once per file and revision:
 * - the upload id is derived from company, service, file id and content revision, and the upload is created with a
 *   conditional put (with the quota reservation of an upload), so a second run — concurrent, or after a crash —
 *   finds it and writes nothing new; the object key is the upload's, so a second put of the same bytes names the
 *   same document (document ids come from key + ETag);
 * - a lease on the import record (conditional update) keeps two runs from reading the same changes at once;
 * - the cursor moves forward only after every file of a page is stored, and only while the lease is this run's:
 *   a run that dies half way leaves the cursor where it was, and the next run redoes the page without duplicates.
 *
 * A grant the provider refuses pauses the import with a message (shown on the Integration screen): the folder and
 * its cursor are kept, and reconnecting continues from there.
 */
import { randomUUID } from 'node:crypto';
import { DRIVE_MSG, DRIVE_PRODUCT, DRIVE_SKIPPED_KEPT, type DriveService, type DriveSkippedFile } from '../../../shared/schemas/drive';
import { UPLOAD_MSG } from '../../../shared/schemas/receipts';
import { monthOf } from '../accounts/companies';
import type { CompanyRecord } from '../accounts/types';
import { digest, documentIdFor, EXTENSIONS, extensionOf, maxBytesFor, uploadKey } from '../documents/files';
import { CommitConflict, type DocumentsStore, type FileStore } from '../documents/ports';
import { RESERVATION_SECONDS, releaseExpiredReservations, reserveOneDocument } from '../documents/upload';
import { companyScope, type UploadRecord } from '../documents/types';
import type { LiveEvents } from '../ports';
import { DriveAuthError, DriveCursorExpired, fileCannotBeDownloaded, type DriveChanges, type DriveFile, type DriveImportRecord } from './ports';
import { keepRenewedTokens, openTokens, switchOff, tellMembers, type DriveDeps } from './service';

export interface DriveRunDeps extends DriveDeps {
  documents: DocumentsStore;
  files: FileStore;
  live: LiveEvents;
  log: { info(msg: string, data?: Record<string, unknown>): void; warn(msg: string, data?: Record<string, unknown>): void };
}

/** How long one run may hold an import; a run that died frees it after this. */
export const LEASE_SECONDS = 5 * 60;
/** Change pages read per import and run (bounded work; the rest waits for the next run). */
export const MAX_PAGES_PER_RUN = 20;
/** Imports listed per page of the schedule's query. */
const ACTIVE_PAGE = 100;
/** Shown as the upload's type: where the document came from. */
export const DRIVE_UPLOAD_TYPE: Record<DriveService, string> = { google: 'google_drive', dropbox: 'dropbox' };

export interface RunOutcome {
  company_id: string;
  service: DriveService;
  imported: number;
  skipped: number;
  state: 'done' | 'busy' | 'off' | 'failed' | 'no-folder';
  error?: string;
}

/** One schedule tick: every import with a folder, one after the other. */
export async function runDriveImports(deps: DriveRunDeps): Promise<RunOutcome[]> {
  const outcomes: RunOutcome[] = [];
  let next: string | undefined;
  do {
    const page = await deps.drive.listActive(ACTIVE_PAGE, next);
    for (const item of page.items) outcomes.push(await importFolder(deps, item.company_id, item.service));
    next = page.next;
  } while (next);
  return outcomes;
}

export const uploadIdOf = (companyId: string, service: DriveService, file: Pick<DriveFile, 'id' | 'revision'>) => digest(`drive#${service}#${companyId}#${file.id}#${file.revision}`);

/** Files the upload rules take (type by extension, size within the limit); the rest are left in the folder. */
export function acceptable(file: DriveFile): boolean {
  return skipReason(file) === undefined;
}

/** Why the upload rules do not take a file, in the upload's own words; undefined when they take it. */
export function skipReason(file: DriveFile): string | undefined {
  const rule = EXTENSIONS[extensionOf(file.name)];
  if (!rule) return UPLOAD_MSG.typeNotAllowed;
  if (file.size <= 0) return UPLOAD_MSG.empty;
  if (file.size > maxBytesFor(rule.kind)) return rule.kind === 'image' ? UPLOAD_MSG.imageTooBig : UPLOAD_MSG.documentTooBig;
  return undefined;
}

export const DOWNLOAD_REFUSED = 'The file could not be downloaded';

/** One import of one company: reads the changes after its cursor and turns new files into documents. */
export async function importFolder(deps: DriveRunDeps, companyId: string, service: DriveService): Promise<RunOutcome> {
  const base = { company_id: companyId, service, imported: 0, skipped: 0 };
  const record = await deps.drive.getImport(companyId, service);
  if (!record?.folder_id || !record.cursor) return { ...base, state: 'no-folder' };
  // Only admins configure integrations: the connector's grant feeds the company only while they are one (G12)
  const membership = await deps.store.getMembership(record.user_id, companyId);
  if (membership?.role !== 'admin') {
    const why = membership ? NOT_AN_ADMIN : FORMER_MEMBER;
    await endConnectorsImport(deps, companyId, service, why, membership ? DRIVE_MSG.connectorNotAdmin(service) : DRIVE_MSG.connectorLeft(service));
    return { ...base, state: 'off', error: why };
  }
  const now = deps.clock.now();
  const leaseId = randomUUID();
  if (!(await deps.drive.takeLease(companyId, service, leaseId, now.toISOString(), new Date(now.getTime() + LEASE_SECONDS * 1000).toISOString()))) {
    return { ...base, state: 'busy' };
  }
  let imported = 0;
  let skipped = 0;
  // What this run did not take, with why: kept on the import (newest first) for the Integration screen.
  const skippedNow: Array<{ name: string; reason: string }> = [];
  const skippedFiles = (at: string): DriveSkippedFile[] =>
    [...skippedNow.map((f) => ({ ...f, at })), ...(record.skipped_files ?? [])].slice(0, DRIVE_SKIPPED_KEPT);
  try {
    const tokens = await openTokens(deps, companyId, service);
    if (!tokens) throw new DriveAuthError('no stored grant');
    const session = deps.providers[service].session(tokens);
    const company = (await deps.store.getCompanies([companyId]))[0];
    if (!company) return { ...base, state: 'off' };
    const owner = await ownerOf(deps, record);
    let cursor = record.cursor;
    // Set when the provider refused the stored cursor and the folder is read again from a new start cursor
    let notice: string | null = null;
    try {
      for (let page = 0; page < MAX_PAGES_PER_RUN; page += 1) {
        let changes: DriveChanges;
        try {
          changes = await session.changes(record.folder_id, cursor);
        } catch (error) {
          if (!(error instanceof DriveCursorExpired) || notice) throw error;
          // Once a run: what was added between the old place and now cannot be listed any more, and the screen says so
          deps.log.warn('drive cursor refused: read again from now', { company_id: companyId, service, error: error.message });
          const fresh = await session.startCursor(record.folder_id);
          if (!(await deps.drive.saveProgress(companyId, service, leaseId, fresh, 0, 0))) return { ...base, imported, skipped, state: 'busy' };
          cursor = fresh;
          notice = DRIVE_MSG.cursorReset(service);
          continue;
        }
        let pageImported = 0;
        // Counted and named only once the cursor is past the page: a page read again (after a failure or a refused
        // grant half way through it) is not counted twice.
        const pageSkipped: Array<{ name: string; reason: string }> = [];
        if (changes.files.length) await releaseExpiredReservations(deps, companyId);
        for (const file of changes.files) {
          const reason = skipReason(file);
          if (reason) {
            pageSkipped.push({ name: file.name, reason });
            continue;
          }
          try {
            if (await ingest(deps, session, company, owner, service, file)) pageImported += 1;
          } catch (error) {
            // One file the provider will never hand over must not stop the folder: it is skipped and said so.
            if (!fileCannotBeDownloaded(error)) throw error;
            pageSkipped.push({ name: file.name, reason: DOWNLOAD_REFUSED });
            deps.log.warn('drive file cannot be downloaded: skipped', { company_id: companyId, service, file: file.name, error: error.message });
          }
        }
        if (!(await deps.drive.saveProgress(companyId, service, leaseId, changes.cursor, pageImported, pageSkipped.length))) {
          return { ...base, imported: imported + pageImported, skipped, state: 'busy' };
        }
        imported += pageImported;
        skipped += pageSkipped.length;
        skippedNow.push(...pageSkipped);
        cursor = changes.cursor;
        if (!changes.more) break;
      }
    } finally {
      await keepRenewedTokens(deps, companyId, service, tokens, session).catch(() => undefined);
    }
    const at = deps.clock.now().toISOString();
    await deps.drive.finishRun(companyId, service, leaseId, { at, imported, error: notice, skipped_files: skippedFiles(at) });
    if (imported || skipped) deps.log.info('drive import', { company_id: companyId, service, imported, skipped });
    return { ...base, imported, skipped, state: 'done' };
  } catch (error) {
    if (error instanceof DriveAuthError) {
      // Paused: the folder and the cursor of the last page fully read are kept (switchOff with a reason), so a
      // reconnect reads the page that was refused, and everything after it, again.
      deps.log.warn('drive grant refused: import paused', { company_id: companyId, service, error: error.message });
      // The pages read before the refusal are recorded (their documents, their skipped files' names) first.
      const at = deps.clock.now().toISOString();
      await deps.drive.finishRun(companyId, service, leaseId, { at, imported, error: null, skipped_files: skippedFiles(at) });
      await switchOff(deps, companyId, service, { paused: DRIVE_MSG.revoked(service) });
      await tellMembers(deps, companyId);
      return { ...base, imported, skipped, state: 'off', error: error.message };
    }
    const message = `${DRIVE_PRODUCT[service]}: ${error instanceof Error ? error.message : String(error)}`.slice(0, 500);
    deps.log.warn('drive import failed', { company_id: companyId, service, error: message });
    const at = deps.clock.now().toISOString();
    await deps.drive.finishRun(companyId, service, leaseId, { at, imported, error: message, skipped_files: skippedFiles(at) });
    return { ...base, imported, skipped, state: 'failed', error: message };
  }
}

export const FORMER_MEMBER = 'the member who connected the import is no longer a member of the company';
export const NOT_AN_ADMIN = 'the member who connected the import is no longer an administrator of the company';

/**
 * The member who connected the import left the company, or is no longer one of its administrators (removed or
 * lowered to Basic while the route's switch-off failed, or before those switched imports off): their folder must
 * not feed the company. The import is switched off like an admin's switch-off (grant revoked at the provider,
 * grant, folder and flag cleared), with the note for the admins' Integration screen, and nothing is read.
 */
async function endConnectorsImport(deps: DriveRunDeps, companyId: string, service: DriveService, why: string, note: string): Promise<void> {
  deps.log.warn(`drive import switched off: ${why}`, { company_id: companyId, service });
  if (!(await deps.store.getCompanies([companyId]))[0]) {
    // A deleted company's import record: the company's deletion revokes and removes its grants.
    await deps.drive.deleteImport(companyId, service);
    return;
  }
  await switchOff(deps, companyId, service, { note });
  await tellMembers(deps, companyId);
}

interface Owner {
  user_id: string;
  name: { name: string; surname: string };
}

/** The member who connected the import: the documents are theirs (the run checked they are still an admin member). */
async function ownerOf(deps: DriveRunDeps, record: DriveImportRecord): Promise<Owner> {
  const [profile] = await deps.store.getProfiles([record.user_id]);
  return { user_id: record.user_id, name: profile ? { name: profile.name, surname: profile.surname } : { name: '', surname: '' } };
}

/**
 * One file: the upload (created once), then the object; true when this call created the upload. A file whose
 * upload became documents is never taken again, also once those documents were deleted (which deletes the
 * object): a rename or move in the folder reports the same revision again.
 */
async function ingest(deps: DriveRunDeps, session: { download(file: DriveFile): Promise<Uint8Array> }, company: CompanyRecord, owner: Owner, service: DriveService, file: DriveFile): Promise<boolean> {
  const uploadId = uploadIdOf(company.company_id, service, file);
  const existing = await deps.documents.getUpload(uploadId);
  if (existing && (existing.state === 'consumed' || (await deps.files.head(existing.key)))) return false;
  const bytes = await session.download(file);
  const { upload, created } = existing ? { upload: existing, created: false } : await createUpload(deps, company, owner, service, file, uploadId, bytes.length);
  if (!(await deps.files.head(upload.key))) await deps.files.put(upload.key, bytes, upload.content_type);
  const stored = await deps.files.head(upload.key);
  if (!stored) throw new Error(`the object ${upload.key} was not stored`);
  deps.log.info('drive file taken', { company_id: company.company_id, service, upload_id: uploadId, receipt_id: documentIdFor(upload.key, stored.etag, null) });
  return created;
}

async function createUpload(
  deps: DriveRunDeps,
  company: CompanyRecord,
  owner: Owner,
  service: DriveService,
  file: DriveFile,
  uploadId: string,
  size: number,
): Promise<{ upload: UploadRecord; created: boolean }> {
  const now = deps.clock.now();
  const month = monthOf(now);
  const rule = EXTENSIONS[extensionOf(file.name)]!;
  const upload: UploadRecord = {
    upload_id: uploadId,
    key: uploadKey(company.company_id, owner.user_id, uploadId, file.name),
    scope: companyScope(company.company_id),
    company_id: company.company_id,
    company_name: company.name,
    company_code: company.code,
    owner_id: owner.user_id,
    owner: owner.name,
    created_by: owner.user_id,
    created_by_name: owner.name,
    receipt_type: 'receipt',
    mode: 'single',
    upload_type: DRIVE_UPLOAD_TYPE[service],
    notes: '',
    receipt_id: null,
    category: null,
    original_file_name: file.name.slice(0, 255),
    content_type: rule.mime,
    declared_size: size,
    process_rows: true,
    month,
    state: 'pending',
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + RESERVATION_SECONDS * 1000).toISOString(),
    document_ids: [],
  };
  try {
    await deps.documents.putUpload(upload, reserveOneDocument(company.company_id, month, company.available_documents));
    return { upload, created: true };
  } catch (error) {
    if (!(error instanceof CommitConflict)) throw error;
    if (error.reason === 'exists') return { upload: (await deps.documents.getUpload(uploadId))!, created: false };
    if (error.reason !== 'quota') throw error;
  }
  // Over the monthly quota: no reservation; the processing job keeps the file as a failed document with the quota message.
  const unreserved: UploadRecord = { ...upload, state: 'released', month: null };
  try {
    await deps.documents.putUpload(unreserved);
    return { upload: unreserved, created: true };
  } catch (error) {
    if (error instanceof CommitConflict && error.reason === 'exists') return { upload: (await deps.documents.getUpload(uploadId))!, created: false };
    throw error;
  }
}
