import { useInfiniteQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { LIST_PAGE_SIZE } from '../../../../../shared/constants';
import { useApi } from '../../../app/api-context';
import { useDocumentCounts } from '../../receipts/api/receipts';
import { NO_COMPANY } from '../../receipts/lib/row-rules';
import { walkItems, walkNeedsMore, walkTotal, type ListContext, type ListItem, type WalkPage } from '../lib/navigation';
import { editKeys } from './content';

export interface Walk {
  /** The documents of the list loaded so far, in the list's order. */
  items: ListItem[];
  /** How many documents the list holds (the company's counts; the loaded ones while those are unknown). */
  total: number;
  /** The first page is still on its way. */
  loading: boolean;
  /** The list read again (every page loaded so far), after an action moved the current document. */
  refresh(): Promise<ListItem[]>;
}

/**
 * The list the edit screen walks (product.md section 4: previous / next, n/total, the next document after an
 * action): GET /receipts of the document's company, its status (none for the inbox) and type, 50 at a time. Pages
 * are read until the current document and the one after it are loaded, so a list longer than one page is walked
 * to its end.
 */
export function useWalk(companyId: string, ctx: ListContext | null, receiptId: string): Walk {
  const api = useApi();
  const qc = useQueryClient();
  const enabled = ctx !== null && companyId !== NO_COMPANY;
  const queryKey = editKeys.walk(companyId, { ...(ctx ?? {}) });
  const query = useInfiniteQuery({
    queryKey,
    enabled,
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam, signal }): Promise<WalkPage> => {
      const page = await api.get<{ items?: ListItem[]; next?: string | null }>('/receipts', {
        query: {
          company_id: companyId,
          receipt_status: ctx!.inbox ? undefined : ctx!.status,
          receipt_type: ctx!.receiptType,
          limit: LIST_PAGE_SIZE,
          next: pageParam,
        },
        signal,
      });
      return { items: page?.items ?? [], next: page?.next ?? null };
    },
    getNextPageParam: (last) => last.next || undefined,
    // Read again whenever a document is opened: statuses change under the list (actions, other users), and no
    // live event edits this list's cache.
    staleTime: 0,
  });
  const inbox = ctx?.inbox;
  const status = ctx?.status;
  const receiptType = ctx?.receiptType;
  const items = useMemo(
    () => (inbox === undefined || !status || !receiptType ? [] : walkItems(query.data?.pages, { inbox, status, receiptType })),
    [query.data, inbox, status, receiptType],
  );
  const pagesLoaded = query.data?.pages.length ?? 0;
  const { hasNextPage, isFetching, fetchNextPage } = query;
  useEffect(() => {
    if (enabled && hasNextPage && !isFetching && walkNeedsMore(items, receiptId, pagesLoaded)) void fetchNextPage();
  }, [enabled, hasNextPage, isFetching, fetchNextPage, items, receiptId, pagesLoaded]);

  const counts = useDocumentCounts(enabled ? companyId : null);
  const total = Math.max(items.length, ctx ? (walkTotal(counts.data, ctx) ?? 0) : 0);

  const refresh = async () => {
    if (!ctx || !enabled) return [];
    await query.refetch();
    return walkItems(qc.getQueryData<InfiniteData<WalkPage>>(queryKey)?.pages, ctx);
  };

  return { items, total, loading: query.isPending, refresh };
}
