import { useQuery } from '@tanstack/react-query';
import type { UploadDocumentResponse } from '../../../../../shared/schemas/receipts';
import { useApi } from '../../../app/api-context';
import type { ApiClient } from '../../../lib/api-client';
import { ApiError } from '../../../lib/api-error';
import { queryKeys } from '../../../lib/query-keys';
import type { CompanyUser } from '../../receipts/api/types';
import { putFile } from '../lib/put-file';
import { progressPercent, putHeaders, uploadQuery, type UploadContext, type UploadSettings } from '../lib/request';

/** GET /company/users: the members a company admin may make the owner (basic users cannot load it). */
export function useCompanyUsers(companyId: string | undefined, enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.companyUsers(companyId ?? ''),
    queryFn: async ({ signal }) => {
      const res = await api.get<{ items?: CompanyUser[] } | CompanyUser[]>('/company/users', { query: { company_id: companyId }, signal });
      return Array.isArray(res) ? res : (res?.items ?? []);
    },
    enabled: enabled && Boolean(companyId),
    retry: false,
    staleTime: 5 * 60_000,
  });
}

/** Ask for a presigned URL, then PUT the file to it with progress. */
export async function uploadOne(
  api: ApiClient,
  file: File,
  settings: UploadSettings,
  ctx: UploadContext,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<UploadDocumentResponse> {
  const signed = await api.get<UploadDocumentResponse>('/upload/document', { query: uploadQuery(file, settings, ctx), signal });
  if (!signed?.uploadURL) throw new ApiError(500, 'Error', 'Error');
  await putFile(signed.uploadURL, file, putHeaders(file, signed.headers), (loaded, total) => onProgress(progressPercent(loaded, total)), signal);
  return signed;
}
