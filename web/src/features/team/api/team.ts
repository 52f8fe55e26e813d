import { useMutation, useQueries, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type {
  CompanyUser,
  InviteInput,
  PendingInvitation,
  TransferOwnershipInput,
  TransferOwnershipResult,
  UpdateCompanyUserInput,
} from '../../../../../shared/schemas/team';
import { useApi } from '../../../app/api-context';
import type { ApiClient } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { withOwner } from '../lib/owner';

/**
 * How often My Team reads a company's members and invitations again while one of its invitations is pending: an
 * invitee accepts in their own browser (often a new account, whose sign-up no live event of the company follows), and
 * the admin's open page shows the new member without a reload. Nothing is read while none is pending.
 */
export const TEAM_PENDING_POLL_MS = 10_000;

const hasPending = (queryClient: QueryClient, companyId: string) =>
  (queryClient.getQueryData<PendingInvitation[]>(queryKeys.companyInvitations(companyId))?.length ?? 0) > 0;

/** When an invitation of a company last left the pending list (accepted, cancelled or expired), per query client. */
const invitationGoneAt = new WeakMap<QueryClient, Map<string, number>>();

function noteInvitationGone(queryClient: QueryClient, companyId: string): void {
  let byCompany = invitationGoneAt.get(queryClient);
  if (!byCompany) invitationGoneAt.set(queryClient, (byCompany = new Map()));
  byCompany.set(companyId, Date.now());
}

/**
 * Whether the members are read again every TEAM_PENDING_POLL_MS: while an invitation is pending, and for two rounds
 * after one left the list — the members and the invitations are two reads on their own timers, so the invitations'
 * read can see the acceptance first, and the members' list must still follow it (before, it stopped polling at that
 * moment and the new member stayed unseen until a reload).
 */
const followMembers = (queryClient: QueryClient, companyId: string) =>
  hasPending(queryClient, companyId) || Date.now() - (invitationGoneAt.get(queryClient)?.get(companyId) ?? -Infinity) < 2 * TEAM_PENDING_POLL_MS;

/** GET /company/users of each given company (company admins only), in the order given. */
export function useTeams(companyIds: string[]) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useQueries({
    queries: companyIds.map((companyId) => ({
      queryKey: queryKeys.companyUsers(companyId),
      queryFn: async ({ signal }: { signal: AbortSignal }) => {
        const res = await api.get<{ items?: CompanyUser[] }>('/company/users', { query: { company_id: companyId }, signal });
        return res?.items ?? [];
      },
      retry: false,
      refetchInterval: () => (followMembers(queryClient, companyId) ? TEAM_PENDING_POLL_MS : false),
    })),
  });
}

/** GET /company/invitations of each given company (company admins only): the pending invitations, newest first. */
export function usePendingInvitations(companyIds: string[]) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useQueries({
    queries: companyIds.map((companyId) => ({
      queryKey: queryKeys.companyInvitations(companyId),
      queryFn: async ({ signal }: { signal: AbortSignal }) => {
        const before = queryClient.getQueryData<PendingInvitation[]>(queryKeys.companyInvitations(companyId)) ?? [];
        const res = await api.get<{ items?: PendingInvitation[] }>('/company/invitations', { query: { company_id: companyId }, signal });
        const items = res?.items ?? [];
        // An invitation gone from the list may be a new member: the members are read again now, and followed a while.
        if (before.some((b) => !items.some((i) => i.id === b.id))) {
          noteInvitationGone(queryClient, companyId);
          void queryClient.invalidateQueries({ queryKey: queryKeys.companyUsers(companyId) });
        }
        return items;
      },
      retry: false,
      refetchInterval: () => (hasPending(queryClient, companyId) ? TEAM_PENDING_POLL_MS : false),
    })),
  });
}

/**
 * POST /invitation?company_id=…: the invitation e-mail is sent by the server. Sent again to the same person, the
 * new invitation replaces the pending one (its link stops working).
 */
export function useInvite() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ companyId, input }: { companyId: string; input: InviteInput }) =>
      api.post<{ id: string; email: string; new_account_required: boolean }>('/invitation', { ...input, company_id: companyId }, {
        query: { company_id: companyId },
      }),
    onSuccess: (_res, { companyId }) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.companyInvitations(companyId) });
    },
  });
}

/** DELETE /company/invitations/{id}?company_id=…: the invitation's link stops working. */
export function useCancelInvitation() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ companyId, id }: { companyId: string; id: string }) =>
      api.del<{ cancelled: true }>(`/company/invitations/${encodeURIComponent(id)}`, { query: { company_id: companyId } }),
    onSettled: (_res, _err, { companyId }) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.companyInvitations(companyId) });
    },
  });
}

/** PUT /company/users/{id}?company_id=…: only the changed fields. */
export function useUpdateCompanyUser() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ companyId, userId, changes }: { companyId: string; userId: string; changes: UpdateCompanyUserInput }) =>
      api.put<CompanyUser>(`/company/users/${encodeURIComponent(userId)}`, changes, { query: { company_id: companyId } }),
    onSuccess: (_user, { companyId }) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.companyUsers(companyId) });
    },
  });
}

/** DELETE /company/users/{id}?company_id=…: removes the membership only. */
export function useDeleteCompanyUser() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ companyId, userId }: { companyId: string; userId: string }) =>
      api.del<{ deleted: true }>(`/company/users/${encodeURIComponent(userId)}`, { query: { company_id: companyId } }),
    onSuccess: (_res, { companyId, userId }) => {
      queryClient.setQueryData<CompanyUser[]>(queryKeys.companyUsers(companyId), (old) => old?.filter((u) => u.user_id !== userId));
      void queryClient.invalidateQueries({ queryKey: queryKeys.companyUsers(companyId) });
    },
  });
}

/**
 * PUT /company/owner?company_id=…: the account owner makes another administrator (`userId`) the company's account
 * owner. The company is the one named here (in the all-companies view it is not the active one).
 */
export function transferOwnership(api: ApiClient, companyId: string, userId: string): Promise<TransferOwnershipResult> {
  const body: TransferOwnershipInput = { user_id: userId };
  return api.put<TransferOwnershipResult>('/company/owner', body, { query: { company_id: companyId } });
}

/**
 * My Team's "Make Account Owner": `mutateAsync({ companyId, userId })`. The members' cards (who carries "Account
 * owner", who can be deleted) and the companies (each names its owner: the dashboard's role labels) are read again.
 */
export function useTransferOwnership() {
  const api = useApi();
  const queryClient = useQueryClient();
  const readAgain = (companyId: string) => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.companyUsers(companyId) });
    void queryClient.invalidateQueries({ queryKey: queryKeys.companies });
  };
  return useMutation({
    mutationFn: ({ companyId, userId }: { companyId: string; userId: string }) => transferOwnership(api, companyId, userId),
    onSuccess: (res, { companyId, userId }) => {
      // The cards change at once (the old owner's buttons go with the ownership); the read brings the rest.
      queryClient.setQueryData<CompanyUser[]>(queryKeys.companyUsers(companyId), (old) => old && withOwner(old, res?.owner?.user_id ?? userId));
      readAgain(companyId);
    },
    // A refusal says the cards were out of date (the member made Basic, removed, or the company handed over
    // meanwhile), and an answer lost on its way (the gateway's 502/503/504) may have been a success: read again.
    onError: (_err, { companyId }) => readAgain(companyId),
  });
}
