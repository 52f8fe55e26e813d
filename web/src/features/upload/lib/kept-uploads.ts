/**
 * Files of the upload pop-up that did not upload when the session ended. RECONNECT signs out and the pop-up goes
 * with the list; the files are kept here, per user (Cognito sub), so that when the same user has signed in again
 * and is back on the list (the path RECONNECT keeps, as for the edit screen's drafts) the pop-up opens again with
 * them ready to try again (components/ResumeUploads.tsx). A File cannot be written to the tab's storage: the Files
 * live in this module, that is in this page load; their names also go to the tab's sessionStorage, so that after
 * a reload (Files gone) the pop-up can at least name the files to choose again. Another user signing in on this
 * tab never sees them.
 */
import type { UploadContext, UploadSettings } from './request';

export const KEPT_UPLOADS_PREFIX = 'receipts.upload-retry.v1';

/** Where a file goes: the company (or the all-companies view) it was chosen for. */
export type UploadTarget = Pick<UploadContext, 'allCompanies' | 'activeCompanyId'>;

export interface KeptUpload {
  name: string;
  size: number;
  /** The card's text when it was kept. */
  message: string;
  file: File;
  settings: UploadSettings;
  target?: UploadTarget;
}

export interface KeptUploads {
  /** Files held in this page load, ready to try again. */
  uploads: KeptUpload[];
  /** Files the tab's storage names but whose File is gone (the page was reloaded): to be chosen again. */
  lostNames: string[];
}

type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** userId → the files kept for that user in this page load. */
const memory = new Map<string, KeptUpload[]>();

export function keptUploadsKey(userId: string): string {
  return [KEPT_UPLOADS_PREFIX, userId].map(encodeURIComponent).join(':');
}

function session(): Store | null {
  try {
    return typeof window !== 'undefined' ? window.sessionStorage : null;
  } catch {
    return null; // storage blocked: the files are kept in this page load only
  }
}

/** The file names the tab's storage keeps for this user ([] when none or unreadable). */
export function readKeptNames(userId: string, store: Store | null): string[] {
  if (!store || !userId) return [];
  try {
    const parsed: unknown = JSON.parse(store.getItem(keptUploadsKey(userId)) ?? 'null');
    const names = (parsed as { names?: unknown } | null)?.names;
    return Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string' && n !== '') : [];
  } catch {
    return [];
  }
}

/** Writes the names (or removes the entry when there are none). Never throws. */
export function writeKeptNames(userId: string, names: ReadonlyArray<string>, store: Store | null): void {
  if (!store || !userId) return;
  try {
    if (names.length === 0) store.removeItem(keptUploadsKey(userId));
    else store.setItem(keptUploadsKey(userId), JSON.stringify({ names, at: Date.now() }));
  } catch {
    // full or blocked storage: the names are not kept
  }
}

/** The names of `stored` that no held file answers (each held file answers one name of its own). */
export function namesWithoutFiles(stored: ReadonlyArray<string>, held: ReadonlyArray<{ name: string }>): string[] {
  const left = [...held.map((h) => h.name)];
  return stored.filter((name) => {
    const i = left.indexOf(name);
    if (i < 0) return true;
    left.splice(i, 1);
    return false;
  });
}

/**
 * Keeps these files for the user (replacing what was kept), with `lostNames` (names shown but not yet seen to)
 * in the tab's storage next to theirs.
 */
export function keepUploads(userId: string, uploads: ReadonlyArray<KeptUpload>, lostNames: ReadonlyArray<string> = [], store: Store | null = session()): void {
  if (!userId) return;
  if (uploads.length) memory.set(userId, [...uploads]);
  else memory.delete(userId);
  writeKeptNames(userId, [...uploads.map((u) => u.name), ...lostNames], store);
}

/** What is kept for the user: the files held in this page load, and the names whose File is gone. */
export function keptUploads(userId: string, store: Store | null = session()): KeptUploads {
  if (!userId) return { uploads: [], lostNames: [] };
  const uploads = memory.get(userId) ?? [];
  return { uploads: [...uploads], lostNames: namesWithoutFiles(readKeptNames(userId, store), uploads) };
}

/** The user has seen to them (closed the pop-up): nothing is kept. */
export function dropKeptUploads(userId: string, store: Store | null = session()): void {
  keepUploads(userId, [], [], store);
}

/** The pop-up's notice for files kept by name only (the page was reloaded since): which to choose again. */
export function lostFilesText(names: ReadonlyArray<string>): string {
  return names.length === 1
    ? `This file was not uploaded before your session ended; please choose it again: ${names[0]}`
    : `These ${names.length} files were not uploaded before your session ended; please choose them again: ${names.join(', ')}`;
}
