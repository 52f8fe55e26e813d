/**
 * GET /upload/document: checks the file up front, reserves one document of the company's monthly
 * quota atomically, records the pending upload and hands out a presigned PUT URL for one key.
 */
import { AppError, forbidden } from '../../../shared/errors';
import type { CompanyRole } from '../../../shared/schemas';
import type { UploadDocumentQuery, UploadDocumentResponse } from '../../../shared/schemas/receipts';
import { monthOf } from '../accounts/companies';
import { acceptUpload, uploadKey } from './files';
import { CommitConflict, type DocumentsStore } from './ports';
import { assertEditable } from './status-machine';
import { companyScope, userScope, type ScopeKey, type UploadRecord, type UsageDelta } from './types';
import { loadVisible, quotaMessage, type DocCaller, type DocumentDeps } from './workflow';

/** The presigned PUT URL is valid this long (and never longer than the reservation). */
export const UPLOAD_URL_SECONDS = 15 * 60;
/** Upload reservations: a reservation whose object has not arrived after `reservationMinutes` is given back. */
export interface UploadLimits {
  reservationMinutes: number;
  /** Pending uploads one user may hold at once in one company, and in the all-companies view. */
  maxPendingPerUser: number;
}
export const DEFAULT_UPLOAD_LIMITS: UploadLimits = { reservationMinutes: 20, maxPendingPerUser: 50 };
/** Reservations of email attachments (their files are stored already; the job uses them within seconds). */
export const RESERVATION_SECONDS = 60 * 60;
/** Expired reservations given back per upload request (bounded work). */
const RELEASE_BATCH = 25;

/** 429 when one user holds too many reservations: says what is happening and when it clears. */
/**
 * The usage change of an upload to a company: one document of the month's quota taken and reserved until
 * processing makes it a used one; refused when it would go over what the company may still upload.
 */
export function reserveOneDocument(companyId: string, month: string, availableDocuments: number): UsageDelta {
  return {
    companyId,
    month,
    quota_taken: 1,
    reserved_documents: 1,
    used_documents: 0,
    duplicated_documents: 0,
    limit: availableDocuments - 1,
    quota: availableDocuments,
  };
}

export function pendingUploadsMessage(limits: UploadLimits): string {
  return `You have ${limits.maxPendingPerUser} uploads waiting for their files. Upload reservations that are not used expire after ${limits.reservationMinutes} minutes; try again when your uploads have finished.`;
}

/** The quota message, saying how much of the quota uploads in progress hold and when unused reservations return. */
async function quotaRefusal(deps: DocumentDeps, companyId: string, month: string, available: number, limits: UploadLimits): Promise<AppError> {
  const { reserved_documents: reserved } = await deps.documents.usage(companyId, month);
  const held = reserved > 0 ? ` ${reserved} of them ${reserved === 1 ? 'is' : 'are'} reserved by uploads in progress; reservations that are not used are released after ${limits.reservationMinutes} minutes.` : '';
  return new AppError('QuotaExceeded', `${quotaMessage(available)}${held}`);
}

/** What giving back expired reservations reads and writes. */
type ReleaseDeps = { documents: Pick<DocumentsStore, 'expiredUploads' | 'releaseUpload'>; clock: DocumentDeps['clock'] };

export async function releaseExpiredReservations(deps: ReleaseDeps, companyId: string): Promise<number> {
  return releaseExpired(deps, companyScope(companyId));
}

/** Gives back a user's all-companies uploads whose files have not arrived in time (their count of pending uploads). */
export async function releaseExpiredUserUploads(deps: ReleaseDeps, userId: string): Promise<number> {
  return releaseExpired(deps, userScope(userId));
}

async function releaseExpired(deps: ReleaseDeps, scope: ScopeKey): Promise<number> {
  const expired = await deps.documents.expiredUploads(scope, deps.clock.now().toISOString(), RELEASE_BATCH);
  let released = 0;
  for (const upload of expired) if (await deps.documents.releaseUpload(upload)) released += 1;
  return released;
}

export async function requestUpload(
  deps: DocumentDeps & { uploadLimits?: UploadLimits },
  caller: DocCaller & { role?: CompanyRole },
  query: UploadDocumentQuery,
): Promise<UploadDocumentResponse> {
  const mode = query.type ?? query.mode ?? 'single';
  const accepted = acceptUpload({ original_file_name: query.original_file_name, content_type: query.content_type, size: query.size, mode });
  const allCompanies = query.company_id === 'NONE';
  if (!allCompanies && !caller.companyId) throw forbidden('You are not a member of this company');
  const companyId = allCompanies ? null : caller.companyId!;

  let ownerId = caller.userId;
  if (query.user_id && query.user_id !== caller.userId) {
    if (allCompanies) throw forbidden('In the all-companies view a document belongs to the one who uploads it');
    if (caller.role !== 'admin') throw forbidden('Only a company administrator can choose the owner');
    const member = await deps.store.getMembership(query.user_id, companyId!);
    if (!member) {
      throw new AppError('ValidationFailed', 'The owner must be a member of the company', [
        { path: ['user_id'], message: 'The owner must be a member of the company' },
      ]);
    }
    ownerId = query.user_id;
  }
  const [owner, uploader, company] = await Promise.all([
    deps.store.getProfile(ownerId),
    ownerId === caller.userId ? Promise.resolve(undefined) : deps.store.getProfile(caller.userId),
    companyId ? deps.store.getCompanies([companyId]).then((c) => c[0]) : Promise.resolve(undefined),
  ]);
  if (companyId && !company) throw forbidden('You are not a member of this company');
  if (query.receipt_id) assertEditable(await loadVisible(deps.documents, caller, query.receipt_id));

  const limits = deps.uploadLimits ?? DEFAULT_UPLOAD_LIMITS;
  const now = deps.clock.now();
  const uploadId = deps.ids.newId();
  const key = uploadKey(companyId, ownerId, uploadId, query.original_file_name);
  const month = companyId ? monthOf(now) : null;
  const upload: UploadRecord = {
    upload_id: uploadId,
    key,
    scope: companyId ? companyScope(companyId) : userScope(ownerId),
    company_id: companyId,
    company_name: company?.name ?? '',
    company_code: company?.code ?? '',
    owner_id: ownerId,
    owner: { name: owner?.name ?? '', surname: owner?.surname ?? '' },
    created_by: caller.userId,
    created_by_name: { name: (uploader ?? owner)?.name ?? '', surname: (uploader ?? owner)?.surname ?? '' },
    receipt_type: query.receipt_type,
    mode,
    upload_type: query.upload_type ?? null,
    notes: query.notes ?? '',
    receipt_id: query.receipt_id ?? null,
    category: query.category ?? null,
    original_file_name: query.original_file_name.trim(),
    content_type: accepted.contentType,
    declared_size: query.size,
    process_rows: query.process_rows,
    month,
    state: 'pending',
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + limits.reservationMinutes * 60_000).toISOString(),
    document_ids: [],
    // Counted against the caller's pending uploads, in the company or (all-companies view) their own.
    held_by: caller.userId,
  };
  if (company) {
    await releaseExpiredReservations(deps, company.company_id);
    const reserve = reserveOneDocument(company.company_id, month!, company.available_documents);
    try {
      await deps.documents.putUpload(upload, reserve, { maxOutstanding: limits.maxPendingPerUser });
    } catch (error) {
      if (!(error instanceof CommitConflict)) throw error;
      if (error.reason === 'quota') throw await quotaRefusal(deps, company.company_id, month!, company.available_documents, limits);
      if (error.reason === 'held') throw new AppError('QuotaExceeded', pendingUploadsMessage(limits));
      throw error;
    }
  } else {
    // No quota to reserve, but the same cap on pending uploads, counted in the same transaction as the upload.
    await releaseExpiredUserUploads(deps, caller.userId);
    try {
      await deps.documents.putUpload(upload, undefined, { maxOutstanding: limits.maxPendingPerUser });
    } catch (error) {
      if (error instanceof CommitConflict && error.reason === 'held') throw new AppError('QuotaExceeded', pendingUploadsMessage(limits));
      throw error;
    }
  }
  // The URL writes once and exactly the declared length; the client sends the returned headers with the PUT.
  const uploadURL = await deps.files.presignPut(key, accepted.contentType, Math.min(UPLOAD_URL_SECONDS, limits.reservationMinutes * 60), {
    contentLength: query.size,
    writeOnce: true,
  });
  return { uploadURL, upload_id: uploadId, key, headers: { 'content-type': accepted.contentType, 'if-none-match': '*' } };
}
