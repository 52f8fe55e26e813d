import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UpdateCompanyInput } from '../../../../../shared/schemas/admin';
import type { Company, UpdateEmailInSendersInput } from '../../../../../shared/schemas/company';
import type { CompanyUser } from '../../../../../shared/schemas/team';
import { useApi } from '../../../app/api-context';
import { queryKeys } from '../../../lib/query-keys';

/** PUT /company (company admin): name and code; the answer replaces the company in the companies list. */
export function useUpdateCompany(companyId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateCompanyInput) => api.put<Company>('/company', input, { query: { company_id: companyId } }),
    onSuccess: (company) => {
      queryClient.setQueryData<Company[]>(queryKeys.companies, (old) =>
        old?.map((c) => (c.company_id === company.company_id ? { ...c, name: company.name, code: company.code } : c)),
      );
    },
  });
}

/** PUT /company/email-in (company admin): the senders Email-in takes mail from; the answer's list replaces the cached one. */
export function useUpdateEmailInSenders(companyId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateEmailInSendersInput) => api.put<Company>('/company/email-in', input, { query: { company_id: companyId } }),
    onSuccess: (company) => {
      queryClient.setQueryData<Company[]>(queryKeys.companies, (old) =>
        old?.map((c) => (c.company_id === company.company_id ? { ...c, email_in_senders: company.email_in_senders } : c)),
      );
    },
  });
}

/**
 * GET /company/users/me: the caller's own member card in a company, for every member (a Basic user cannot load My
 * Team): Settings shows their own Email-in address from it.
 */
export function useOwnCompanyUser(companyId: string) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.ownCompanyUser(companyId),
    queryFn: ({ signal }) => api.get<CompanyUser>('/company/users/me', { query: { company_id: companyId }, signal }),
    retry: false,
  });
}
