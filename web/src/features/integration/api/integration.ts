import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Company } from '../../../../../shared/schemas/company';
import type { PostServiceInput } from '../../../../../shared/schemas/integrations';
import { useApi } from '../../../app/api-context';
import { queryKeys } from '../../../lib/query-keys';

/** POST /company/service: answers the updated company, which replaces it in the companies list. */
export function useChangeService(companyId: string) {
  const api = useApi();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: PostServiceInput) => api.post<Company>('/company/service', input, { query: { company_id: companyId } }),
    onSuccess: (company) => {
      qc.setQueryData<Company[]>(queryKeys.companies, (old) => old?.map((c) => (c.company_id === company.company_id ? company : c)));
    },
  });
}
