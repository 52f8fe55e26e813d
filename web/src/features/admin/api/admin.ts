import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminCompaniesResponse, AdminCompany, AdminCompanyUsageResponse, AdminStatistics } from '../../../../../shared/schemas/admin';
import { useApi } from '../../../app/api-context';
import { useAuth } from '../../../app/auth';
import type { CountRequest } from '../lib/count-request';

/** Query keys of the platform admin area (not company-scoped: no company_id is sent). */
export const adminKeys = {
  all: ['admin'] as const,
  statistics: ['admin', 'statistics'] as const,
  companies: ['admin', 'companies'] as const,
  companiesOfMonth: (month: string | undefined) => ['admin', 'companies', month ?? 'current'] as const,
  company: (companyId: string) => ['admin', 'company', companyId] as const,
  usage: (companyId: string) => ['admin', 'usage', companyId] as const,
};

const GLOBAL = { companyScoped: false } as const;

export function useAdminStatistics() {
  const api = useApi();
  const { status } = useAuth();
  return useQuery({
    queryKey: adminKeys.statistics,
    queryFn: () => api.get<AdminStatistics>('/admin/statistics', GLOBAL),
    enabled: status === 'signedIn',
  });
}

/** GET /admin/companies, 50 a page, newest first; the next page with `next`. `month`: that month's usage (none: this month's). */
export function useAdminCompanies(month?: string) {
  const api = useApi();
  const { status } = useAuth();
  return useInfiniteQuery({
    queryKey: adminKeys.companiesOfMonth(month),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) =>
      api.get<AdminCompaniesResponse>('/admin/companies', { ...GLOBAL, query: { next: pageParam ?? undefined, month } }),
    getNextPageParam: (last) => last.next ?? undefined,
    enabled: status === 'signedIn',
  });
}

export function useAdminCompany(companyId: string) {
  const api = useApi();
  const { status } = useAuth();
  return useQuery({
    queryKey: adminKeys.company(companyId),
    queryFn: () => api.get<AdminCompany>(`/admin/companies/${encodeURIComponent(companyId)}`, GLOBAL),
    enabled: status === 'signedIn' && companyId !== '',
    retry: false,
  });
}

/** GET /admin/companies/{id}/usage: the company's documents month by month, newest first. */
export function useAdminCompanyUsage(companyId: string) {
  const api = useApi();
  const { status } = useAuth();
  return useQuery({
    queryKey: adminKeys.usage(companyId),
    queryFn: () => api.get<AdminCompanyUsageResponse>(`/admin/companies/${encodeURIComponent(companyId)}/usage`, GLOBAL),
    enabled: status === 'signedIn' && companyId !== '',
  });
}

function useCompanyUpdate<I>(companyId: string, send: (input: I) => Promise<AdminCompany>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (company) => {
      queryClient.setQueryData(adminKeys.company(companyId), company);
      void queryClient.invalidateQueries({ queryKey: adminKeys.companies });
      void queryClient.invalidateQueries({ queryKey: adminKeys.usage(companyId) });
      void queryClient.invalidateQueries({ queryKey: adminKeys.statistics });
    },
  });
}

/**
 * The count form's request: the count only when it is sent (see `countRequest`), with the quota the page showed as
 * `expected_available_documents` (409 with the current one when it changed meanwhile); `reset=1` for a reset.
 */
export function useUpdateAvailableDocuments(companyId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  const update = useCompanyUpdate(companyId, (input: CountRequest) =>
    api.post<AdminCompany>(`/admin/companies/${encodeURIComponent(companyId)}/updateAvailableDocuments`, input.body, {
      ...GLOBAL,
      query: { reset: input.reset ? '1' : undefined },
    }),
  );
  return {
    ...update,
    /** The company as it is now (after a 409: the page shows the current quota). */
    reload: () => queryClient.invalidateQueries({ queryKey: adminKeys.company(companyId) }),
  };
}

export function useUpdateVatAccount(companyId: string) {
  const api = useApi();
  return useCompanyUpdate(companyId, (input: { vat_account: string }) =>
    api.post<AdminCompany>(`/admin/companies/${encodeURIComponent(companyId)}/updateVATAccount`, input, GLOBAL),
  );
}
