import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Company } from '../../../../../shared/schemas/company';
import type { DriveAuthorizeBody, DriveFolderBody, DriveFolderPage, DriveService, DriveStatusResponse } from '../../../../../shared/schemas/drive';
import { useApi } from '../../../app/api-context';
import { queryKeys } from '../../../lib/query-keys';

export const driveKeys = {
  status: (companyId: string) => ['drive-import', 'status', companyId] as const,
  folders: (companyId: string, service: DriveService) => ['drive-import', 'folders', companyId, service] as const,
};

function useReplaceCompany() {
  const qc = useQueryClient();
  return (company: Company) => {
    qc.setQueryData<Company[]>(queryKeys.companies, (old) => old?.map((c) => (c.company_id === company.company_id ? company : c)));
    void qc.invalidateQueries({ queryKey: ['drive-import', 'status', company.company_id] });
  };
}

/** GET /company/service/drive/switch: connecting answers the provider's authorisation URL; disconnect switches off. */
export function useDriveSwitch(companyId: string) {
  const api = useApi();
  const replace = useReplaceCompany();
  return useMutation({
    mutationFn: (input: { service: DriveService; disconnect: boolean }) =>
      api.get<{ url: string | null; company: Company }>('/company/service/drive/switch', {
        query: { company_id: companyId, service_type: input.service, disconnect: input.disconnect },
      }),
    onSuccess: (res) => replace(res.company),
  });
}

/** POST /company/service/drive/authorize: the code and state the provider sent back. */
export function useDriveAuthorize(companyId: string) {
  const api = useApi();
  const replace = useReplaceCompany();
  return useMutation({
    mutationFn: (body: DriveAuthorizeBody) => api.post<Company>('/company/service/drive/authorize', body, { query: { company_id: companyId } }),
    onSuccess: replace,
  });
}

/** GET /company/service/drive/folders, page after page with `next`. */
export function useDriveFolders(companyId: string, service: DriveService, enabled: boolean) {
  const api = useApi();
  return useInfiniteQuery({
    queryKey: driveKeys.folders(companyId, service),
    enabled,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) =>
      api.get<DriveFolderPage>('/company/service/drive/folders', { query: { company_id: companyId, service_type: service, next: pageParam ?? undefined } }),
    getNextPageParam: (last) => last.next ?? undefined,
    retry: false,
    staleTime: 30_000,
  });
}

/** POST /company/service/drive/folders: the folder whose new files become documents. */
export function useChooseFolder(companyId: string) {
  const api = useApi();
  const replace = useReplaceCompany();
  return useMutation({
    mutationFn: (body: DriveFolderBody) => api.post<Company>('/company/service/drive/folders', body, { query: { company_id: companyId } }),
    onSuccess: replace,
  });
}

/** GET /company/service/drive/status: last run, documents imported, last error (e.g. a withdrawn grant). */
export function useDriveStatus(companyId: string | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: driveKeys.status(companyId ?? ''),
    enabled: Boolean(companyId),
    queryFn: () => api.get<DriveStatusResponse>('/company/service/drive/status', { query: { company_id: companyId! } }),
    refetchInterval: 60_000,
  });
}
