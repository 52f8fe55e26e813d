import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import type { Company, CreateCompanyInput } from '../../../../../shared/schemas/company';
import { useActiveCompanyState, useActiveCompanyStore } from '../../../app/active-company';
import { useApi } from '../../../app/api-context';
import { useAuth } from '../../../app/auth';
import { effectiveAllCompanies } from '../../../lib/active-company-store';
import { queryKeys } from '../../../lib/query-keys';

export function useCompanies() {
  const api = useApi();
  const { status } = useAuth();
  return useQuery({
    queryKey: queryKeys.companies,
    queryFn: async () => {
      const res = await api.get<{ items?: Company[] }>('/companies', { companyScoped: false });
      return res.items ?? [];
    },
    enabled: status === 'signedIn',
  });
}

export function useCreateCompany() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateCompanyInput) => api.post<Company>('/company', input, { companyScoped: false }),
    onSuccess: (company) => {
      queryClient.setQueryData<Company[]>(queryKeys.companies, (old) =>
        old && company?.company_id ? [...old.filter((c) => c.company_id !== company.company_id), company] : old,
      );
      void queryClient.invalidateQueries({ queryKey: queryKeys.companies });
    },
  });
}

export function useDeleteCompany() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (companyId: string) =>
      api.del<{ deleted: boolean }>('/company', { query: { company_id: companyId }, companyScoped: false }),
    onSuccess: (_res, companyId) => {
      queryClient.setQueryData<Company[]>(queryKeys.companies, (old) => old?.filter((c) => c.company_id !== companyId));
      void queryClient.invalidateQueries({ queryKey: queryKeys.companies });
      // The all-companies lists and counts held its documents
      void queryClient.invalidateQueries({ queryKey: queryKeys.receipts });
    },
  });
}

export interface ActiveCompanyView {
  companies: Company[];
  isLoading: boolean;
  isError: boolean;
  /** The active company (undefined while loading or when the user has none). */
  active: Company | undefined;
  /** The all-companies view is on (only ever true with more than one company). */
  allCompanies: boolean;
  /** Company admin for the menu and the People card: of the active company, or of any company in the all-companies view. */
  isCompanyAdmin: boolean;
  setActive(companyId: string): void;
  setAllCompanies(on: boolean): void;
}

export function useActiveCompany(): ActiveCompanyView {
  const query = useCompanies();
  const store = useActiveCompanyStore();
  const state = useActiveCompanyState();
  const companies = useMemo(() => query.data ?? [], [query.data]);
  const active = companies.find((c) => c.company_id === state.companyId) ?? companies[0];
  const allCompanies = effectiveAllCompanies(state, companies.length);
  const isCompanyAdmin = allCompanies ? companies.some((c) => c.role === 'admin') : active?.role === 'admin';
  const setActive = useCallback(
    (companyId: string) => {
      store.setCompany(companyId);
      store.setAllCompanies(false);
    },
    [store],
  );
  const setAllCompanies = useCallback((on: boolean) => store.setAllCompanies(on), [store]);
  return {
    companies,
    isLoading: query.isPending,
    isError: query.isError,
    active,
    allCompanies,
    isCompanyAdmin,
    setActive,
    setAllCompanies,
  };
}
