import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Box, ContentResponse, ExportFile, GridPart, PageBoxesResponse, SchemaField, ValueChange } from '../../../../../shared/schemas/content';
import { useApi } from '../../../app/api-context';
import type { Query } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import type { ReceiptDetail } from '../../receipts/api/types';

/** Query keys of the edit screen (content, schema, boxes, history, duplicates, the list it walks). */
export const editKeys = {
  content: (id: string, companyId: string) => ['edit-receipt', 'content', id, companyId] as const,
  boxes: (id: string, companyId: string) => ['edit-receipt', 'boxes', id, companyId] as const,
  history: (id: string, companyId: string) => ['edit-receipt', 'history', id, companyId] as const,
  duplicates: (id: string, companyId: string) => ['edit-receipt', 'duplicates', id, companyId] as const,
  schema: (companyId: string) => ['edit-receipt', 'schema', companyId] as const,
  /**
   * The walked list's neighbours of one document (`scope`: a company id or 'ALL'; `ctx`: the list and the document);
   * without them, every walk's (an action changes the lists of its company and of the all-companies view).
   */
  walk: (scope?: string, ctx?: Record<string, unknown>) => (scope !== undefined ? (['edit-receipt', 'walk', scope, ctx ?? {}] as const) : (['edit-receipt', 'walk'] as const)),
};


export interface HistoryItem {
  id: string;
  date: string;
  name: string;
  user: { name: string; surname: string };
}

export interface DuplicateItem {
  receipt_id: string;
  company_id: string | null;
  original_file_name: string;
  status: string;
  disabled_for_editing: boolean;
  /** The same file uploaded again, or another file of the same counterparty, number and total. */
  reason: 'same_file' | 'same_document';
  /** When it was uploaded. */
  created_at: string;
}

const enc = encodeURIComponent;

export function useContent(receiptId: string, companyId: string) {
  const api = useApi();
  return useQuery({
    queryKey: editKeys.content(receiptId, companyId),
    queryFn: ({ signal }) => api.get<ContentResponse>(`/receipts/${enc(receiptId)}/content`, { query: { company_id: companyId }, signal }),
    enabled: Boolean(receiptId),
    staleTime: 0,
  });
}

export function useCompanySchema(companyId: string) {
  const api = useApi();
  return useQuery({
    queryKey: editKeys.schema(companyId),
    queryFn: ({ signal }) => api.get<{ fields: SchemaField[] }>('/schemas', { query: { company_id: companyId }, signal }),
    enabled: Boolean(companyId) && companyId !== 'NONE',
    staleTime: 60_000,
  });
}

export function useBoxes(receiptId: string, companyId: string) {
  const api = useApi();
  return useQuery({
    queryKey: editKeys.boxes(receiptId, companyId),
    queryFn: ({ signal }) => api.get<{ pages: PageBoxesResponse[] }>(`/receipts/${enc(receiptId)}/bboxes`, { query: { company_id: companyId }, signal }),
    enabled: Boolean(receiptId),
    staleTime: 5 * 60_000,
  });
}

export function useHistory(receiptId: string, companyId: string, enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: editKeys.history(receiptId, companyId),
    queryFn: ({ signal }) => api.get<{ items: HistoryItem[] }>(`/receipts/${enc(receiptId)}/history`, { query: { company_id: companyId }, signal }),
    enabled: enabled && Boolean(receiptId),
  });
}

export function useDuplicates(receiptId: string, companyId: string, enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: editKeys.duplicates(receiptId, companyId),
    queryFn: ({ signal }) => api.get<{ items: DuplicateItem[] }>(`/receipts/${enc(receiptId)}/duplicates`, { query: { company_id: companyId }, signal }),
    enabled: enabled && Boolean(receiptId),
  });
}

/**
 * The content calls; each answer (the whole content with its version) replaces the cached content, and the
 * document's content and version in its cached GET /receipts/{id} (read again for nothing else: a save is one PUT).
 */
export function useContentCalls(receiptId: string, companyId: string) {
  const api = useApi();
  const qc = useQueryClient();
  return useMemo(() => {
    const q: Query = { company_id: companyId };
    const base = `/receipts/${enc(receiptId)}`;
    const store = (res: ContentResponse) => {
      qc.setQueryData(editKeys.content(receiptId, companyId), res);
      qc.setQueryData<ReceiptDetail>(queryKeys.receipt(receiptId, companyId), (detail) =>
        detail && detail.version <= res.version ? { ...detail, content: res.content, version: res.version, available_template: res.available_template } : detail,
      );
      void qc.invalidateQueries({ queryKey: editKeys.history(receiptId, companyId) });
      return res;
    };
    return {
      save: (version: number, items: ValueChange[]) => api.put<ContentResponse>(`${base}/content`, { version, items }, { query: q }).then(store),
      select: (version: number, contentId: string, input: { page: number; position: Box; file: string | null; is_related_content: boolean }) =>
        api
          .post<ContentResponse>(`${base}/content/${enc(contentId)}/select`, { version, receipt_id: receiptId, content_id: contentId, ...input }, { query: q })
          .then(store),
      addLine: (version: number, multivalueId: string, after?: string) =>
        api.post<ContentResponse & { added: string }>(`${base}/content/${enc(multivalueId)}`, { version, after: after ?? null }, { query: q }).then((r) => {
          store(r);
          return r;
        }),
      deleteLine: (version: number, rowId: string) => api.del<ContentResponse>(`${base}/content/${enc(rowId)}`, { query: { ...q, version } }).then(store),
      moveLine: (version: number, rowId: string, position: number) =>
        api.put<ContentResponse>(`${base}/content/move`, { version, id: rowId, position }, { query: q }).then(store),
      validate: (items: { id: string; value: string }[]) => api.post<{ errors: { id: string; message: string }[] }>(`${base}/content/validate`, { items }, { query: q }),
      applyGrid: (version: number, parts: GridPart[], contentId = 'line_items') =>
        api.post<ContentResponse>(`${base}/grid`, { version, content_id: contentId, parts }, { query: q }).then(store),
      saveTemplate: () => api.post<ContentResponse>(`${base}/template/grid`, {}, { query: q }).then(store),
      useTemplate: (version: number) => api.put<ContentResponse>(`${base}/template/grid`, { version }, { query: q }).then(store),
      exportFile: (query: Query) => api.get<ExportFile>(`${base}/export`, { query: { ...q, ...query } }),
      refresh: () => qc.invalidateQueries({ queryKey: editKeys.content(receiptId, companyId) }),
    };
  }, [api, qc, receiptId, companyId]);
}
