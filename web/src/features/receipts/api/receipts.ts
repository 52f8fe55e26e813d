import { hashKey, useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Company } from '../../../../../shared/schemas/company';
import type { ListStatus } from '../../../../../shared/status';
import { useApi } from '../../../app/api-context';
import type { ApiClient } from '../../../lib/api-client';
import { ApiError } from '../../../lib/api-error';
import { DEFAULT_STALE_MS } from '../../../lib/query-client';
import { MSG } from '../../../../../shared/schemas/messages';
import { queryKeys } from '../../../lib/query-keys';
import { useActiveCompany, type ActiveCompanyView } from '../../companies/api/companies';
import { receiptOfPayload } from '../../live/lib/cache-updates';
import { liveStatus } from '../../live/lib/live-status';
import { deletedHere, useReceiptCache } from '../../live/use-receipt-cache';
import { mapLimited } from '../lib/concurrency';
import { listKeyParams, listQuery, nextCursor, type ListCursor, type ListFilters, type ListKeyParams, type ListScope } from '../lib/list-params';
import { NO_COMPANY } from '../lib/row-rules';
import type { EmailRecord, Receipt, ReceiptDetail, ReceiptListPage, ReceiptPreview, ReceiptType } from './types';

/**
 * One company, or every company of the user in the all-companies view; null while the companies load, and when
 * the user has none (hasNoCompany: the screens then say so instead of waiting for a list never asked for).
 */
export function useListScope(): ListScope | null {
  const view = useActiveCompany();
  if (view.isLoading) return null;
  if (view.allCompanies) return { kind: 'all' };
  return view.active ? { kind: 'company', companyId: view.active.company_id } : null;
}

/**
 * The companies are loaded and the user has none (removed from their only company, or never added one): the
 * lists and master-data screens show the way to ADD COMPANY, and nothing that needs a company is offered.
 */
export function hasNoCompany(view: Pick<ActiveCompanyView, 'isLoading' | 'isError' | 'allCompanies' | 'active'>): boolean {
  return !view.isLoading && !view.isError && !view.allCompanies && !view.active;
}

/** The company a document's calls name: its own (rows of the all-companies view differ), NONE when unassigned. */
export function companyOf(receipt: Pick<Receipt, 'company_id'>): string {
  return receipt.company_id || NO_COMPANY;
}

export const UNASSIGNED_POLL_MS = 4000;

const unassignedInProgress = new WeakMap<ReceiptListPage, boolean>();

/**
 * Some document of the pages belongs to no company and is still being processed. Asked after every change of the
 * list (refetchInterval): a page's answer is kept, so only the pages that changed are read again.
 */
export function hasUnassignedInProgress(pages: ReadonlyArray<ReceiptListPage> | undefined): boolean {
  return Boolean(
    pages?.some((p) => {
      let known = unassignedInProgress.get(p);
      if (known === undefined) {
        known = p.items.some((r) => !r.company_id && (r.status === 'processing' || r.status === 'converting'));
        unassignedInProgress.set(p, known);
      }
      return known;
    }),
  );
}

/** When each list (by query hash) was last read from its first page: what the live channel keeps current since. */
const listReadAt = new Map<string, number>();

/**
 * A list the live channel keeps current (its company followed, no break since the list was read) is not read
 * again when its screen comes back or the window gets the focus: a refetch reads every loaded page again, one
 * after the other (20 calls for 1,000 rows). Documents without a company get no live events (Unassigned).
 */
export function coveredByLive(query: { queryHash: string }, params: ListKeyParams | null): boolean {
  if (!params || params.status === 'unassigned') return false;
  const readAt = listReadAt.get(query.queryHash);
  return readAt !== undefined && liveStatus.covers(params.scope, readAt);
}

/** GET /receipts, page by page (next / next_company), 50 at a time. */
export function useReceiptList(status: ListStatus, filters: ListFilters) {
  const api = useApi();
  const scope = useListScope();
  const params = scope ? listKeyParams(status, filters, scope) : null;
  const queryKey = queryKeys.receiptList(params ?? { scope: null });
  return useInfiniteQuery({
    queryKey,
    enabled: scope !== null,
    initialPageParam: undefined as ListCursor | undefined,
    queryFn: async ({ pageParam, signal }) => {
      const startedAt = Date.now();
      const page = await api.get<ReceiptListPage>('/receipts', { query: listQuery(status, filters, scope!, pageParam), signal });
      if (pageParam === undefined) listReadAt.set(hashKey(queryKey), startedAt);
      return { items: page?.items ?? [], next: page?.next ?? null, next_company: page?.next_company ?? null };
    },
    getNextPageParam: (last) => nextCursor(last),
    // documents without a company (uploads of the all-companies view) have no live channel: while one of
    // them is being processed the list is reloaded every few seconds
    refetchInterval: (query) => (hasUnassignedInProgress(query.state.data?.pages) ? UNASSIGNED_POLL_MS : false),
    staleTime: (query) => (coveredByLive(query, params) ? Infinity : DEFAULT_STALE_MS),
    refetchOnWindowFocus: (query) => !coveredByLive(query, params),
  });
}

/**
 * GET /receipts/total-documents for the side-menu badges: counts by status per type of the active company
 * (or of every company, selected=ALL); `unassigned` counts the user's documents that have no company yet.
 */
export function useTotalDocuments() {
  const scope = useListScope();
  return useDocumentCounts(scope ? (scope.kind === 'all' ? 'ALL' : scope.companyId) : null);
}

/** The counts of one company (a company id) or of every company ('ALL'); nothing is asked for null. */
export function useDocumentCounts(key: string | null) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.totalDocuments(key ?? ''),
    queryFn: ({ signal }) =>
      api.get<Company['counts']>('/receipts/total-documents', {
        query: key === 'ALL' ? { selected: 'ALL' } : { company_id: key ?? '' },
        signal,
      }),
    enabled: key !== null,
  });
}

/** GET /receipts/{id} with the document's company (pages with image URLs, content). */
export function useReceiptDetail(receiptId: string | undefined, companyId: string | undefined) {
  const api = useApi();
  const qc = useQueryClient();
  return useQuery({
    queryKey: queryKeys.receipt(receiptId ?? '', companyId),
    queryFn: ({ signal }) =>
      api.get<ReceiptDetail>(`/receipts/${encodeURIComponent(receiptId!)}`, { query: { company_id: companyId || undefined }, signal }),
    // a document this tab deleted keeps what its screen shows while the screen moves on, and is not read again
    enabled: Boolean(receiptId) && !deletedHere(qc, receiptId!),
  });
}

/** GET /receipts/{id}/preview: the page images and the main values, for the full-picture preview. */
export function useReceiptPreview(receiptId: string, companyId: string) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.receiptPreview(receiptId, companyId),
    queryFn: ({ signal }) =>
      api.get<ReceiptPreview>(`/receipts/${encodeURIComponent(receiptId)}/preview`, { query: { company_id: companyId }, signal }),
  });
}

/** GET /emails/{id}: the email a document arrived with. */
export function useEmail(emailId: string | null | undefined, companyId: string | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.email(emailId ?? '', companyId),
    queryFn: ({ signal }) => api.get<EmailRecord>(`/emails/${encodeURIComponent(emailId!)}`, { query: { company_id: companyId }, signal }),
    enabled: Boolean(emailId),
  });
}

export interface ActionOutcome {
  done: number;
  failed: Array<{ receipt: Receipt; error: unknown }>;
}

async function eachReceipt(
  receipts: ReadonlyArray<Receipt>,
  call: (receipt: Receipt) => Promise<unknown>,
  onResult: (receipt: Receipt, answer: unknown) => void,
): Promise<ActionOutcome> {
  const results = await mapLimited(receipts, 4, call);
  const outcome: ActionOutcome = { done: 0, failed: [] };
  results.forEach((r, i) => {
    const receipt = receipts[i]!;
    if (r.ok) {
      outcome.done += 1;
      onResult(receipt, r.value);
    } else outcome.failed.push({ receipt, error: r.error });
  });
  return outcome;
}

type BulkAction =
  | { action: 'status'; status: 'archive' | 'unarchive'; versions?: ReadonlyMap<string, number> }
  | { action: 'flag'; flag: boolean }
  | { action: 'type'; receipt_type: ReceiptType }
  | { action: 'send' }
  | { action: 'delete' };

interface BulkAnswer {
  results?: Array<{ receipt_id: string; ok: boolean; status?: number; message?: string; receipt?: Receipt }>;
}

/** The most ids one POST /receipts/bulk takes. */
export const BULK_MAX = 100;
/**
 * Ids per call of the list's Send: each document is confirmed as the edit screen confirms it (validated, its
 * supplier linked, its layout learnt), about 0.1 s a document, so 25 keep a call far within the API's 29 s.
 */
export const SEND_CHUNK = 25;

/**
 * The body of one POST /receipts/bulk call for `ids`: a status change that names versions (the export pop-up's
 * "Move items to archive after export") sends those of the call's documents, so one changed since is refused.
 */
export function bulkCallBody(body: BulkAction, ids: ReadonlyArray<string>): Record<string, unknown> {
  if (body.action !== 'status' || !body.versions) return { ...body, receipt_ids: [...ids] };
  const versions: Record<string, number> = {};
  for (const id of ids) {
    const version = body.versions.get(id);
    if (version !== undefined) versions[id] = version;
  }
  return { action: body.action, status: body.status, receipt_ids: [...ids], versions };
}

/**
 * POST /receipts/bulk for the selected documents: one call per company (rows of the all-companies view differ)
 * and per 100 ids (25 for Send); the answer says per document how it went. The documents of each answer are
 * handed over together as it arrives (`onResults`: one update of the caches per call, not one per document).
 */
async function bulk(
  api: ApiClient,
  receipts: ReadonlyArray<Receipt>,
  body: BulkAction,
  onResults: (done: ReadonlyArray<{ receipt: Receipt; answer: Receipt | undefined }>) => void,
  chunkSize = BULK_MAX,
): Promise<ActionOutcome> {
  const groups = new Map<string, Receipt[]>();
  for (const r of receipts) {
    const group = groups.get(companyOf(r));
    if (group) group.push(r);
    else groups.set(companyOf(r), [r]);
  }
  const calls: Array<{ companyId: string; chunk: Receipt[] }> = [];
  for (const [companyId, group] of groups) {
    for (let i = 0; i < group.length; i += chunkSize) calls.push({ companyId, chunk: group.slice(i, i + chunkSize) });
  }
  const outcome: ActionOutcome = { done: 0, failed: [] };
  await mapLimited(calls, 2, async ({ companyId, chunk }) => {
    let answer: BulkAnswer | undefined;
    try {
      answer = await api.post<BulkAnswer>('/receipts/bulk', bulkCallBody(body, chunk.map((r) => r.receipt_id)), { query: { company_id: companyId } });
    } catch (error) {
      for (const receipt of chunk) outcome.failed.push({ receipt, error });
      return;
    }
    const byId = new Map((answer?.results ?? []).map((x) => [x.receipt_id, x]));
    const done: Array<{ receipt: Receipt; answer: Receipt | undefined }> = [];
    for (const receipt of chunk) {
      const result = byId.get(receipt.receipt_id);
      if (result?.ok) {
        outcome.done += 1;
        done.push({ receipt, answer: result.receipt });
      } else {
        outcome.failed.push({ receipt, error: new ApiError(result?.status ?? 500, 'Error', result?.message || MSG.somethingWrong) });
      }
    }
    if (done.length > 0) onResults(done);
  });
  return outcome;
}

const path = (prefix: string, receipt: Receipt, suffix = '') => `${prefix}/${encodeURIComponent(receipt.receipt_id)}${suffix}`;

/** The document actions of the list (rules.md 7): bulk status, flag, type and delete, and restart; the caches follow the answers. */
export function useReceiptActions() {
  const api: ApiClient = useApi();
  const cache = useReceiptCache();

  return useMemo(() => {
    /** The documents a call changed, into every cached list at once: the answer's document, or the change made. */
    const afterChanges = (done: ReadonlyArray<{ receipt: Receipt; answer: unknown }>, patch: (r: Receipt) => Partial<Receipt>) =>
      cache.applyReceipts(done.map(({ receipt, answer }) => receiptOfPayload(answer) ?? ({ ...receipt, ...patch(receipt) } as Receipt)));
    /** A bulk action refetches the counts (and the lists it cannot update here) once, when its last call is answered. */
    const held = async (task: () => Promise<ActionOutcome>) => {
      const release = cache.holdRefreshes();
      try {
        return await task();
      } finally {
        release();
      }
    };
    return {
      /**
       * The list's buttons change the documents as they stand (no versions); the export pop-up names the version
       * of each document its file holds (`versions`), and one changed since is refused (409) and stays.
       */
      setStatus: (receipts: ReadonlyArray<Receipt>, status: 'archive' | 'unarchive', versions?: ReadonlyMap<string, number>) =>
        held(() => bulk(api, receipts, { action: 'status', status, versions }, (done) => afterChanges(done, () => ({ status: status === 'archive' ? 'archive' : 'review' })))),
      /** Integrations: confirm and queue for the company's export targets (the list's Send, and Send again). */
      send: (receipts: ReadonlyArray<Receipt>) =>
        held(() => bulk(api, receipts, { action: 'send' }, (done) => afterChanges(done, () => ({ status: 'archive' })), SEND_CHUNK)),
      setFlag: (receipts: ReadonlyArray<Receipt>, flag: boolean) =>
        held(() => bulk(api, receipts, { action: 'flag', flag }, (done) => afterChanges(done, () => ({ flag })))),
      convert: (receipts: ReadonlyArray<Receipt>, receiptType: ReceiptType) =>
        held(() =>
          bulk(
            api,
            receipts.filter((r) => r.receipt_type !== receiptType),
            { action: 'type', receipt_type: receiptType },
            (done) => afterChanges(done, () => ({ receipt_type: receiptType })),
          ),
        ),
      /** Unassigned documents are deleted one by one (DELETE receipt/{id}?unassigned=1), the others in bulk. */
      remove: (receipts: ReadonlyArray<Receipt>) =>
        held(async () => {
          const unassigned = receipts.filter((r) => r.status === 'unassigned');
          const assigned = receipts.filter((r) => r.status !== 'unassigned');
          const [a, b] = await Promise.all([
            bulk(api, assigned, { action: 'delete' }, (done) => cache.applyDeletes(done.map(({ receipt }) => receipt.receipt_id))),
            eachReceipt(
              unassigned,
              (r) => api.del(path('/receipt', r), { query: { company_id: companyOf(r), unassigned: 1, version: r.version } }),
              (r) => cache.applyDelete(r.receipt_id),
            ),
          ]);
          return { done: a.done + b.done, failed: [...a.failed, ...b.failed] };
        }),
      restart: (receipt: Receipt) =>
        eachReceipt(
          [receipt],
          (r) => api.post(path('/receipts', r, '/restart'), { version: r.version }, { query: { company_id: companyOf(r) } }),
          (r, answer) => afterChanges([{ receipt: r, answer }], () => ({ can_be_restarted: false, status: 'processing' })),
        ),
    };
  }, [api, cache]);
}
