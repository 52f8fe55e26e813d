import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateCompanyInput } from '../../../../../shared/schemas/admin';
import type { Company } from '../../../../../shared/schemas/company';
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
