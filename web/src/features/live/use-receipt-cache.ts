import { notifyManager, useQueryClient, type Query, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Company } from '../../../../shared/schemas/company';
import { queryKeys } from '../../lib/query-keys';
import { recordCompanyDeleted } from '../companies/lib/company-gone';
import type { Receipt } from '../receipts/api/types';
import type { ListKeyParams } from '../receipts/lib/list-params';
import {
  applyCompanyDelete,
  applyCompanyEvent,
  applyMembershipEvent,
  applyDeleteToList,
  applyReceiptsToList,
  companyIdOfPayload,
  ownerChangedByCompanyEvent,
  type CompaniesUpdate,
  type ListBatchUpdate,
  type ListData,
} from './lib/cache-updates';

export interface ReceiptCache {
  /** A new or changed document: update every cached list (add, replace, remove, or refetch) and the counts. */
  applyReceipt(receipt: Receipt): void;
  /**
   * Many new or changed documents (the answers of a bulk call, a burst of live events): one update of each cached
   * list, one notification of the screens. A state older than one already applied is dropped; with `live`, so is a
   * live event of a version already applied (the answer of the call that made the change came first).
   */
  applyReceipts(receipts: ReadonlyArray<Receipt>, options?: { live?: boolean }): void;
  /**
   * A deleted document: out of every list, counts refetched, and its detail dropped (a screen showing it reads it
   * again and learns it is gone) — unless `keepDetail`: this tab deleted or moved it and its screen moves on; its
   * detail is then kept also when the live channel echoes the delete (read again, it would answer 404 while the screen
   * leaves), and goes when no screen uses it.
   */
  applyDelete(receiptId: string, options?: { keepDetail?: boolean }): void;
  /** Many deleted documents: one update of each cached list. */
  applyDeletes(receiptIds: ReadonlyArray<string>): void;
  /**
   * Until the returned release is called (a bulk action's calls), the counts and the lists that must be read again
   * are not refetched, and live documents wait (the calls' answers bring the same versions): on release the lists
   * and counts are refetched once if anything asked for it, and the live documents not yet applied are applied.
   */
  holdRefreshes(): () => void;
  applyCompany(payload: unknown): void;
  applyCompanyDelete(payload: unknown, activeCompanyId: string | null): void;
  /** The user's own role in a company changed (their own channel). */
  applyMembership(payload: unknown): void;
  /** Refetch every list and the counts (an action whose answer has no document). */
  refreshAll(): void;
  /**
   * Refetch what the live channel keeps current (documents, counts, companies, master data) that was read before
   * `at`, or is being read at `at`: the channel opened then, and the events sent before it listened are lost.
   */
  refreshReadBefore(at: number): void;
  /** Refetch the side-menu counts (GET /companies), coalesced. */
  refreshCounts(): void;
  /** The statuses the cached lists and details hold for these documents (those cached anywhere). */
  cachedStatuses(receiptIds: ReadonlyArray<string>): Map<string, string>;
  /**
   * Uploads of the all-companies view become documents without a company, which get no live events: reload
   * the lists every few seconds until documents of these uploads are listed and processed (at most 2 min).
   */
  watchUploads(uploadIds: ReadonlyArray<string>): void;
}

/** The queries the live channel's events keep current (documents and counts, companies, master data). */
const LIVE_KEPT: ReadonlyArray<QueryKey> = [queryKeys.receipts, queryKeys.companies, queryKeys.masterData];

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
/** Documents this tab deleted or moved with `keepDetail` (see applyDelete). */
const keptDetails = new WeakMap<QueryClient, Set<string>>();
function keptDetailsOf(queryClient: QueryClient): Set<string> {
  let kept = keptDetails.get(queryClient);
  if (!kept) keptDetails.set(queryClient, (kept = new Set()));
  return kept;
}
/** Whether this tab deleted or moved the document (its detail is never read again: it would answer 404). */
export function deletedHere(queryClient: QueryClient, receiptId: string): boolean {
  return keptDetails.get(queryClient)?.has(receiptId) ?? false;
}
const latestVersions = new WeakMap<QueryClient, Map<string, number>>();
const debounceTimers = new WeakMap<QueryClient, ReturnType<typeof setTimeout>>();

/** Refreshes held back while a bulk action runs (see holdRefreshes). */
interface Held {
  holds: number;
  counts: boolean;
  lists: Map<string, QueryKey>;
  /** Live documents that came while held: most are the bulk's own changes, which its answers bring too. */
  live: Receipt[];
}
const helds = new WeakMap<QueryClient, Held>();
function heldOf(queryClient: QueryClient): Held {
  let held = helds.get(queryClient);
  if (!held) helds.set(queryClient, (held = { holds: 0, counts: false, lists: new Map(), live: [] }));
  return held;
}

function refreshCountsNow(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: queryKeys.companies });
  void queryClient.invalidateQueries({ queryKey: ['receipts', 'total-documents'] });
}

function refreshCountsSoon(queryClient: QueryClient): void {
  const held = heldOf(queryClient);
  if (held.holds > 0) {
    held.counts = true;
    return;
  }
  const pending = debounceTimers.get(queryClient);
  if (pending) clearTimeout(pending);
  debounceTimers.set(
    queryClient,
    setTimeout(() => {
      debounceTimers.delete(queryClient);
      refreshCountsNow(queryClient);
    }, COUNTS_DEBOUNCE_MS),
  );
}

function invalidateList(queryClient: QueryClient, key: QueryKey): void {
  const held = heldOf(queryClient);
  if (held.holds > 0) held.lists.set(JSON.stringify(key), key);
  else void queryClient.invalidateQueries({ queryKey: key, exact: true });
}

function holdRefreshes(queryClient: QueryClient, applyLive: (receipts: Receipt[]) => void): () => void {
  const held = heldOf(queryClient);
  held.holds += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    held.holds -= 1;
    if (held.holds > 0) return;
    const live = held.live;
    held.live = [];
    // what the answers did not bring already (a colleague's change meanwhile): a version already applied is dropped
    if (live.length > 0) applyLive(live);
    const lists = [...held.lists.values()];
    const counts = held.counts;
    held.lists.clear();
    held.counts = false;
    for (const key of lists) void queryClient.invalidateQueries({ queryKey: key, exact: true });
    if (counts) {
      const pending = debounceTimers.get(queryClient);
      if (pending) clearTimeout(pending);
      debounceTimers.delete(queryClient);
      refreshCountsNow(queryClient);
    }
  };
}

/** One update of every cached list, the screens told once (a bulk answer is one render, not one per document). */
function applyToLists(queryClient: QueryClient, update: (data: ListData | undefined, list: ListKeyParams) => ListBatchUpdate): void {
  notifyManager.batch(() => {
    for (const [key, data] of queryClient.getQueriesData<ListData>({ queryKey: queryKeys.receiptLists })) {
      const list = key[2] as ListKeyParams | undefined;
      if (!list) continue;
      const result = update(data, list);
      if (result.data) queryClient.setQueryData(key, result.data);
      if (result.invalidate) invalidateList(queryClient, key);
    }
  });
}

function applyCompanies(queryClient: QueryClient, result: CompaniesUpdate): void {
  if (result.kind === 'set') queryClient.setQueryData<Company[]>(queryKeys.companies, result.data);
  else if (result.kind === 'invalidate') void queryClient.invalidateQueries({ queryKey: queryKeys.companies });
}

export function receiptCache(queryClient: QueryClient): ReceiptCache {
  const cache: ReceiptCache = {
    applyReceipt(receipt) {
      cache.applyReceipts([receipt]);
    },
    applyReceipts(receipts, options) {
      const held = heldOf(queryClient);
      if (options?.live && held.holds > 0) {
        // a bulk action runs: its answers bring these documents (one update per call); applied one by one as they
        // come, each would render the list again
        held.live.push(...receipts);
        return;
      }
      // the newest version seen of each document: a late older state (an HTTP answer overtaken by the live
      // event of the next change) must not come back into any list; a live event of the version the call's
      // answer already applied changes nothing either
      let seen = latestVersions.get(queryClient);
      if (!seen) latestVersions.set(queryClient, (seen = new Map()));
      const fresh: Receipt[] = [];
      for (const receipt of receipts) {
        if (typeof receipt.version === 'number') {
          const latest = seen.get(receipt.receipt_id);
          if (latest !== undefined && (receipt.version < latest || (options?.live && receipt.version === latest))) continue;
          seen.set(receipt.receipt_id, receipt.version);
        }
        fresh.push(receipt);
      }
      if (fresh.length === 0) return;
      const ids = new Set(fresh.map((r) => r.receipt_id));
      // Documents made from mail: Settings' "Mail received" of their company links them (read again when on screen).
      const mailed = new Set(fresh.flatMap((r) => (r.email_id && r.company_id ? [r.company_id] : [])));
      notifyManager.batch(() => {
        applyToLists(queryClient, (data, list) => applyReceiptsToList(data, list, fresh));
        void queryClient.invalidateQueries({ queryKey: ['receipts', 'detail'], predicate: (q) => ids.has(q.queryKey[2] as string) });
        for (const companyId of mailed) void queryClient.invalidateQueries({ queryKey: queryKeys.companyEmails(companyId) });
      });
      refreshCountsSoon(queryClient);
    },
    applyDelete(receiptId, options) {
      applyToLists(queryClient, (data) => {
        const result = applyDeleteToList(data, receiptId);
        return { data: result.kind === 'set' ? result.data : null, invalidate: false };
      });
      const kept = keptDetailsOf(queryClient);
      if (options?.keepDetail) kept.add(receiptId);
      else if (!kept.has(receiptId)) queryClient.removeQueries({ queryKey: ['receipts', 'detail', receiptId] });
      refreshCountsSoon(queryClient);
    },
    applyDeletes(receiptIds) {
      if (receiptIds.length === 0) return;
      const ids = new Set(receiptIds);
      applyToLists(queryClient, (data) => {
        if (!data?.pages.some((p) => p.items.some((r) => ids.has(r.receipt_id)))) return { data: null, invalidate: false };
        const pages = data.pages.map((p) => (p.items.some((r) => ids.has(r.receipt_id)) ? { ...p, items: p.items.filter((r) => !ids.has(r.receipt_id)) } : p));
        return { data: { ...data, pages }, invalidate: false };
      });
      queryClient.removeQueries({ queryKey: ['receipts', 'detail'], predicate: (q) => ids.has(q.queryKey[2] as string) });
      refreshCountsSoon(queryClient);
    },
    holdRefreshes() {
      return holdRefreshes(queryClient, (live) => cache.applyReceipts(live, { live: true }));
    },
    applyCompany(payload) {
      const companies = queryClient.getQueryData<Company[]>(queryKeys.companies);
      // Another account owner (PUT /company/owner): the company's My Team cards change too.
      const ownerChanged = ownerChangedByCompanyEvent(companies, payload);
      applyCompanies(queryClient, applyCompanyEvent(companies, payload));
      if (ownerChanged) void queryClient.invalidateQueries({ queryKey: queryKeys.companyUsers(ownerChanged) });
    },
    applyCompanyDelete(payload, activeCompanyId) {
      const deletedId = companyIdOfPayload(payload);
      // the notice of an active company gone says it was deleted, not that access was taken away
      if (deletedId) recordCompanyDeleted(deletedId);
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
    refreshReadBefore(at) {
      const readBefore = (q: Query) => q.state.dataUpdatedAt < at || q.state.fetchStatus === 'fetching';
      for (const queryKey of LIVE_KEPT) void queryClient.invalidateQueries({ queryKey, predicate: readBefore });
    },
    refreshCounts() {
      refreshCountsSoon(queryClient);
    },
    cachedStatuses(receiptIds) {
      const ids = new Set(receiptIds);
      const out = new Map<string, string>();
      if (ids.size === 0) return out;
      for (const [, data] of queryClient.getQueriesData<ListData>({ queryKey: queryKeys.receiptLists })) {
        for (const page of data?.pages ?? []) for (const r of page.items) if (ids.has(r.receipt_id)) out.set(r.receipt_id, r.status);
      }
      for (const [key, data] of queryClient.getQueriesData<Receipt>({ queryKey: ['receipts', 'detail'] })) {
        const id = key[2] as string;
        if (ids.has(id) && data && typeof data.status === 'string') out.set(id, data.status);
      }
      return out;
    },
    watchUploads(uploadIds) {
      watchUploads(queryClient, uploadIds);
    },
  };
  return cache;
}

export function useReceiptCache(): ReceiptCache {
  const queryClient = useQueryClient();
  return useMemo(() => receiptCache(queryClient), [queryClient]);
}
