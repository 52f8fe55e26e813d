/**
 * Master data on the edit screen: whether the supplier/customer is new (GET /isNewStakeholder), the company's
 * stakeholders offered while typing a name (GET /stakeholders?search_name=), and its categories (GET /categories).
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { Category, ListPage, Stakeholder } from '../../../../../shared/schemas/master-data';
import { useApi } from '../../../app/api-context';

/** Stakeholder look-ups while typing wait this long after the last key (rules.md: 500 ms on the edit screen). */
export const STAKEHOLDER_DEBOUNCE_MS = 500;
/** Suggestions shown under the name field. */
export const SUGGESTIONS = 8;

/** The value, once it has not changed for `ms` (compare by value: pass strings or numbers). */
export function useDebounced<T extends string | number>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(t);
  }, [value, ms]);
  return settled;
}

export function useIsNewStakeholder(companyId: string, type: 'supplier' | 'customer', name: string, code: string) {
  const api = useApi();
  // A string, so that an unchanged name and code settle once.
  const [qName = '', qCode = ''] = useDebounced(`${name.trim()}\u0000${code.trim()}`, STAKEHOLDER_DEBOUNCE_MS).split('\u0000');
  const q = { name: qName, code: qCode };
  return useQuery({
    queryKey: ['edit-receipt', 'is-new-stakeholder', companyId, type, q.name, q.code],
    queryFn: ({ signal }) =>
      api
        .get<{ isNewStakeholder: boolean; stakeholder: Stakeholder | null }>('/isNewStakeholder', { query: { company_id: companyId, type, name: q.name, code: q.code }, signal })
        .then((r) => ({ ...r, name: q.name, code: q.code })),
    enabled: companyId !== 'NONE' && (q.name !== '' || q.code !== ''),
    retry: false,
    staleTime: 30_000,
  });
}

export function useStakeholderSuggestions(companyId: string, type: 'supplier' | 'customer', search: string, enabled: boolean) {
  const api = useApi();
  const term = useDebounced(search.trim(), STAKEHOLDER_DEBOUNCE_MS);
  return useQuery({
    queryKey: ['edit-receipt', 'stakeholder-suggestions', companyId, type, term],
    queryFn: ({ signal }) =>
      api
        .get<ListPage<Stakeholder>>('/stakeholders', { query: { company_id: companyId, type, search_name: term, with_external_data: 1, limit: SUGGESTIONS }, signal })
        .then((p) => p?.items ?? []),
    enabled: enabled && companyId !== 'NONE' && term.length >= 1,
    retry: false,
    staleTime: 30_000,
  });
}

/** The company's categories for the document's category (the first page, sorted by name). */
export function useCategories(companyId: string) {
  const api = useApi();
  return useQuery({
    queryKey: ['edit-receipt', 'categories', companyId],
    queryFn: ({ signal }) => api.get<ListPage<Category>>('/categories', { query: { company_id: companyId, with_external_data: 1 }, signal }).then((p) => p?.items ?? []),
    enabled: companyId !== 'NONE',
    retry: false,
    staleTime: 60_000,
  });
}
