/**
 * Master data on the edit screen: whether the supplier/customer is new (GET /isNewStakeholder), the company's
 * stakeholders offered while typing a name (GET /stakeholders?search_name=), its categories (GET /categories) and
 * its items offered while typing a line item's description (GET /items?search_name=).
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { Category, Item, ListPage, Stakeholder } from '../../../../../shared/schemas/master-data';
import { useApi } from '../../../app/api-context';
import type { Query } from '../../../lib/api-client';
import { readSearchPages } from '../../master-data/lib/screens';

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

/**
 * The edit screen's answers about suppliers and customers (is it new, the suggestions): an action may add one (CONFIRM
 * adds a new supplier or customer), so they are asked again after it.
 */
export const STAKEHOLDER_ANSWERS_KEY = ['edit-receipt', 'stakeholders'] as const;

export function useIsNewStakeholder(companyId: string, type: 'supplier' | 'customer', name: string, code: string) {
  const api = useApi();
  // A string, so that an unchanged name and code settle once.
  const [qName = '', qCode = ''] = useDebounced(`${name.trim()}\u0000${code.trim()}`, STAKEHOLDER_DEBOUNCE_MS).split('\u0000');
  const q = { name: qName, code: qCode };
  return useQuery({
    queryKey: [...STAKEHOLDER_ANSWERS_KEY, 'is-new', companyId, type, q.name, q.code],
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
    queryKey: [...STAKEHOLDER_ANSWERS_KEY, 'suggestions', companyId, type, term],
    // A page of a search may stop short of 8 (even at none) while more exist: read on, a few pages at most.
    queryFn: ({ signal }) =>
      readSearchPages(
        (next) => api.get<ListPage<Stakeholder>>('/stakeholders', { query: { company_id: companyId, type, search_name: term, with_external_data: 1, limit: SUGGESTIONS, next }, signal }),
        SUGGESTIONS,
      ).then((r) => r.items),
    enabled: enabled && companyId !== 'NONE' && term.length >= 1,
    retry: false,
    staleTime: 30_000,
  });
}

/** The category search is sent this long after typing stops (rules.md 9, "500 or 1000 ms elsewhere"). */
export const CATEGORY_SEARCH_MS = 500;
/** Categories the edit screen reads to name the document's category options (the first page, by name). */
export const CATEGORY_OPTIONS = 50;

/**
 * The company's first categories by name, which the document's category names its options from (the Category
 * dropdown itself searches and pages them: `useCategoryChoices`).
 */
export function useCategories(companyId: string) {
  const api = useApi();
  return useQuery({
    queryKey: ['edit-receipt', 'categories', companyId],
    queryFn: ({ signal }) =>
      readSearchPages(
        (next) => api.get<ListPage<Category>>('/categories', { query: { company_id: companyId, with_external_data: 1, limit: CATEGORY_OPTIONS, next }, signal }),
        CATEGORY_OPTIONS,
        1,
      ).then((r) => r.items),
    enabled: companyId !== 'NONE',
    retry: false,
    staleTime: 60_000,
    placeholderData: (previous) => previous,
  });
}

/** The item search is sent this long after typing stops in a line item's description (rules.md 9, as the name field's). */
export const ITEM_SEARCH_MS = STAKEHOLDER_DEBOUNCE_MS;
/** Items offered under a line item's description (as many as the name field's suggestions). */
export const ITEM_OPTIONS = SUGGESTIONS;

/** GET /items of one company: its items whose name has words starting like those of `name` (sorted by name). */
export function itemsQuery(companyId: string, name: string, next?: string): Query {
  return { company_id: companyId, limit: ITEM_OPTIONS, search_name: name || undefined, next };
}

/**
 * The company's items for a line item's description, searched by name on the server (no search: the first
 * ITEM_OPTIONS). 'NONE' (a document of no company, or nothing typed) reads nothing.
 */
export function useItems(companyId: string, search = '') {
  const api = useApi();
  const name = search.trim();
  return useQuery({
    queryKey: ['edit-receipt', 'items', companyId, name],
    queryFn: ({ signal }) =>
      readSearchPages((next) => api.get<ListPage<Item>>('/items', { query: itemsQuery(companyId, name, next), signal }), ITEM_OPTIONS, name ? undefined : 1).then((r) => r.items),
    enabled: companyId !== 'NONE',
    retry: false,
    staleTime: 60_000,
    placeholderData: (previous) => previous,
  });
}
