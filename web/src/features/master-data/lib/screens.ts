import { LIST_PAGE_SIZE } from '../../../../../shared/constants';
import type { ImportType, StakeholderType } from '../../../../../shared/schemas/master-data';
import type { Company } from '../../../../../shared/schemas/company';
import type { Query } from '../../../lib/api-client';

/** The four master-data screens; the path decides which (product.md section 2). */
export type MasterKind = 'supplier' | 'customer' | 'category' | 'item';

export interface MasterScreen {
  kind: MasterKind;
  path: string;
  /** The page title (header, side menu) and the {title} of the empty state. */
  title: string;
  /** The list route. */
  listPath: '/stakeholders' | '/categories' | '/items';
  /** The import's upload_type (GET upload/import). */
  importType: ImportType;
}

export const MASTER_SCREENS: Record<MasterKind, MasterScreen> = {
  customer: { kind: 'customer', path: '/customers', title: 'Customers', listPath: '/stakeholders', importType: 'customers' },
  supplier: { kind: 'supplier', path: '/suppliers', title: 'Suppliers', listPath: '/stakeholders', importType: 'suppliers' },
  category: { kind: 'category', path: '/categories', title: 'Categories', listPath: '/categories', importType: 'categories' },
  item: { kind: 'item', path: '/items', title: 'Items', listPath: '/items', importType: 'items' },
};

/** The screen of a path (/suppliers, /customers/, …), or undefined for any other path. */
export function screenOfPath(pathname: string): MasterScreen | undefined {
  const path = pathname.replace(/\/+$/, '') || '/';
  return Object.values(MASTER_SCREENS).find((s) => s.path === path);
}

export function isStakeholderKind(kind: MasterKind): kind is StakeholderType {
  return kind === 'supplier' || kind === 'customer';
}

/**
 * Why a list may lack records a user added: its companies show only records imported by an integration (the
 * Integration page's Display switches, product.md), which the server's list then answers alone. Null when no
 * company of the view has the switch on for this list (items have none).
 */
export function importedOnlyNote(kind: MasterKind, companies: ReadonlyArray<Pick<Company, 'display_imported_stakeholders' | 'display_imported_categories'>>): string | null {
  if (kind === 'item') return null;
  if (kind === 'category') {
    return companies.some((c) => c.display_imported_categories) ? 'Only imported categories are shown: Display only imported categories is on in Integration.' : null;
  }
  return companies.some((c) => c.display_imported_stakeholders)
    ? 'Only imported suppliers and customers are shown: Display only imported suppliers and customers is on in Integration.'
    : null;
}

/** Empty state (rules.md 8): 'No {title} found'. */
export function emptyText(screen: MasterScreen): string {
  return `No ${screen.title} found`;
}

/**
 * What a list's card shows: its rows; "No {title} found" only when the server says nothing more exists; while
 * the pages read so far are empty but the server says more exist (a search page stopped by its read budget),
 * the search goes on.
 */
export function listBody(rowCount: number, hasNextPage: boolean): 'rows' | 'searching' | 'empty' {
  if (rowCount > 0) return 'rows';
  return hasNextPage ? 'searching' : 'empty';
}

/** Pages one answer of a dropdown or a picker reads at most. */
export const SEARCH_READ_PAGES = 5;

/**
 * Reads a server-searched list until `want` results are in, the server says there are no more, or `maxPages`
 * pages are read: a page of a search may come back short, even empty, with a next cursor.
 */
export async function readSearchPages<T>(
  fetchPage: (next: string | undefined) => Promise<{ items: T[]; next: string | null } | undefined | null>,
  want: number,
  maxPages = SEARCH_READ_PAGES,
): Promise<{ items: T[]; more: boolean }> {
  const read = await readSearchPagesFrom(fetchPage, want, undefined, maxPages);
  return { items: read.items.slice(0, want), more: read.next !== null };
}

/**
 * `readSearchPages` from a cursor (`start`; none: the first page), keeping every item read and answering where the
 * next read starts (`next`, null at the end): the pages of a dropdown that reads on as its list is scrolled.
 */
export async function readSearchPagesFrom<T>(
  fetchPage: (next: string | undefined) => Promise<{ items: T[]; next: string | null } | undefined | null>,
  want: number,
  start: string | undefined,
  maxPages = SEARCH_READ_PAGES,
): Promise<{ items: T[]; next: string | null }> {
  const items: T[] = [];
  let next = start;
  for (let pages = 0; pages < maxPages; pages++) {
    const page = await fetchPage(next);
    items.push(...(page?.items ?? []));
    next = page?.next || undefined;
    if (!next || items.length >= want) break;
  }
  return { items, next: next ?? null };
}

/** Whose master data a list shows: one company, or every company of the user (selected=ALL). */
export type MasterScope = { kind: 'company'; companyId: string } | { kind: 'all' };

export interface MasterCursor {
  next?: string | null;
  next_company?: string | null;
}

/**
 * The query of a master-data list (rules.md 7): type for stakeholders, search_name, with_external_data=1
 * (stakeholders and categories), limit 50, the paging cursors; selected=ALL in the all-companies view,
 * otherwise the company_id.
 */
export function masterListQuery(kind: MasterKind, search: string, scope: MasterScope, cursor?: MasterCursor): Query {
  const name = search.trim();
  const query: Query = { limit: LIST_PAGE_SIZE };
  if (isStakeholderKind(kind)) query.type = kind;
  if (kind !== 'item') query.with_external_data = 1;
  if (name) query.search_name = name;
  if (scope.kind === 'all') query.selected = 'ALL';
  else query.company_id = scope.companyId;
  if (cursor?.next) query.next = cursor.next;
  if (cursor?.next_company) query.next_company = cursor.next_company;
  return query;
}

/** The cursor of the page after `page`, or undefined when it was the last one. */
export function nextMasterCursor(page: { next?: string | null; next_company?: string | null } | undefined): MasterCursor | undefined {
  if (!page) return undefined;
  const next = page.next || null;
  const nextCompany = page.next_company || null;
  if (!next && !nextCompany) return undefined;
  return { next, next_company: nextCompany };
}

/** The identity of a list in the query cache (cursors are not part of it). */
export function masterListKey(kind: MasterKind, search: string, scope: MasterScope) {
  return { kind, search: search.trim(), scope: scope.kind === 'all' ? 'ALL' : scope.companyId };
}
