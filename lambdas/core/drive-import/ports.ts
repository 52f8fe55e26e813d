/**
 * What the Google Drive and Dropbox imports need from the outside world (adapters in lambdas/adapters/drive and
 * lambdas/adapters/ddb/drive-store.ts). Core never imports an adapter or an SDK.
 */
import type { DriveService, DriveSkippedFile } from '../../../shared/schemas/drive';
import type { SealedSecret } from '../integrations/ports';

/** The grant of one company on one service, sealed in the credentials store. */
export interface DriveTokens {
  access_token: string;
  refresh_token: string | null;
  /** ISO time the access token stops working; null when the provider did not say. */
  expires_at: string | null;
}

export interface DriveFolder {
  id: string;
  name: string;
}

/** A file that appeared or changed in the watched folder. */
export interface DriveFile {
  id: string;
  /** The content's revision (Drive headRevisionId or md5Checksum, Dropbox content_hash): a rename keeps it. */
  revision: string;
  name: string;
  size: number;
  mime_type?: string;
}

export interface DriveChanges {
  files: DriveFile[];
  cursor: string;
  /** More changes wait behind `cursor`. */
  more: boolean;
}

/** The provider refused the grant (revoked, expired refresh token, deleted app): the import is switched off. */
export class DriveAuthError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DriveAuthError';
  }
}

/**
 * A provider call failed for another reason (network, 5xx, not found). `fileRefused`: the provider will not hand
 * over this one file (Google's files flagged as abusive or with downloading switched off), whatever the retries.
 */
export class DriveCallError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly fileRefused = false,
  ) {
    super(message);
    this.name = 'DriveCallError';
  }
}

/**
 * The provider no longer accepts the stored change cursor (Dropbox answers list_folder/continue with `reset`): the
 * folder can only be read again from a new start cursor.
 */
export class DriveCursorExpired extends DriveCallError {
  constructor(message: string) {
    super(message, 409);
    this.name = 'DriveCursorExpired';
  }
}

/**
 * A download that no retry will make: the file is gone (404, 410), refused by its kind (Dropbox answers 409 for a
 * path's own errors: not found, restricted content, unsupported file) or by the provider (`fileRefused`).
 */
export function fileCannotBeDownloaded(error: unknown): error is DriveCallError {
  return error instanceof DriveCallError && (error.fileRefused || error.status === 404 || error.status === 409 || error.status === 410);
}

/** One grant's calls; refreshes the access token by itself and tells through `tokens()` what it holds now. */
export interface DriveSession {
  folder(id: string): Promise<DriveFolder | undefined>;
  listFolders(next?: string): Promise<{ items: DriveFolder[]; next: string | null }>;
  /** The cursor from which changes are reported (files already in the folder are not imported). */
  startCursor(folderId: string): Promise<string>;
  changes(folderId: string, cursor: string): Promise<DriveChanges>;
  download(file: DriveFile): Promise<Uint8Array>;
  revoke(): Promise<void>;
  tokens(): DriveTokens;
}

export interface DriveProvider {
  /** The authorisation URL (PKCE S256 where the provider takes it); the verifier is kept with the state. */
  authorizationUrl(input: { redirectUri: string; state: string }): Promise<{ url: string; codeVerifier: string }>;
  exchangeCode(input: { code: string; redirectUri: string; codeVerifier: string }): Promise<DriveTokens>;
  session(tokens: DriveTokens): DriveSession;
}

export type DriveProviders = Record<DriveService, DriveProvider>;

/** An OAuth state handed out by drive/switch: stored by the SHA-256 of the state, taken once. */
export interface OAuthStateRecord {
  state_hash: string;
  company_id: string;
  user_id: string;
  service: DriveService;
  /** The PKCE verifier, sealed with the state hash as context. */
  verifier: SealedSecret;
  created_at: string;
  expires_at: string;
}

/** A folder whose import was paused by a refused grant, with the position its next read starts from. */
export interface DrivePausedFolder {
  folder_id: string;
  folder_name: string;
  cursor: string;
  /** When the grant was found refused. */
  since: string;
}

/** The import of one service of one company (not secret: the grant lives in the credentials store). */
export interface DriveImportRecord {
  company_id: string;
  service: DriveService;
  /** The admin who connected: documents are theirs (the company owner's when they left). */
  user_id: string;
  connected_at: string;
  folder_id: string | null;
  folder_name: string | null;
  /** Where the next run reads changes from. */
  cursor: string | null;
  last_run_at: string | null;
  last_imported: number;
  total_imported: number;
  last_error: string | null;
  /** Files that did not become documents, newest first (absent on imports stored before it was kept). */
  skipped_files?: DriveSkippedFile[];
  /**
   * How many files of the folder did not become documents since it was chosen: an exact count, added with the
   * cursor of each page (`skipped_files` keeps only the newest names). Absent on imports stored before it was kept.
   */
  skipped_total?: number;
  /**
   * The folder and read position kept while the provider refuses the grant (revoked, expired, refresh refused):
   * the import is paused, not watched by the schedule; reconnecting resumes there. Null or absent otherwise.
   */
  paused?: DrivePausedFolder | null;
  /** A run holds the import until this time (a second run finds it held and does nothing). */
  lease_until: string | null;
  lease_id: string | null;
}

export interface DriveStore {
  putState(record: OAuthStateRecord): Promise<void>;
  /** Deletes and answers the state; undefined when it was never handed out or is already taken. */
  takeState(stateHash: string): Promise<OAuthStateRecord | undefined>;
  getImport(companyId: string, service: DriveService): Promise<DriveImportRecord | undefined>;
  /** Writes the whole record; `active` lists it for the schedule (a folder is chosen). */
  putImport(record: DriveImportRecord): Promise<void>;
  deleteImport(companyId: string, service: DriveService): Promise<void>;
  /** Imports with a folder, for the schedule. */
  listActive(limit: number, next?: string): Promise<{ items: { company_id: string; service: DriveService }[]; next?: string }>;
  /** Takes the lease when it is free or ran out; false when another run holds it. */
  takeLease(companyId: string, service: DriveService, leaseId: string, now: string, until: string): Promise<boolean>;
  /**
   * Moves the cursor past a page, only while the lease is still this run's, adding the page's documents to
   * `total_imported` and its skipped files to `skipped_total` in the same write (a page read again adds nothing twice).
   */
  saveProgress(companyId: string, service: DriveService, leaseId: string, cursor: string, imported: number, skipped: number): Promise<boolean>;
  /** Records the run's outcome and frees the lease. */
  finishRun(
    companyId: string,
    service: DriveService,
    leaseId: string,
    outcome: { at: string; imported: number; error: string | null; skipped_files: DriveSkippedFile[] },
  ): Promise<void>;
  /** Sets the company's flag and selected folder name. */
  setCompanyDrive(companyId: string, service: DriveService, enabled: boolean, folderName: string | null): Promise<void>;
}
