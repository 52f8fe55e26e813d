import { LIST_PAGE_SIZE } from '../../../../../shared/constants';
import type { ListStatus } from '../../../../../shared/status';
import type { Query } from '../../../lib/api-client';
import type { ReceiptListPage, ReceiptType } from '../api/types';

/** The filter bar's state (product.md section 2; list filter parameters in section 3). */
export interface ListFilters {
  /** First day of the range, YYYY-MM-DD (local calendar day), or '' for none. */
  dateFrom: string;
  /** Last day of the range, YYYY-MM-DD, or ''. Never after today. */
  dateTo: string;
  /** The range is of the documents' issue dates (by_issue_date), not of their upload. */
  byIssueDate: boolean;
  /** Only the copies: documents that repeat an earlier upload (duplicate_id set). */
  duplicates: boolean;
  receipt: boolean;
  invoice: boolean;
  /** The search text (already debounced). */
  search: string;
}

export const EMPTY_FILTERS: ListFilters = {
  dateFrom: '',
  dateTo: '',
  byIssueDate: false,
  duplicates: false,
  receipt: true,
  invoice: true,
  search: '',
};

/** Whose documents a list shows: one company, or every company of the user (selected=ALL). */
export type ListScope = { kind: 'company'; companyId: string } | { kind: 'all' };

export interface ListCursor {
  next?: string | null;
  next_company?: string | null;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** Today as YYYY-MM-DD in local time: the date picker's upper bound. */
export function todayIso(now: Date = new Date()): string {
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A picked day as a moment at 15:00 local time (rules.md 5: "the selected date is set to the 15:00 hour"), so
 * that turning it into UTC never moves it to another calendar day. null for anything that is not a day.
 */
export function pickedDay(day: string): Date | null {
  const m = ISO_DAY.exec(day);
  if (!m) return null;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 15, 0, 0, 0);
  return Number.isNaN(d.getTime()) || d.getDate() !== Number(m[3]) ? null : d;
}

/** The UTC calendar day of a picked day (the same day: it is taken at 15:00). */
export function pickedDayParam(day: string): string | undefined {
  const d = pickedDay(day);
  return d ? d.toISOString().slice(0, 10) : undefined;
}

/**
 * The first and last millisecond of a picked local calendar day, as UTC instants (ISO). The list shows `created_at`
 * in the browser's time zone, so an upload-date range is of local days: 10 March in Vilnius is
 * 2026-03-09T22:00:00.000Z … 2026-03-10T21:59:59.999Z. The end is the next day's start less 1 ms, so a day of 23 or
 * 25 hours (the clocks change) is whole. undefined for anything that is not a day.
 */
export function localDayBounds(day: string): { start: string; end: string } | undefined {
  if (!pickedDay(day)) return undefined;
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const start = new Date(y, m - 1, d, 0, 0, 0, 0);
  const next = new Date(y, m - 1, d + 1, 0, 0, 0, 0);
  return { start: start.toISOString(), end: new Date(next.getTime() - 1).toISOString() };
}

/**
 * Keep a date range valid: nothing after today, and from ≤ to (a from after to moves to to).
 */
export function clampRange(range: { dateFrom: string; dateTo: string }, now: Date = new Date()): { dateFrom: string; dateTo: string } {
  const today = todayIso(now);
  let dateFrom = pickedDay(range.dateFrom) ? range.dateFrom : '';
  let dateTo = pickedDay(range.dateTo) ? range.dateTo : '';
  if (dateFrom > today) dateFrom = today;
  if (dateTo > today) dateTo = today;
  if (dateFrom && dateTo && dateFrom > dateTo) dateFrom = dateTo;
  return { dateFrom, dateTo };
}

/** receipt_type: only when exactly one of the two type checkboxes is on. */
export function typeParam(filters: Pick<ListFilters, 'receipt' | 'invoice'>): ReceiptType | undefined {
  if (filters.receipt && !filters.invoice) return 'receipt';
  if (filters.invoice && !filters.receipt) return 'invoice';
  return undefined;
}

/**
 * The query of GET /receipts (rules.md 7): receipt_status (none for the inbox), receipt_type, search_value,
 * created_at_after / created_at_before, duplicate_id, limit 50, the paging cursors; selected=ALL in the all-companies
 * view, otherwise the list's company_id. An upload-date range is of local days (the list shows upload dates in local
 * time): the first day's first and the last day's last millisecond as instants (`localDayBounds`). An issue-date range
 * (by_issue_date) is of plain days, which have no time zone.
 */
export function listQuery(status: ListStatus, filters: ListFilters, scope: ListScope, cursor?: ListCursor): Query {
  const range = clampRange(filters);
  const search = filters.search.trim();
  const byIssueDate = filters.byIssueDate && Boolean(range.dateFrom || range.dateTo);
  const query: Query = {
    receipt_status: status === 'inbox' ? undefined : status,
    receipt_type: typeParam(filters),
    search_value: search || undefined,
    created_at_after: range.dateFrom ? (byIssueDate ? pickedDayParam(range.dateFrom) : localDayBounds(range.dateFrom)?.start) : undefined,
    created_at_before: range.dateTo ? (byIssueDate ? pickedDayParam(range.dateTo) : localDayBounds(range.dateTo)?.end) : undefined,
    by_issue_date: byIssueDate ? 'true' : undefined,
    duplicate_id: filters.duplicates ? 'true' : undefined,
    limit: LIST_PAGE_SIZE,
  };
  if (scope.kind === 'all') query.selected = 'ALL';
  else query.company_id = scope.companyId;
  if (cursor?.next) query.next = cursor.next;
  if (cursor?.next_company) query.next_company = cursor.next_company;
  return query;
}

/** The identity of a list in the query cache (the cursors are not part of it). */
export type ListKeyParams = {
  scope: string;
  status: ListStatus;
  receipt_type: ReceiptType | null;
  search: string;
  from: string;
  to: string;
  by_issue_date: boolean;
  duplicates: boolean;
};

export function listKeyParams(status: ListStatus, filters: ListFilters, scope: ListScope): ListKeyParams {
  const range = clampRange(filters);
  return {
    scope: scope.kind === 'all' ? 'ALL' : scope.companyId,
    status,
    receipt_type: typeParam(filters) ?? null,
    search: filters.search.trim(),
    from: range.dateFrom,
    to: range.dateTo,
    by_issue_date: filters.byIssueDate && Boolean(range.dateFrom || range.dateTo),
    duplicates: filters.duplicates,
  };
}

/** The cursor of the page after `page`, or undefined when it was the last one. */
export function nextCursor(page: ReceiptListPage | undefined): ListCursor | undefined {
  if (!page) return undefined;
  const next = page.next || null;
  const nextCompany = page.next_company || null;
  if (!next && !nextCompany) return undefined;
  return { next, next_company: nextCompany };
}

/** A filter other than the defaults is on (the empty state then says nothing matched). */
export function hasActiveFilters(filters: ListFilters): boolean {
  return (
    Boolean(filters.dateFrom || filters.dateTo || filters.search.trim()) ||
    filters.duplicates ||
    !filters.receipt ||
    !filters.invoice
  );
}

/**
 * The filters as the list's address keeps them (`?q=…&from=…&to=…&dates=issue&duplicates=1&type=invoice`), so that the
 * browser's Back from a document, a reload or a shared link shows the list as it was filtered. Only what differs
 * from no filter is written; what cannot be read is left out (an unknown type shows both, a date that is not a day none).
 */
export function filtersToSearch(filters: ListFilters): URLSearchParams {
  const params = new URLSearchParams();
  const search = filters.search.trim();
  if (search) params.set('q', search);
  if (filters.dateFrom) params.set('from', filters.dateFrom);
  if (filters.dateTo) params.set('to', filters.dateTo);
  if (filters.byIssueDate) params.set('dates', 'issue');
  if (filters.duplicates) params.set('duplicates', '1');
  if (filters.receipt !== filters.invoice) params.set('type', filters.receipt ? 'receipt' : 'invoice');
  return params;
}

export function filtersFromSearch(params: URLSearchParams, now: Date = new Date()): ListFilters {
  const type = params.get('type');
  return {
    ...clampRange({ dateFrom: params.get('from') ?? '', dateTo: params.get('to') ?? '' }, now),
    byIssueDate: params.get('dates') === 'issue',
    duplicates: params.get('duplicates') === '1',
    receipt: type !== 'invoice',
    invoice: type !== 'receipt',
    search: params.get('q') ?? '',
  };
}
