import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { z } from 'zod';
import { useApi } from '../../../app/api-context';
import { queryKeys } from '../../../lib/query-keys';

export const invitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  company_id: z.string(),
  new_account_required: z.boolean(),
});
export type Invitation = z.infer<typeof invitationSchema>;

/** GET /invitation/{token}, unauthenticated (rules.md 7). */
export function useInvitation(token: string | null, enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.invitation(token ?? ''),
    queryFn: async () =>
      invitationSchema.parse(await api.get<unknown>(`/invitation/${encodeURIComponent(token ?? '')}`, { auth: false })),
    enabled: enabled && Boolean(token),
    retry: false,
    staleTime: Infinity,
  });
}

/** PUT /invitation/{token}: accepts the invitation of an existing account. */
export function useConfirmInvitation() {
  const api = useApi();
  return useCallback(
    (token: string) => api.put<unknown>(`/invitation/${encodeURIComponent(token)}`, undefined, { auth: false }),
    [api],
  );
}
