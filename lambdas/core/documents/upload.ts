/**
 * GET /upload/document: checks the file up front, reserves one document of the company's monthly
 * quota atomically, records the pending upload and hands out a presigned PUT URL for one key.
 */
import { AppError, forbidden } from '../../../shared/errors';
import type { CompanyRole } from '../../../shared/schemas';
import type { UploadDocumentQuery, UploadDocumentResponse } from '../../../shared/schemas/receipts';
import { monthOf } from '../accounts/companies';
import { acceptUpload, uploadKey } from './files';
import { CommitConflict } from './ports';
import { assertEditable } from './status-machine';
import { companyScope, userScope, type UploadRecord } from './types';
import { loadVisible, quotaMessage, type DocCaller, type DocumentDeps } from './workflow';

/** The presigned PUT URL is valid this long. */
export const UPLOAD_URL_SECONDS = 15 * 60;
/** A reservation whose object has not arrived after this long is given back. */
export const RESERVATION_SECONDS = 60 * 60;
/** Expired reservations given back per upload request (bounded work). */
const RELEASE_BATCH = 25;

export async function releaseExpiredReservations(deps: Pick<DocumentDeps, 'documents' | 'clock'>, companyId: string): Promise<number> {
  const expired = await deps.documents.expiredUploads(companyId, deps.clock.now().toISOString(), RELEASE_BATCH);
  let released = 0;
  for (const upload of expired) if (await deps.documents.releaseUpload(upload)) released += 1;
  return released;
}

export async function requestUpload(
  deps: DocumentDeps,
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
      throw new AppError('ValidationFailed', 'The owner must be a member of the company', {
        fields: [{ path: ['user_id'], message: 'The owner must be a member of the company' }],
      });
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
    expires_at: new Date(now.getTime() + RESERVATION_SECONDS * 1000).toISOString(),
    document_ids: [],
  };
  if (company) {
    await releaseExpiredReservations(deps, company.company_id);
    try {
      await deps.documents.putUpload(upload, {
        companyId: company.company_id,
        month: month!,
        quota_taken: 1,
        reserved_documents: 1,
        used_documents: 0,
        duplicated_documents: 0,
        limit: company.available_documents - 1,
      });
    } catch (error) {
      if (error instanceof CommitConflict && error.reason === 'quota') throw new AppError('QuotaExceeded', quotaMessage(company.available_documents));
      throw error;
    }
  } else {
    await deps.documents.putUpload(upload);
  }
  const uploadURL = await deps.files.presignPut(key, accepted.contentType, UPLOAD_URL_SECONDS);
  return { uploadURL, upload_id: uploadId, key, headers: { 'content-type': accepted.contentType } };
}
