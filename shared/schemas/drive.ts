/**
 * Document imports from Google Drive and Dropbox (product.md "Integration screens", folder screen;
 * rules.md `GET company/service/drive/switch`, `GET/POST company/service/drive/folders`). The web app and the
 * handlers share these schemas.
 */
import { z } from 'zod';

/** The service types of the calls and of the screens' paths (/integration/{service_type}). */
export const DRIVE_SERVICES = ['google', 'dropbox'] as const;
export type DriveService = (typeof DRIVE_SERVICES)[number];
export const driveServiceSchema = z.enum(DRIVE_SERVICES);
export const isDriveService = (v: string | undefined): v is DriveService => (DRIVE_SERVICES as readonly string[]).includes(v ?? '');

/** The company's flag and folder-name field of each service (product.md section 3, Company). */
export const DRIVE_FLAG = { google: 'google_drive_import', dropbox: 'dropbox_import' } as const;
export type DriveFlag = (typeof DRIVE_FLAG)[DriveService];
export const DRIVE_FOLDER_FIELD = { google: 'google_selected_import_folder_name', dropbox: 'dropbox_selected_import_folder_name' } as const;
export const DRIVE_LABEL: Record<DriveService, string> = { google: 'Google', dropbox: 'Dropbox' };
/** Full product names, in messages. */
export const DRIVE_PRODUCT: Record<DriveService, string> = { google: 'Google Drive', dropbox: 'Dropbox' };

export const DRIVE_MSG = {
  /** rules.md error catalogue: folder authorisation failure. */
  connectionError: 'Connection error!',
  notConnected: 'Connect the service first',
  folderNotFound: 'The folder was not found',
  revoked: (service: DriveService) => `Access to ${DRIVE_PRODUCT[service]} was withdrawn: switch the import on to connect again.`,
  /** The member who connected the import left the company: it was switched off with their grant. */
  connectorLeft: (service: DriveService) =>
    `The import was switched off: the member who connected it left the company. Switch it on to connect your own ${DRIVE_PRODUCT[service]} account.`,
  /** The member who connected the import is no longer an administrator (only admins configure integrations). */
  connectorNotAdmin: (service: DriveService) =>
    `The import was switched off: the member who connected it is no longer an administrator. Switch it on to connect your own ${DRIVE_PRODUCT[service]} account.`,
  /** The provider refused the import's place in the folder (Dropbox `reset`): it started again from then. */
  cursorReset: (service: DriveService) =>
    `${DRIVE_PRODUCT[service]} no longer accepted the place the import had reached in the folder, so it continues with files added from now on. Files added before may be missing from the documents.`,
} as const;

export const DRIVE_ID_MAX = 512;
export const DRIVE_NAME_MAX = 512;
/** Provider cursors (Dropbox list_folder cursors run to a few hundred characters). */
export const DRIVE_CURSOR_MAX = 2000;
export const OAUTH_CODE_MAX = 2048;
export const OAUTH_STATE_MAX = 128;

const companyId = z.string().min(1).max(128);
const flagParam = z
  .enum(['true', 'false', '1', '0'])
  .optional()
  .transform((v) => v === 'true' || v === '1');

/** GET /company/service/drive/switch: connect (answers the authorisation URL) or, with disconnect, switch off. */
export const driveSwitchQuerySchema = z.object({
  company_id: companyId,
  service_type: driveServiceSchema,
  disconnect: flagParam,
});
export type DriveSwitchQuery = z.infer<typeof driveSwitchQuerySchema>;

/** GET /company/service/drive/folders: one page of the folder list pop-up. */
export const driveFoldersQuerySchema = z.object({
  company_id: companyId,
  service_type: driveServiceSchema,
  next: z.string().min(1).max(DRIVE_CURSOR_MAX).optional(),
});
export type DriveFoldersQuery = z.infer<typeof driveFoldersQuerySchema>;

/** POST /company/service/drive/folders: the chosen folder (the name is taken from the provider). */
export const driveFolderBodySchema = z.object({
  service_type: driveServiceSchema,
  folder_id: z.string().trim().min(1).max(DRIVE_ID_MAX),
  folder_name: z.string().max(DRIVE_NAME_MAX).optional(),
});
export type DriveFolderBody = z.infer<typeof driveFolderBodySchema>;

/** POST /company/service/drive/authorize: what the provider handed back to /integration/{service_type}/authcallback. */
export const driveAuthorizeBodySchema = z.object({
  service_type: driveServiceSchema,
  code: z.string().min(1).max(OAUTH_CODE_MAX),
  state: z.string().min(1).max(OAUTH_STATE_MAX),
});
export type DriveAuthorizeBody = z.infer<typeof driveAuthorizeBodySchema>;

export const driveServiceQuerySchema = z.object({ company_id: companyId });

export interface DriveFolderItem {
  id: string;
  name: string;
}
export interface DriveFolderPage {
  items: DriveFolderItem[];
  next: string | null;
}

/** GET /company/service/drive/status: what each import did last (the Integration screen's note). */
export interface DriveImportStatus {
  service_type: DriveService;
  connected: boolean;
  folder_name: string | null;
  last_run_at: string | null;
  /** Documents created by the last run. */
  last_imported: number;
  /** Documents created since the folder was chosen. */
  total_imported: number;
  last_error: string | null;
  /** Files of the folder that did not become documents, newest first (at most DRIVE_SKIPPED_KEPT), with why. */
  skipped_files: DriveSkippedFile[];
  /** How many files of the folder did not become documents since it was chosen (all of them, not only those named). */
  skipped_total: number;
  /**
   * The folder kept while the provider refuses the grant (the import is paused): switching the import on again
   * continues there, files added meanwhile included. Null when nothing is paused.
   */
  paused_folder_name: string | null;
}
export interface DriveSkippedFile {
  name: string;
  reason: string;
  /** When the run that met it ended. */
  at: string;
}
/** Skipped files an import keeps to show (the newest). */
export const DRIVE_SKIPPED_KEPT = 20;
export interface DriveStatusResponse {
  items: DriveImportStatus[];
}
