import type { Query } from '../../../lib/api-client';
import { ApiError } from '../../../lib/api-error';
import { contentTypeOf, type FileLike, type UploadMode, type UploadReceiptType } from './validate';

/** Uploads in the all-companies view belong to no company yet: they become unassigned (product.md section 4). */
export const NO_COMPANY = 'NONE';

/** An upload of a user who has no company (not asked of the server: it would refuse it with a validation text). */
export const NO_COMPANY_TO_UPLOAD = 'Documents belong to a company: add one with ADD COMPANY on the Dashboard first.';

export interface UploadSettings {
  receiptType: UploadReceiptType;
  mode: UploadMode;
  /** The chosen owner's user id. */
  ownerId: string;
}

export interface UploadContext {
  /** The signed-in user's id: picking oneself sends an empty owner (rules.md 6). */
  selfId: string | undefined;
  allCompanies: boolean;
  activeCompanyId: string | null | undefined;
}

/**
 * The query of GET /upload/document for one file (rules.md 7): company_id (NONE in the all-companies
 * view), receipt_type, type = single | multiple, original_file_name, user_id ('' for oneself), content_type
 * and size (the content type is signed into the upload URL).
 */
export function uploadQuery(file: FileLike, settings: UploadSettings, ctx: UploadContext): Query {
  const ownerIsSelf = !settings.ownerId || settings.ownerId === ctx.selfId;
  // a refusal of the company, not a passing failure: trying the file again does not help (failure.ts)
  if (!ctx.allCompanies && !ctx.activeCompanyId) throw new ApiError(422, 'NoCompany', NO_COMPANY_TO_UPLOAD);
  return {
    company_id: ctx.allCompanies ? NO_COMPANY : ctx.activeCompanyId,
    receipt_type: settings.receiptType,
    type: settings.mode,
    original_file_name: file.name,
    user_id: ownerIsSelf ? '' : settings.ownerId,
    content_type: contentTypeOf(file),
    size: file.size,
  };
}

/** The headers of the PUT: what the server signed, else the content type. */
export function putHeaders(file: FileLike, signed: Record<string, string> | undefined): Record<string, string> {
  const headers: Record<string, string> = { ...(signed ?? {}) };
  if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['Content-Type'] = contentTypeOf(file);
  return headers;
}

/** Percent for a progress bar, 0..100. */
export function progressPercent(loaded: number, total: number): number {
  if (!total || total <= 0) return 0;
  return Math.max(0, Math.min(100, Math.round((loaded / total) * 100)));
}
