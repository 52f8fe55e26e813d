import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { invitationViewSchema, type InvitationView } from '../../../../../shared/schemas/team';
import { useApi } from '../../../app/api-context';
import { queryKeys } from '../../../lib/query-keys';

/** GET /invitation/{token}'s answer: the API's own schema (its company's name and the role it gives too). */
export const invitationSchema = invitationViewSchema;
export type Invitation = InvitationView;

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
