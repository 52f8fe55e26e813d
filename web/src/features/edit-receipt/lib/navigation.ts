/**
 * Moving between documents of the list the user came from (product.md section 4): in the inbox every status
 * except processing and unassigned counts; from a status list only that status. Only documents of the same
 * type (receipt / invoice) as the current one are walked after an action. The list's filters (its search, date
 * range, issue dates, Duplicates) go with every read, as the list sends them (`walkQuery`).
 */
import { LIST_PAGE_SIZE } from '../../../../../shared/constants';
import type { ReceiptStatus } from '../../../../../shared/status';
import type { Query } from '../../../lib/api-client';
import { formatDay } from '../../receipts/lib/dates';
import { EMPTY_FILTERS, filtersFromSearch, listQuery, typeParam, type ListFilters, type ListScope } from '../../receipts/lib/list-params';

export interface ListContext {
  inbox: boolean;
  /** The status list the user came from (ignored for the inbox). */
  status: ReceiptStatus;
  receiptType: 'receipt' | 'invoice';
  /** The list's filters as its address had them (`filtersFromSearch`); none: the whole status list. */
  filters?: ListFilters;
}

export interface ListItem {
  receipt_id: string;
  /** The document's company (in the all-companies view the walk goes from one company's documents to another's). */
  company_id?: string | null;
  status: ReceiptStatus;
  receipt_type: 'receipt' | 'invoice';
  created_at: string;
}

/**
 * The walked list: the status list (or the inbox) the document was opened from, with its filters as the list's
 * address had them (`listSearch`, `filtersFromSearch`); a list of one type (its checkboxes) walks that type, else the
 * document's.
 */
export function listContext(inbox: boolean, status: ReceiptStatus, receiptType: 'receipt' | 'invoice', listSearch?: string): ListContext {
  const filters = filtersFromSearch(new URLSearchParams(listSearch ?? ''));
  return { inbox, status, receiptType: typeParam(filters) ?? receiptType, filters };
}

export function inList(item: Pick<ListItem, 'status' | 'receipt_type'>, ctx: ListContext): boolean {
  if (item.receipt_type !== ctx.receiptType) return false;
  if (ctx.inbox) return item.status !== 'processing' && item.status !== 'unassigned' && item.status !== 'converting' && item.status !== 'saving';
  return item.status === ctx.status;
}

/** Where the list page of the context is: /receipts/inbox or /receipts/{status}. */
export function listPath(ctx: Pick<ListContext, 'inbox' | 'status'>): string {
  return `/receipts/${ctx.inbox ? 'inbox' : ctx.status}`;
}

/** A page of GET /receipts as the walk reads it (newest first; `next` continues below its last item). */
export interface WalkPage {
  items: ListItem[];
  next?: string | null;
}

/**
 * Where a document sorts in every list: newest first by created_at, then by receipt_id (the list's sort key,
 * `sortKeyOf` in lambdas/core/documents/list.ts).
 */
export const listKey = (d: Pick<ListItem, 'created_at' | 'receipt_id'>): string => `${d.created_at}#${d.receipt_id}`;

/**
 * One read of the walked list: GET /receipts of the list (its scope, status, type and filters: `walkQuery`) with
 * these. Both created_at bounds are inclusive (a full timestamp is one instant), so a read around a document also
 * returns it.
 */
export interface ListQuery {
  created_at_after?: string;
  created_at_before?: string;
  limit: number;
  next?: string;
}
export type ReadList = (query: ListQuery) => Promise<WalkPage>;

/**
 * The list's GET /receipts query as the list page sends it (`listQuery`): of the document's company, or of every company
 * in the all-companies view (one list newest first across them), the walk's status and type.
 */
function listOf(scope: ListScope, ctx: ListContext): Query {
  const list = listQuery('inbox', ctx.filters ?? EMPTY_FILTERS, scope);
  return { ...list, receipt_status: ctx.inbox ? undefined : ctx.status, receipt_type: ctx.receiptType };
}

// What a list's filters make of its query does not depend on whose list it is
const ANY_SCOPE: ListScope = { kind: 'all' };

/**
 * The list's range is of issue dates (`by_issue_date`): its created_at parameters are that range, so its reads
 * cannot take the walk's created_at windows; the walk reads it page by page from its start.
 */
export function byIssueDate(ctx: ListContext): boolean {
  return listOf(ANY_SCOPE, ctx).by_issue_date === 'true';
}

/** The list's filters leave out documents of its status and type (a search, a date range, Duplicates). */
export function narrowed(ctx: ListContext): boolean {
  const q = listOf(ANY_SCOPE, ctx);
  return Boolean(q.search_value || q.created_at_after || q.created_at_before || q.duplicate_id);
}

/**
 * What narrows the walked list, said beside n/total (Previous, Next and the move after an action go through those
 * documents only): the search as sent, the date range (of upload or of issue) and Duplicates; '' for a whole list.
 */
export function walkFilterText(ctx: ListContext): string {
  const f = ctx.filters;
  if (!f || !narrowed(ctx)) return '';
  const search = listOf(ANY_SCOPE, ctx).search_value;
  const parts: string[] = [];
  if (typeof search === 'string' && search) parts.push(`“${search}”`);
  if (f.dateFrom || f.dateTo) parts.push(`${f.byIssueDate ? 'Issued' : 'Uploaded'} ${formatDay(f.dateFrom) || '…'} – ${formatDay(f.dateTo) || '…'}`);
  if (f.duplicates) parts.push('Duplicates');
  return parts.join(' · ');
}

// A created_at bound as the server compares it with `created_at#receipt_id` (lambdas/core/documents/list.ts:
// a day from its first to its last millisecond; a timestamp that instant, inclusive).
const lowerKey = (v: string) => (v.length === 10 ? `${v}T00:00:00.000Z` : v);
const upperKey = (v: string) => (v.length === 10 ? `${v}T23:59:59.999Z\uffff` : `${v}\uffff`);

/**
 * GET /receipts of one walk read: the list's query (`listQuery`, the one the list page sends: its search, date range,
 * issue dates, Duplicates) with the walk's limit, cursor and created_at window; the window and a created_at range of
 * the list meet (the later after, the earlier before). null: they do not overlap (nothing to read). A list of issue
 * dates takes no window (`byIssueDate`: the walk never asks for one there).
 */
export function walkQuery(scope: ListScope, ctx: ListContext, q: ListQuery): Query | null {
  const list = listOf(scope, ctx);
  const query: Query = { ...list, limit: q.limit, ...(q.next ? { next: q.next } : {}) };
  if (list.by_issue_date === 'true') {
    if (q.created_at_after || q.created_at_before) throw new Error('a list of issue dates takes no created_at window');
    return query;
  }
  const listAfter = list.created_at_after as string | undefined;
  const listBefore = list.created_at_before as string | undefined;
  const after = !q.created_at_after || (listAfter && lowerKey(listAfter) > lowerKey(q.created_at_after)) ? listAfter : q.created_at_after;
  const before = !q.created_at_before || (listBefore && upperKey(listBefore) < upperKey(q.created_at_before)) ? listBefore : q.created_at_before;
  if (after && before && lowerKey(after) > upperKey(before)) return null;
  return { ...query, created_at_after: after, created_at_before: before };
}

/** The current document as the walk needs it. */
export type WalkDocument = Pick<ListItem, 'receipt_id' | 'created_at' | 'status' | 'receipt_type'>;

export interface Neighbours {
  /** The document before this one in the list (newer); null at the list's start. */
  previous: string | null;
  /** The document after this one (older); null at the list's end. */
  next: string | null;
  /** This document's place in the list (1 = the newest) when counted: null past the POSITION_PAGES first pages. */
  position: number | null;
  /** Documents of the list next to this one, in the list's order, this one left out (what Merge offers). */
  nearby: ListItem[];
  /**
   * A list its filters narrow (`narrowed`): how many documents it holds, when read to its end (null: longer than
   * the pages read). Absent for a whole status list: the company's counts tell it (`walkTotal`).
   */
  total?: number | null;
}

/**
 * What the screen already knows when it moved here with previous/next from a neighbour: that neighbour (the
 * document before or after this one) and the place (the neighbour's ± 1; null when that was not counted).
 */
export interface WalkHints {
  previous?: string;
  next?: string;
  position?: number | null;
}

/** The list's first pages read to count this document's place (n of n/total); further down it shows '–'. */
export const POSITION_PAGES = 4;
/** The documents after this one read at once: for the next one, and for Merge's candidates (`nearby`). */
export const OLDER_LIMIT = 5;
export const NEARBY_LIMIT = 20;
/** Pages read past documents the walk leaves out (an inbox's processing ones) before giving up. */
export const SKIP_PAGES = 10;
/** The first time window above the document looked at for the one before it, then ×WINDOW_GROWTH. */
export const FIRST_WINDOW_MS = 60 * 60 * 1000;
export const WINDOW_GROWTH = 8;
/** Reads of time windows at most (growing, then halving a window of more than a page). */
export const MAX_WINDOW_READS = 40;
/** A list of issue dates (no created_at windows): the pages read from its start to find a document's neighbours. */
export const ISSUE_DATE_PAGES = 20;
const NEARBY = 10;

/** The documents after `doc` in the list (older), the first `limit` of them: one read, more only past left-out ones. */
async function readOlder(read: ReadList, doc: WalkDocument, ctx: ListContext, limit = OLDER_LIMIT): Promise<ListItem[]> {
  const key = listKey(doc);
  const out: ListItem[] = [];
  let next: string | undefined;
  for (let pages = 0; pages < SKIP_PAGES; pages++) {
    const page = await read({ created_at_before: doc.created_at, limit: pages ? LIST_PAGE_SIZE : limit, ...(next ? { next } : {}) });
    out.push(...page.items.filter((i) => listKey(i) < key && inList(i, ctx)));
    if (out.length || !page.next) break;
    next = page.next;
  }
  return out.slice(0, limit);
}

/**
 * The documents of the list newer than `doc` and closest to it, found in time windows above it (an hour, then ×8;
 * a window of more than a page is halved), so a document deep in a long list costs a few small reads, not the list
 * down to it. `ceiling`: a document read above it, whose window is known to hold it. Empty when none is in the list
 * between them.
 */
async function nearestNewer(read: ReadList, doc: WalkDocument, ctx: ListContext, ceiling: string): Promise<ListItem[]> {
  const key = listKey(doc);
  const t0 = Date.parse(doc.created_at);
  const newer = (items: ListItem[]) => items.filter((i) => listKey(i) > key && inList(i, ctx));
  const ceilingSpan = Math.max(0, Date.parse(ceiling) - t0);
  let lo = 0; // [t0, t0 + lo) holds no document of the list newer than this one
  let hi = ceilingSpan; // the window up to t0 + hi holds one (the ceiling), or more than a page once `overflowed`
  let overflowed = false;
  let width = FIRST_WINDOW_MS;
  const windowOf = (from: number, to: number) => ({ created_at_after: new Date(t0 + from).toISOString(), created_at_before: new Date(t0 + to).toISOString(), limit: LIST_PAGE_SIZE });
  for (let reads = 0; reads < MAX_WINDOW_READS; reads++) {
    if (overflowed && lo >= hi) {
      // more than a page of documents within one millisecond: that window is read through
      const out: ListItem[] = [];
      let next: string | undefined;
      for (let pages = 0; pages < SKIP_PAGES; pages++) {
        const page = await read({ ...windowOf(hi, hi), ...(next ? { next } : {}) });
        out.push(...newer(page.items));
        if (!page.next) break;
        next = page.next;
      }
      if (out.length) return out;
      // none of the list there: on above it, up to the ceiling
      lo = hi + 1;
      hi = ceilingSpan;
      overflowed = false;
      width = FIRST_WINDOW_MS;
      if (lo > hi) return [];
      continue;
    }
    const to = overflowed ? Math.floor((lo + hi) / 2) : Math.min(lo + width, hi);
    const page = await read(windowOf(lo, to));
    if (!page.next) {
      const found = newer(page.items);
      if (found.length) return found;
      if (!overflowed && to >= hi) return [];
      lo = to + 1;
      width *= WINDOW_GROWTH;
    } else {
      hi = to;
      overflowed = true;
    }
  }
  return [];
}

/**
 * The documents before `doc` (newer), read from the list's start: its first page tells whether there are any (and
 * holds them near the top of the list); with `count`, up to POSITION_PAGES pages are read to count its place.
 * Deeper, the one before it is looked for in time windows above it (nearestNewer), unless `previous` is known.
 */
async function readNewer(read: ReadList, doc: WalkDocument, ctx: ListContext, opts: { count: boolean; previous?: string }): Promise<{ previous: string | null; position: number | null; items: ListItem[] }> {
  const key = listKey(doc);
  const newer: ListItem[] = [];
  let ceiling = '';
  let next: string | undefined;
  for (let pages = 1; ; pages++) {
    const page = await read({ created_at_after: doc.created_at, limit: LIST_PAGE_SIZE, ...(next ? { next } : {}) });
    newer.push(...page.items.filter((i) => listKey(i) > key && inList(i, ctx)));
    const last = page.items[page.items.length - 1];
    if (!page.next || !last || listKey(last) <= key) {
      return { previous: newer[newer.length - 1]?.receipt_id ?? null, position: inList(doc, ctx) ? newer.length + 1 : null, items: newer.slice(-NEARBY) };
    }
    ceiling = last.created_at;
    if (!opts.count || pages >= POSITION_PAGES) break;
    next = page.next;
  }
  if (opts.previous !== undefined) return { previous: opts.previous, position: null, items: [] };
  const found = await nearestNewer(read, doc, ctx, ceiling);
  const nearest = found.length ? found : newer;
  return { previous: nearest[nearest.length - 1]?.receipt_id ?? null, position: null, items: nearest.slice(-NEARBY) };
}

/**
 * The neighbours of `doc` in the list of `ctx` and its place, without reading the list down to it: the one after
 * it is the first of GET /receipts?created_at_before=<its created_at> (one read); the one before it is on the
 * list's first page when the document is near the top, else in a small time window above it. `hints` (what the
 * screen knew when it moved here from a neighbour) spare the reads they answer.
 */
export async function findNeighbours(read: ReadList, doc: WalkDocument, ctx: ListContext, hints: WalkHints = {}, olderLimit = OLDER_LIMIT): Promise<Neighbours> {
  if (narrowed(ctx)) return findInNarrowed(read, doc, ctx, hints, olderLimit);
  const needNewer = hints.previous === undefined || hints.position === undefined;
  const [older, newer] = await Promise.all([
    hints.next !== undefined ? Promise.resolve<ListItem[] | null>(null) : readOlder(read, doc, ctx, olderLimit),
    needNewer ? readNewer(read, doc, ctx, { count: hints.position === undefined, previous: hints.previous }) : Promise.resolve(null),
  ]);
  return {
    previous: hints.previous ?? newer?.previous ?? null,
    next: hints.next ?? older?.[0]?.receipt_id ?? null,
    position: hints.position !== undefined ? hints.position : (newer?.position ?? null),
    nearby: [...(newer?.items ?? []), ...(older ?? [])].filter((i) => i.receipt_id !== doc.receipt_id),
  };
}

/**
 * The list read page by page from its start (a list its filters narrow), while `more` wants more of it, at most
 * `pages` pages: its documents (of the walk's statuses and type) and whether it was read to its end.
 */
async function readFromStart(read: ReadList, ctx: ListContext, pages: number, more: (items: ListItem[]) => boolean): Promise<{ items: ListItem[]; ended: boolean; lastRead: ListItem | null }> {
  const items: ListItem[] = [];
  let lastRead: ListItem | null = null;
  let next: string | undefined;
  for (let n = 0; n < pages; n++) {
    const page = await read({ limit: LIST_PAGE_SIZE, ...(next ? { next } : {}) });
    items.push(...page.items.filter((i) => inList(i, ctx)));
    lastRead = page.items[page.items.length - 1] ?? lastRead;
    if (!page.next) return { items, ended: true, lastRead };
    next = page.next;
    if (!more(items)) break;
  }
  return { items, ended: false, lastRead };
}

/**
 * findNeighbours in a list its filters narrow (a search, a date range, Duplicates): a search is mostly a page or
 * two, so the list is read from its start (up to POSITION_PAGES pages), which counts both n and the total of
 * n/total as the list shows them. A document further down: its neighbours are found as in the whole list (one
 * read below it, time windows above it, each with the list's filters), n and the total not counted. In a list
 * of issue dates (`byIssueDate`, no windows) the pages go on to ISSUE_DATE_PAGES until the document is passed.
 */
async function findInNarrowed(read: ReadList, doc: WalkDocument, ctx: ListContext, hints: WalkHints, olderLimit: number): Promise<Neighbours> {
  const key = listKey(doc);
  const issueDates = byIssueDate(ctx);
  const olderIn = (items: ListItem[]) => items.filter((i) => listKey(i) < key);
  const top = await readFromStart(read, ctx, issueDates ? ISSUE_DATE_PAGES : POSITION_PAGES, (items) => !issueDates || olderIn(items).length < olderLimit || items.length < POSITION_PAGES * LIST_PAGE_SIZE);
  const newer = top.items.filter((i) => listKey(i) > key);
  let older = olderIn(top.items);
  const passed = top.ended || older.length > 0;
  if (passed) {
    // the document's place was read: the list above it is known
    if (!top.ended && older.length < olderLimit && !issueDates) older = await readOlder(read, doc, ctx, olderLimit);
    return {
      previous: newer[newer.length - 1]?.receipt_id ?? null,
      next: older[0]?.receipt_id ?? null,
      // (a document its filters no longer match, after an edit, has no place in it)
      position: inList(doc, ctx) && top.items.some((i) => i.receipt_id === doc.receipt_id) ? newer.length + 1 : null,
      nearby: [...newer.slice(-NEARBY), ...older.slice(0, olderLimit)],
      total: top.ended ? top.items.length : null,
    };
  }
  if (issueDates) {
    // further down than the pages read: what the screen brought, else none
    return { previous: hints.previous ?? null, next: hints.next ?? null, position: null, nearby: [], total: null };
  }
  const ceiling = top.lastRead?.created_at ?? new Date().toISOString();
  const [below, above] = await Promise.all([
    hints.next !== undefined ? Promise.resolve<ListItem[] | null>(null) : readOlder(read, doc, ctx, olderLimit),
    hints.previous !== undefined ? Promise.resolve<ListItem[] | null>(null) : nearestNewer(read, doc, ctx, ceiling),
  ]);
  const nearest = above && above.length ? above : newer;
  return {
    previous: hints.previous ?? nearest[nearest.length - 1]?.receipt_id ?? null,
    next: hints.next ?? below?.[0]?.receipt_id ?? null,
    position: null,
    nearby: [...(above ? nearest.slice(-NEARBY) : []), ...(below ?? [])].filter((i) => i.receipt_id !== doc.receipt_id),
    total: null,
  };
}

/**
 * Where the screen goes after an edit action (product.md: the next receipt of the same type in the list): the
 * document after this one in the list as it is now, else the list's first (the walk wraps), else none. In a list
 * of issue dates (no created_at windows) from the list's pages read from its start (ISSUE_DATE_PAGES at most).
 */
export async function documentAfter(read: ReadList, doc: WalkDocument, ctx: ListContext): Promise<string | null> {
  if (byIssueDate(ctx)) {
    const key = listKey(doc);
    const top = await readFromStart(read, ctx, ISSUE_DATE_PAGES, (items) => !items.some((i) => listKey(i) < key));
    const after = top.items.find((i) => listKey(i) < key);
    if (after) return after.receipt_id;
    return top.ended ? (top.items.find((i) => i.receipt_id !== doc.receipt_id)?.receipt_id ?? null) : null;
  }
  const older = await readOlder(read, doc, ctx, 1);
  if (older[0]) return older[0].receipt_id;
  let next: string | undefined;
  for (let pages = 0; pages < SKIP_PAGES; pages++) {
    const page = await read({ limit: pages ? LIST_PAGE_SIZE : OLDER_LIMIT, ...(next ? { next } : {}) });
    const first = page.items.find((i) => i.receipt_id !== doc.receipt_id && inList(i, ctx));
    if (first) return first.receipt_id;
    if (!page.next) return null;
    next = page.next;
  }
  return null;
}

export type StatusCounts = Partial<Record<ReceiptStatus, number>>;

/**
 * The number of documents of the context by the company's counts (the list is read 50 at a time, so its loaded
 * pages do not tell it): one status's count, or for the inbox every status it walks.
 */
export function walkTotal(counts: Partial<Record<'receipt' | 'invoice', StatusCounts>> | null | undefined, ctx: ListContext): number | null {
  const ofType = counts?.[ctx.receiptType];
  if (!ofType) return null;
  const statuses = ctx.inbox ? (Object.keys(ofType) as ReceiptStatus[]).filter((s) => inList({ status: s, receipt_type: ctx.receiptType }, ctx)) : [ctx.status];
  return statuses.reduce((sum, s) => sum + (ofType[s] ?? 0), 0);
}
