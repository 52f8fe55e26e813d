/** Texts of the Google and Dropbox notes on the Integration screen (DriveImportNote), kept apart to be tested. */
import type { DriveImportStatus } from '../../../../../shared/schemas/drive';

/** Files shown by name; the rest are counted. */
export const SKIPPED_SHOWN = 5;

/**
 * "and N more" under the named skipped files: N from the import's exact count (`skipped_total`), not from the
 * names it keeps (only the newest 20); null when every skipped file is named.
 */
export function moreSkippedText(status: Pick<DriveImportStatus, 'skipped_files' | 'skipped_total'>, shown: number): string | null {
  const total = Math.max(status.skipped_total ?? 0, status.skipped_files.length);
  return total > shown ? `and ${total - shown} more` : null;
}

/**
 * Under a Google or Dropbox toggle whose folder a refused grant paused: the folder kept, and how to continue (off:
 * connect again; on, when the new grant did not find it: choose it again).
 */
export function pausedFolderText(status: Pick<DriveImportStatus, 'paused_folder_name'> | undefined, on: boolean): string | null {
  if (!status?.paused_folder_name) return null;
  const how = on ? 'choose it again in Edit Folder' : 'switch the import on';
  return `Folder ${status.paused_folder_name} is paused: ${how} to continue, files added meanwhile included.`;
}
