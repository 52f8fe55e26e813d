import { useInfiniteQuery } from '@tanstack/react-query';
import type { EmailListPage } from '../../../../../shared/schemas/emails';
import { useApi } from '../../../app/api-context';
import { queryKeys } from '../../../lib/query-keys';
import { hasReceiving } from '../lib/mail-received';

/** How often the list is read again while a mail is still being received. */
export const RECEIVING_POLL_MS = 4000;

/** GET /emails: the mail the company received, newest first, 20 a page; the older page with `next`. */
export function useCompanyEmails(companyId: string) {
  const api = useApi();
  return useInfiniteQuery({
    queryKey: queryKeys.companyEmails(companyId),
    initialPageParam: null as string | null,
    queryFn: async ({ pageParam, signal }): Promise<EmailListPage> => {
      const page = await api.get<EmailListPage>('/emails', { query: { company_id: companyId, next: pageParam ?? undefined }, signal });
      return { items: page?.items ?? [], next: page?.next ?? null };
    },
    getNextPageParam: (last) => last.next ?? undefined,
    enabled: companyId !== '',
    // a mail still being received gets its documents in a moment: read the list again until they are made
    refetchInterval: (query) => (hasReceiving(query.state.data?.pages) ? RECEIVING_POLL_MS : false),
  });
}
