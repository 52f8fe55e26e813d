import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useApi } from '../../../app/api-context';
import { useDocumentCounts } from '../../receipts/api/receipts';
import type { ListScope } from '../../receipts/lib/list-params';
import { NO_COMPANY } from '../../receipts/lib/row-rules';
import { documentAfter, findNeighbours, inList, NEARBY_LIMIT, narrowed, walkQuery, walkTotal, type ListContext, type ListItem, type ListQuery, type Neighbours, type ReadList, type WalkDocument, type WalkHints, type WalkPage } from '../lib/navigation';
import { editKeys } from './content';

/** How long the neighbours found stay good: going back and forth within it reads nothing again. */
export const WALK_STALE_MS = 30_000;

export interface Walk {
  /** The document before this one in the list (newer); null at the start or while unknown. */
  previous: string | null;
  /** The document after this one (older); null at the end or while unknown. */
  next: string | null;
  /** This document's place in the list (1 = newest), when counted. */
  position: number | null;
  /**
   * How many documents the list holds (the company's counts; the place while those are unknown). A list its filters
   * narrow: as read from its start; null while unknown (longer than the pages read, or still reading).
   */
  total: number | null;
  /** The neighbours are still being looked for. */
  loading: boolean;
  /** Where to go after an edit action: the document after this one in the list as it is now (else its first). */
  after(): Promise<string | null>;
}

/**
 * The company of each document the walk has read, kept while the edit screen moves from document to document: in the
 * all-companies view the one before or after may be of another company, and opens with its company.
 */
export type WalkCompanies = Map<string, string>;

/** No scope to walk yet (the hook runs before it is known; nothing is read). */
const NO_SCOPE: ListScope = { kind: 'company', companyId: NO_COMPANY };

/** The key of a walk's scope: a company id, or 'ALL' for the all-companies view. */
const scopeKey = (scope: ListScope) => (scope.kind === 'all' ? 'ALL' : scope.companyId);

/**
 * GET /receipts of the walked list (of the document's company or, in the all-companies view, of every company; its
 * status — none for the inbox — and type, and the list's filters as the list page sends them: `walkQuery`), as the
 * walk reads it. The companies of the documents read go into `companies`.
 */
function useReadList(scope: ListScope, ctx: ListContext | null, companies?: WalkCompanies): ReadList {
  const api = useApi();
  return useCallback(
    async (q: ListQuery) => {
      const query = ctx ? walkQuery(scope, ctx, q) : null;
      // a window outside the list's date range holds none of it
      if (!query) return { items: [], next: null } satisfies WalkPage;
      const page = await api.get<{ items?: ListItem[]; next?: string | null }>('/receipts', { query });
      const items = page?.items ?? [];
      for (const item of items) if (item.company_id) companies?.set(item.receipt_id, item.company_id);
      return { items, next: page?.next ?? null } satisfies WalkPage;
    },
    [api, scope, ctx, companies],
  );
}

/**
 * The list the edit screen walks (product.md section 4: previous / next, n/total, the next document after an
 * action): the document's neighbours in GET /receipts of `scope` (its company, or every company in the all-companies
 * view), its status (none for the inbox) and type, with the list's search, date range and Duplicates filter, found
 * around its created_at without reading the list down to it (lib/navigation.ts findNeighbours). `hints`: what the
 * screen knew when it came here with previous/next. Kept WALK_STALE_MS: moving on reads only the new document's
 * neighbours. null scope: not known yet (the companies are loading).
 */
export function useWalk(scope: ListScope | null, ctx: ListContext | null, doc: WalkDocument | null, hints: WalkHints = {}, companies?: WalkCompanies): Walk {
  const walked = scope ?? NO_SCOPE;
  const enabled = scope !== null && ctx !== null && doc !== null && scopeKey(walked) !== NO_COMPANY;
  const read = useReadList(walked, ctx, companies);
  const query = useQuery({
    queryKey: editKeys.walk(scopeKey(walked), { ...(ctx ?? {}), receiptId: doc?.receipt_id ?? '' }),
    enabled,
    queryFn: () => findNeighbours(read, doc!, ctx!, hints),
    staleTime: WALK_STALE_MS,
  });
  const counts = useDocumentCounts(enabled ? scopeKey(walked) : null);
  // while the neighbours are read, what the screen brought from the document it came from (its place, the one
  // before or after) shows at once
  const found: Neighbours | undefined =
    query.data ?? (hints.position !== undefined ? { previous: hints.previous ?? null, next: hints.next ?? null, position: hints.position, nearby: [] } : undefined);
  // a list its filters narrow is counted as read (the counts are of the whole status list)
  const filtered = ctx !== null && narrowed(ctx);
  const listed = ctx ? (filtered ? (query.data?.total ?? null) : walkTotal(counts.data, ctx)) : null;
  const here = ctx !== null && doc !== null && inList(doc, ctx);
  // not counted (deep in the list): the last document's place is the list's size
  const last = !filtered && query.data && query.data.next === null && here ? listed : null;
  const position = found?.position ?? last;
  // a document out of the list (moved by a merge, a colleague) has a place where it would be, not one the list counts
  const total = filtered ? listed : Math.max(here ? (position ?? 0) : 0, listed ?? 0);

  const after = useCallback(async () => (ctx && doc && enabled ? documentAfter(read, doc, ctx) : null), [ctx, doc, enabled, read]);

  return { previous: found?.previous ?? null, next: found?.next ?? null, position, total, loading: enabled && query.isPending, after };
}

/**
 * Merge's candidates: the documents of the walked list around this one (read while the Merge panel is open), of the
 * document's company also in the all-companies view.
 */
export function useNearby(companyId: string, ctx: ListContext | null, doc: WalkDocument | null, open: boolean) {
  const enabled = open && ctx !== null && doc !== null && companyId !== NO_COMPANY;
  // only the document's company: documents merge within one company
  const scope = useMemo<ListScope>(() => ({ kind: 'company', companyId }), [companyId]);
  const read = useReadList(scope, ctx);
  const query = useQuery({
    queryKey: editKeys.walk(companyId, { ...(ctx ?? {}), receiptId: doc?.receipt_id ?? '', nearby: true }),
    enabled,
    // both sides of the document (its place is not counted)
    queryFn: async () => (await findNeighbours(read, doc!, ctx!, { position: null }, NEARBY_LIMIT)).nearby,
    staleTime: WALK_STALE_MS,
  });
  const items = useMemo(() => query.data ?? [], [query.data]);
  return { items, loading: enabled && query.isPending };
}
