import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { LIST_PAGE_SIZE } from '../../../../../shared/constants';
import type {
  Category,
  CreateCategoryInput,
  CreateItemInput,
  CreateStakeholderInput,
  Item,
  ListPage,
  Stakeholder,
  UpdateCategoryInput,
  UpdateItemInput,
  UpdateStakeholderInput,
} from '../../../../../shared/schemas/master-data';
import { useApi } from '../../../app/api-context';
import { queryKeys } from '../../../lib/query-keys';
import { useActiveCompany } from '../../companies/api/companies';
import { masterListKey, masterListQuery, nextMasterCursor, readSearchPagesFrom, type MasterCursor, type MasterKind, type MasterScope, type MasterScreen } from '../lib/screens';

/** A row of one of the four lists. */
export type MasterRecord = Stakeholder | Category | Item;

/**
 * One company, or every company of the user in the all-companies view; null while the companies load, and when the
 * user has none (the screen shows NoCompany then: hasNoCompany).
 */
export function useMasterScope(): MasterScope | null {
  const view = useActiveCompany();
  if (view.isLoading) return null;
  if (view.allCompanies) return { kind: 'all' };
  return view.active ? { kind: 'company', companyId: view.active.company_id } : null;
}

/** GET /stakeholders, /categories or /items, 50 a page (next / next_company), sorted by name by the server. */
export function useMasterList(screen: MasterScreen, search: string) {
  const api = useApi();
  const scope = useMasterScope();
  return useInfiniteQuery({
    queryKey: queryKeys.masterDataList(scope ? masterListKey(screen.kind, search, scope) : { kind: screen.kind, scope: null }),
    enabled: scope !== null,
    initialPageParam: undefined as MasterCursor | undefined,
    queryFn: async ({ pageParam, signal }): Promise<ListPage<MasterRecord>> => {
      const page = await api.get<ListPage<MasterRecord>>(screen.listPath, { query: masterListQuery(screen.kind, search, scope!, pageParam), signal });
      return { items: page?.items ?? [], next: page?.next ?? null, next_company: page?.next_company ?? null };
    },
    getNextPageParam: (last) => nextMasterCursor(last),
  });
}

/**
 * The categories of one company a Category dropdown offers (the supplier and customer forms, the edit screen),
 * searched by name on the server and sorted by name, 50 at a time: `loadMore` reads the next 50 (the dropdown calls it
 * when its list is scrolled to the end), so every category can be reached by scrolling as well as by typing.
 */
export function useCategoryChoices(companyId: string | undefined, search: string) {
  const api = useApi();
  const name = search.trim();
  const query = useInfiniteQuery({
    queryKey: queryKeys.categoryOptions(companyId ?? '', name),
    enabled: Boolean(companyId) && companyId !== 'NONE',
    initialPageParam: undefined as string | undefined,
    // A page of a search may come back short, even empty, with a next cursor: each read goes on to 50 found.
    queryFn: ({ pageParam, signal }) =>
      readSearchPagesFrom(
        (next) =>
          api.get<ListPage<Category>>('/categories', { query: { company_id: companyId, with_external_data: 1, limit: LIST_PAGE_SIZE, search_name: name || undefined, next }, signal }),
        LIST_PAGE_SIZE,
        pageParam,
      ),
    getNextPageParam: (last) => last.next ?? undefined,
    placeholderData: (previous) => previous,
  });
  const categories = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  return { categories, loading: query.isFetching, hasMore: hasNextPage, loadMore };
}

/** The company of a record's calls: its own (rows of the all-companies view differ). */
export function companyOfRecord(record: { company_id: string }): string {
  return record.company_id;
}

export type CreateInput =
  | { kind: 'supplier' | 'customer'; input: CreateStakeholderInput }
  | { kind: 'category'; input: CreateCategoryInput }
  | { kind: 'item'; input: CreateItemInput };

export type UpdateInput =
  | { kind: 'supplier' | 'customer'; input: UpdateStakeholderInput }
  | { kind: 'category'; input: UpdateCategoryInput }
  | { kind: 'item'; input: UpdateItemInput };

function writePath(kind: MasterKind): '/stakeholder' | '/category' | '/item' {
  return kind === 'category' ? '/category' : kind === 'item' ? '/item' : '/stakeholder';
}

/** The key a DELETE names: `?id=` for stakeholders and categories, `?name=` (the name_id) for items. */
export function deleteQuery(kind: MasterKind, record: MasterRecord): Record<string, string> {
  if (kind === 'item') return { name: (record as Item).name_id };
  return { id: (record as Stakeholder | Category).id };
}

/** The key of a row in its list. */
export function recordKey(record: MasterRecord): string {
  return 'name_id' in record ? `${record.company_id}:${record.name_id}` : `${record.company_id}:${record.id}`;
}

/** GET stakeholders/{id}: the supplier or customer as it is stored now (an edit pop-up's fresh start). */
export function useReadStakeholder() {
  const api = useApi();
  return useCallback(
    (s: Pick<Stakeholder, 'id' | 'company_id'>) => api.get<Stakeholder>(`/stakeholders/${encodeURIComponent(s.id)}`, { query: { company_id: s.company_id } }),
    [api],
  );
}

/** GET categories/{id}: one category as stored now (the edit pop-up after a refused save). */
export function useReadCategory() {
  const api = useApi();
  return useCallback(
    (c: Pick<Category, 'id' | 'company_id'>) => api.get<Category>(`/categories/${encodeURIComponent(c.id)}`, { query: { company_id: c.company_id } }),
    [api],
  );
}

/**
 * POST / PUT / DELETE of the master-data routes with the record's company (or the chosen company when
 * adding in the all-companies view); every success reloads the master-data lists.
 */
export function useMasterWrites() {
  const api = useApi();
  const queryClient = useQueryClient();
  const invalidate = () => queryClient.invalidateQueries({ queryKey: queryKeys.masterData });

  const create = useMutation({
    mutationFn: ({ companyId, body }: { companyId: string | undefined; body: CreateInput }) =>
      api.post<MasterRecord>(writePath(body.kind), body.input, { query: { company_id: companyId } }),
    onSuccess: invalidate,
  });
  const update = useMutation({
    mutationFn: ({ companyId, body }: { companyId: string; body: UpdateInput }) =>
      api.put<MasterRecord>(writePath(body.kind), body.input, { query: { company_id: companyId } }),
    onSuccess: invalidate,
  });
  const remove = useMutation({
    mutationFn: ({ kind, record }: { kind: MasterKind; record: MasterRecord }) =>
      api.del<{ deleted: boolean; id: string }>(writePath(kind), { query: { company_id: companyOfRecord(record), ...deleteQuery(kind, record) } }),
    onSuccess: invalidate,
  });
  return { create, update, remove };
}
