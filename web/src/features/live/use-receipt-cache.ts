import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Company } from '../../../../shared/schemas/company';
import { queryKeys } from '../../lib/query-keys';
import type { Receipt } from '../receipts/api/types';
import type { ListKeyParams } from '../receipts/lib/list-params';
import {
  applyCompanyDelete,
  applyCompanyEvent,
  applyMembershipEvent,
  applyDeleteToList,
  applyReceiptToList,
  type CompaniesUpdate,
  type ListData,
  type ListUpdate,
} from './lib/cache-updates';

export interface ReceiptCache {
  /** A new or changed document: update every cached list (add, replace, remove, or refetch) and the counts. */
  applyReceipt(receipt: Receipt): void;
  /** A deleted document: out of every list (and its detail dropped unless `keepDetail`); counts refetched. */
  applyDelete(receiptId: string, options?: { keepDetail?: boolean }): void;
  applyCompany(payload: unknown): void;
  applyCompanyDelete(payload: unknown, activeCompanyId: string | null): void;
  /** The user's own role in a company changed (their own channel). */
  applyMembership(payload: unknown): void;
  /** Refetch every list and the counts (after a reconnect, or an action whose answer has no document). */
  refreshAll(): void;
  /** Refetch the side-menu counts (GET /companies), coalesced. */
  refreshCounts(): void;
  /**
   * Uploads of the all-companies view become documents without a company, which get no live events: reload
   * the lists every few seconds until documents of these uploads are listed and processed (at most 2 min).
   */
  watchUploads(uploadIds: ReadonlyArray<string>): void;
}

export const UPLOAD_WATCH_MS = 3000;
export const UPLOAD_WATCH_MAX_MS = 120_000;

interface UploadWatch {
  ids: Set<string>;
  timer: ReturnType<typeof setTimeout> | null;
  deadline: number;
}
const uploadWatches = new WeakMap<QueryClient, UploadWatch>();

/** Upload ids whose documents are in a cached list and done processing. */
export function settledUploads(lists: ReadonlyArray<ListData | undefined>, ids: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const data of lists) {
    for (const page of data?.pages ?? []) {
      for (const r of page.items) {
        if (r.upload_id && ids.has(r.upload_id) && r.status !== 'processing' && r.status !== 'converting') out.add(r.upload_id);
      }
    }
  }
  return out;
}

function watchUploads(queryClient: QueryClient, uploadIds: ReadonlyArray<string>): void {
  if (uploadIds.length === 0) return;
  let watch = uploadWatches.get(queryClient);
  if (!watch) {
    watch = { ids: new Set(), timer: null, deadline: 0 };
    uploadWatches.set(queryClient, watch);
  }
  for (const id of uploadIds) watch.ids.add(id);
  watch.deadline = Date.now() + UPLOAD_WATCH_MAX_MS;
  const w = watch;
  const tick = () => {
    w.timer = null;
    const lists = queryClient.getQueriesData<ListData>({ queryKey: queryKeys.receiptLists }).map(([, data]) => data);
    for (const id of settledUploads(lists, w.ids)) w.ids.delete(id);
    if (w.ids.size === 0 || Date.now() > w.deadline) {
      w.ids.clear();
      return;
    }
    void queryClient.invalidateQueries({ queryKey: queryKeys.receipts });
    w.timer = setTimeout(tick, UPLOAD_WATCH_MS);
  };
  if (!w.timer) w.timer = setTimeout(tick, UPLOAD_WATCH_MS);
}

const COUNTS_DEBOUNCE_MS = 250;
const latestVersions = new WeakMap<QueryClient, Map<string, number>>();
const debounceTimers = new WeakMap<QueryClient, ReturnType<typeof setTimeout>>();

function refreshCountsSoon(queryClient: QueryClient): void {
  const pending = debounceTimers.get(queryClient);
  if (pending) clearTimeout(pending);
  debounceTimers.set(
    queryClient,
    setTimeout(() => {
      debounceTimers.delete(queryClient);
      void queryClient.invalidateQueries({ queryKey: queryKeys.companies });
      void queryClient.invalidateQueries({ queryKey: ['receipts', 'total-documents'] });
    }, COUNTS_DEBOUNCE_MS),
  );
}

function applyToLists(queryClient: QueryClient, update: (data: ListData | undefined, list: ListKeyParams) => ListUpdate): void {
  for (const [key, data] of queryClient.getQueriesData<ListData>({ queryKey: queryKeys.receiptLists })) {
    const list = key[2] as ListKeyParams | undefined;
    if (!list) continue;
    const result = update(data, list);
    if (result.kind === 'set') queryClient.setQueryData(key, result.data);
    else if (result.kind === 'invalidate') void queryClient.invalidateQueries({ queryKey: key, exact: true });
  }
}

function applyCompanies(queryClient: QueryClient, result: CompaniesUpdate): void {
  if (result.kind === 'set') queryClient.setQueryData<Company[]>(queryKeys.companies, result.data);
  else if (result.kind === 'invalidate') void queryClient.invalidateQueries({ queryKey: queryKeys.companies });
}

export function receiptCache(queryClient: QueryClient): ReceiptCache {
  return {
    applyReceipt(receipt) {
      // the newest version seen of each document: a late older state (an HTTP answer overtaken by the live
      // event of the next change) must not come back into any list
      let seen = latestVersions.get(queryClient);
      if (!seen) latestVersions.set(queryClient, (seen = new Map()));
      const latest = seen.get(receipt.receipt_id);
      if (typeof receipt.version === 'number') {
        if (latest !== undefined && receipt.version < latest) return;
        seen.set(receipt.receipt_id, receipt.version);
      }
      applyToLists(queryClient, (data, list) => applyReceiptToList(data, list, receipt));
      void queryClient.invalidateQueries({ queryKey: ['receipts', 'detail', receipt.receipt_id] });
      refreshCountsSoon(queryClient);
    },
    applyDelete(receiptId, options) {
      applyToLists(queryClient, (data) => applyDeleteToList(data, receiptId));
      if (!options?.keepDetail) queryClient.removeQueries({ queryKey: ['receipts', 'detail', receiptId] });
      refreshCountsSoon(queryClient);
    },
    applyCompany(payload) {
      applyCompanies(queryClient, applyCompanyEvent(queryClient.getQueryData<Company[]>(queryKeys.companies), payload));
    },
    applyCompanyDelete(payload, activeCompanyId) {
      const update = applyCompanyDelete(queryClient.getQueryData<Company[]>(queryKeys.companies), payload, activeCompanyId);
      applyCompanies(queryClient, update);
      // The all-companies lists and their counts held the company's documents: read again without them.
      if (update.kind !== 'none') void queryClient.invalidateQueries({ queryKey: queryKeys.receipts });
    },
    applyMembership(payload) {
      applyCompanies(queryClient, applyMembershipEvent(queryClient.getQueryData<Company[]>(queryKeys.companies), payload));
    },
    refreshAll() {
      void queryClient.invalidateQueries({ queryKey: queryKeys.receipts });
      void queryClient.invalidateQueries({ queryKey: queryKeys.companies });
    },
    refreshCounts() {
      refreshCountsSoon(queryClient);
    },
    watchUploads(uploadIds) {
      watchUploads(queryClient, uploadIds);
    },
  };
}

export function useReceiptCache(): ReceiptCache {
  const queryClient = useQueryClient();
  return useMemo(() => receiptCache(queryClient), [queryClient]);
}
