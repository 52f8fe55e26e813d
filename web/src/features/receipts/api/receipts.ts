import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import type { Company } from '../../../../../shared/schemas/company';
import type { ListStatus } from '../../../../../shared/status';
import { useApi } from '../../../app/api-context';
import type { ApiClient } from '../../../lib/api-client';
import { ApiError } from '../../../lib/api-error';
import { MSG } from '../../../../../shared/schemas/messages';
import { queryKeys } from '../../../lib/query-keys';
import { useActiveCompany } from '../../companies/api/companies';
import { receiptOfPayload } from '../../live/lib/cache-updates';
import { useReceiptCache } from '../../live/use-receipt-cache';
import { mapLimited } from '../lib/concurrency';
import { listKeyParams, listQuery, nextCursor, type ListCursor, type ListFilters, type ListScope } from '../lib/list-params';
import { NO_COMPANY } from '../lib/row-rules';
import type { EmailRecord, Receipt, ReceiptDetail, ReceiptListPage, ReceiptPreview, ReceiptType } from './types';

/** One company, or every company of the user in the all-companies view; null while the companies load. */
export function useListScope(): ListScope | null {
  const view = useActiveCompany();
  if (view.isLoading) return null;
  if (view.allCompanies) return { kind: 'all' };
  return view.active ? { kind: 'company', companyId: view.active.company_id } : null;
}

/** The company a document's calls name: its own (rows of the all-companies view differ), NONE when unassigned. */
export function companyOf(receipt: Pick<Receipt, 'company_id'>): string {
  return receipt.company_id || NO_COMPANY;
}

export const UNASSIGNED_POLL_MS = 4000;

/** Some document of the pages belongs to no company and is still being processed. */
export function hasUnassignedInProgress(pages: ReadonlyArray<ReceiptListPage> | undefined): boolean {
  return Boolean(pages?.some((p) => p.items.some((r) => !r.company_id && (r.status === 'processing' || r.status === 'converting'))));
}

/** GET /receipts, page by page (next / next_company), 50 at a time. */
export function useReceiptList(status: ListStatus, filters: ListFilters) {
  const api = useApi();
  const scope = useListScope();
  const params = scope ? listKeyParams(status, filters, scope) : null;
  return useInfiniteQuery({
    queryKey: queryKeys.receiptList(params ?? { scope: null }),
    enabled: scope !== null,
    initialPageParam: undefined as ListCursor | undefined,
    queryFn: async ({ pageParam, signal }) => {
      const page = await api.get<ReceiptListPage>('/receipts', { query: listQuery(status, filters, scope!, pageParam), signal });
      return { items: page?.items ?? [], next: page?.next ?? null, next_company: page?.next_company ?? null };
    },
    getNextPageParam: (last) => nextCursor(last),
    // documents without a company (uploads of the all-companies view) have no live channel: while one of
    // them is being processed the list is reloaded every few seconds
    refetchInterval: (query) => (hasUnassignedInProgress(query.state.data?.pages) ? UNASSIGNED_POLL_MS : false),
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
  return useQuery({
    queryKey: queryKeys.receipt(receiptId ?? '', companyId),
    queryFn: ({ signal }) =>
      api.get<ReceiptDetail>(`/receipts/${encodeURIComponent(receiptId!)}`, { query: { company_id: companyId || undefined }, signal }),
    enabled: Boolean(receiptId),
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
  | { action: 'status'; status: 'archive' | 'unarchive' }
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
 * POST /receipts/bulk for the selected documents: one call per company (rows of the all-companies view differ)
 * and per 100 ids (25 for Send); the answer says per document how it went.
 */
async function bulk(
  api: ApiClient,
  receipts: ReadonlyArray<Receipt>,
  body: BulkAction,
  onResult: (receipt: Receipt, answer: Receipt | undefined) => void,
  chunkSize = BULK_MAX,
): Promise<ActionOutcome> {
  const groups = new Map<string, Receipt[]>();
  for (const r of receipts) groups.set(companyOf(r), [...(groups.get(companyOf(r)) ?? []), r]);
  const calls: Array<{ companyId: string; chunk: Receipt[] }> = [];
  for (const [companyId, group] of groups) {
    for (let i = 0; i < group.length; i += chunkSize) calls.push({ companyId, chunk: group.slice(i, i + chunkSize) });
  }
  const outcome: ActionOutcome = { done: 0, failed: [] };
  const answers = await mapLimited(calls, 2, ({ companyId, chunk }) =>
    api.post<BulkAnswer>('/receipts/bulk', { ...body, receipt_ids: chunk.map((r) => r.receipt_id) }, { query: { company_id: companyId } }),
  );
  answers.forEach((answer, i) => {
    const chunk = calls[i]!.chunk;
    if (!answer.ok) {
      for (const receipt of chunk) outcome.failed.push({ receipt, error: answer.error });
      return;
    }
    const byId = new Map((answer.value?.results ?? []).map((x) => [x.receipt_id, x]));
    for (const receipt of chunk) {
      const result = byId.get(receipt.receipt_id);
      if (result?.ok) {
        outcome.done += 1;
        onResult(receipt, result.receipt);
      } else {
        outcome.failed.push({ receipt, error: new ApiError(result?.status ?? 500, 'Error', result?.message || MSG.somethingWrong) });
      }
    }
  });
  return outcome;
}

const path = (prefix: string, receipt: Receipt, suffix = '') => `${prefix}/${encodeURIComponent(receipt.receipt_id)}${suffix}`;

/** The document actions of the list (rules.md 7): bulk status, flag, type and delete, and restart; the caches follow the answers. */
export function useReceiptActions() {
  const api: ApiClient = useApi();
  const cache = useReceiptCache();

  const afterChange = useCallback(
    (receipt: Receipt, answer: unknown, patch: Partial<Receipt>) => {
      const updated = receiptOfPayload(answer);
      cache.applyReceipt(updated ?? ({ ...receipt, ...patch } as Receipt));
    },
    [cache],
  );

  return useMemo(
    () => ({
      setStatus: (receipts: ReadonlyArray<Receipt>, status: 'archive' | 'unarchive') =>
        bulk(api, receipts, { action: 'status', status }, (r, answer) =>
          afterChange(r, answer, { status: status === 'archive' ? 'archive' : 'review' }),
        ),
      /** Integrations: confirm and queue for the company's export targets (the list's Send, and Send again). */
      send: (receipts: ReadonlyArray<Receipt>) =>
        bulk(api, receipts, { action: 'send' }, (r, answer) => afterChange(r, answer, { status: 'archive' }), SEND_CHUNK),
      setFlag: (receipts: ReadonlyArray<Receipt>, flag: boolean) =>
        bulk(api, receipts, { action: 'flag', flag }, (r, answer) => afterChange(r, answer, { flag })),
      convert: (receipts: ReadonlyArray<Receipt>, receiptType: ReceiptType) =>
        bulk(
          api,
          receipts.filter((r) => r.receipt_type !== receiptType),
          { action: 'type', receipt_type: receiptType },
          (r, answer) => afterChange(r, answer, { receipt_type: receiptType }),
        ),
      /** Unassigned documents are deleted one by one (DELETE receipt/{id}?unassigned=1), the others in bulk. */
      remove: async (receipts: ReadonlyArray<Receipt>) => {
        const unassigned = receipts.filter((r) => r.status === 'unassigned');
        const assigned = receipts.filter((r) => r.status !== 'unassigned');
        const [a, b] = await Promise.all([
          bulk(api, assigned, { action: 'delete' }, (r) => cache.applyDelete(r.receipt_id)),
          eachReceipt(
            unassigned,
            (r) => api.del(path('/receipt', r), { query: { company_id: companyOf(r), unassigned: 1 } }),
            (r) => cache.applyDelete(r.receipt_id),
          ),
        ]);
        return { done: a.done + b.done, failed: [...a.failed, ...b.failed] };
      },
      restart: (receipt: Receipt) =>
        eachReceipt(
          [receipt],
          (r) => api.post(path('/receipts', r, '/restart'), { version: r.version }, { query: { company_id: companyOf(r) } }),
          (r, answer) => afterChange(r, answer, { can_be_restarted: false, status: 'processing' }),
        ),
    }),
    [api, cache, afterChange],
  );
}
