import { useIsMutating, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DeleteAccountInput, DeleteAccountResult, Profile, UpdateProfileInput } from '../../../../../shared/schemas/user';
import { useApi } from '../../../app/api-context';
import { useAuth } from '../../../app/auth';
import type { ApiClient } from '../../../lib/api-client';
import { isResultUnknown } from '../../../lib/api-error';
import { queryKeys } from '../../../lib/query-keys';

export function useProfile() {
  const api = useApi();
  const { status } = useAuth();
  return useQuery({
    queryKey: queryKeys.profile,
    queryFn: () => api.get<Profile>('/user', { companyScoped: false }),
    enabled: status === 'signedIn',
  });
}

/** POST /user with only the changed fields; the answer is the whole profile. */
export function useUpdateProfile() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: UpdateProfileInput) => api.post<Profile>('/user', changes, { companyScoped: false }),
    onSuccess: (profile) => {
      if (profile && typeof profile === 'object' && 'id' in profile) queryClient.setQueryData(queryKeys.profile, profile);
      else void queryClient.invalidateQueries({ queryKey: queryKeys.profile });
    },
    // A save whose answer was lost (the gateway's 502/503/504) may have been done: the profile is read again, and a
    // form whose values it now holds has nothing left to save.
    onError: (err) => {
      if (isResultUnknown(err)) void queryClient.invalidateQueries({ queryKey: queryKeys.profile });
    },
  });
}

/**
 * DELETE /user: deletes the caller's own account. `email` is the account's address typed again (the API refuses
 * any other with 422); the body is JSON, the call is not company-scoped.
 */
export function deleteOwnAccount(api: ApiClient, email: string): Promise<DeleteAccountResult> {
  const body: DeleteAccountInput = { email };
  return api.del<DeleteAccountResult>('/user', { body, companyScoped: false });
}

const DELETE_ACCOUNT_MUTATION = ['account', 'delete'] as const;

/** My Profile's Delete account: `mutateAsync(email)`. What follows a success (sign-out) is the caller's. */
export function useDeleteOwnAccount() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: DELETE_ACCOUNT_MUTATION,
    mutationFn: (email: string) => deleteOwnAccount(api, email),
    // An answer lost on its way (the gateway's 502/503/504): the account may be gone; the profile is read again.
    onError: (err) => {
      if (isResultUnknown(err)) void queryClient.invalidateQueries({ queryKey: queryKeys.profile });
    },
  });
}

/**
 * This tab's DELETE /user is under way. Meanwhile the live channel tells of the user's companies deleted and
 * memberships ended by it: no news to the user who asked for it (the frame says nothing of the company gone).
 */
export function useDeletingOwnAccount(): boolean {
  return useIsMutating({ mutationKey: DELETE_ACCOUNT_MUTATION }) > 0;
}
