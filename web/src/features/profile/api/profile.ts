import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Profile, UpdateProfileInput } from '../../../../../shared/schemas/user';
import { useApi } from '../../../app/api-context';
import { useAuth } from '../../../app/auth';
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
