import type { InfiniteData } from '@tanstack/react-query';
import { PER_MEMBER_COMPANY_FIELDS } from '../../../../../shared/constants';
import type { Company } from '../../../../../shared/schemas/company';
import type { Receipt, ReceiptListPage } from '../../receipts/api/types';
import type { ListCursor, ListKeyParams } from '../../receipts/lib/list-params';

export type ListData = InfiniteData<ReceiptListPage, ListCursor | undefined>;

/**
 * Whether a document belongs in a cached list: true/false when the list's scope, status and type decide it;
 * 'unknown' when a search, date range or the duplicates filter would need the server to tell.
 */
export function receiptMatchesList(receipt: Pick<Receipt, 'company_id' | 'status' | 'receipt_type'>, list: ListKeyParams): boolean | 'unknown' {
  const noCompany = !receipt.company_id || receipt.company_id === 'NONE';
  const filtered = Boolean(list.search || list.from || list.to || list.duplicates);
  // Unassigned lists the user's documents waiting for a company (status unassigned)
  if (list.status === 'unassigned') {
    if (!noCompany || receipt.status !== 'unassigned') return false;
    if (list.receipt_type && receipt.receipt_type !== list.receipt_type) return false;
    return filtered ? 'unknown' : true;
  }
  // while being read, or when reading failed, they are in the all-companies view's lists by status (not a company's)
  if (noCompany ? list.scope !== 'ALL' : list.scope !== 'ALL' && receipt.company_id !== list.scope) return false;
  if (list.status === 'inbox' ? receipt.status === 'unassigned' : receipt.status !== list.status) return false;
  if (list.receipt_type && receipt.receipt_type !== list.receipt_type) return false;
  return filtered ? 'unknown' : true;
}

export function findReceipt(data: ListData | undefined, receiptId: string): Receipt | undefined {
  for (const p of data?.pages ?? []) {
    const found = p.items.find((r) => r.receipt_id === receiptId);
    if (found) return found;
  }
  return undefined;
}

/** `incoming` is an older state of the document than `cached` (by its version, which every change raises). */
export function isOlder(incoming: Partial<Pick<Receipt, 'version'>>, cached: Partial<Pick<Receipt, 'version'>>): boolean {
  return typeof incoming.version === 'number' && typeof cached.version === 'number' && incoming.version < cached.version;
}

export function listContains(data: ListData | undefined, receiptId: string): boolean {
  return Boolean(data?.pages.some((p) => p.items.some((r) => r.receipt_id === receiptId)));
}

function withPages(data: ListData, pages: ReceiptListPage[]): ListData {
  return { ...data, pages };
}

/** Replace a document in place (merging the new fields into the row). Unchanged data when absent. */
export function replaceReceipt(data: ListData, receipt: Partial<Receipt> & Pick<Receipt, 'receipt_id'>): ListData {
  if (!listContains(data, receipt.receipt_id)) return data;
  return withPages(
    data,
    data.pages.map((p) =>
      p.items.some((r) => r.receipt_id === receipt.receipt_id)
        ? { ...p, items: p.items.map((r) => (r.receipt_id === receipt.receipt_id ? ({ ...r, ...receipt } as Receipt) : r)) }
        : p,
    ),
  );
}

/** Remove a document from every page. Unchanged data when absent. */
export function removeReceipt(data: ListData, receiptId: string): ListData {
  if (!listContains(data, receiptId)) return data;
  return withPages(
    data,
    data.pages.map((p) => (p.items.some((r) => r.receipt_id === receiptId) ? { ...p, items: p.items.filter((r) => r.receipt_id !== receiptId) } : p)),
  );
}

/** Put a new document at the top of the first page (lists are newest first). */
export function prependReceipt(data: ListData, receipt: Receipt): ListData {
  if (listContains(data, receipt.receipt_id)) return replaceReceipt(data, receipt);
  if (data.pages.length === 0) return withPages(data, [{ items: [receipt], next: null, next_company: null }]);
  const [first, ...rest] = data.pages;
  return withPages(data, [{ ...first!, items: [receipt, ...first!.items] }, ...rest]);
}

export type ListUpdate = { kind: 'set'; data: ListData } | { kind: 'invalidate' } | { kind: 'none' };

/**
 * What a `receipt` / `receipt-update` event does to one cached list: a matching document is updated in
 * place, or added at the top when the list does not have it yet (an update of an unknown receipt adds it);
 * a document that no longer matches leaves the list; when the list's filters cannot be checked here the list
 * is refetched.
 */
export function applyReceiptToList(data: ListData | undefined, list: ListKeyParams, receipt: Receipt): ListUpdate {
  if (!data) return { kind: 'none' };
  const cached = findReceipt(data, receipt.receipt_id);
  // an older state arriving late (an HTTP answer overtaken by the live event of the next change) is dropped
  if (cached && isOlder(receipt, cached)) return { kind: 'none' };
  const match = receiptMatchesList(receipt, list);
  const present = cached !== undefined;
  if (match === true) return { kind: 'set', data: present ? replaceReceipt(data, receipt) : prependReceipt(data, receipt) };
  if (match === false) return present ? { kind: 'set', data: removeReceipt(data, receipt.receipt_id) } : { kind: 'none' };
  return { kind: 'invalidate' };
}

/** Two JSON values are the same (a row's fields: strings, numbers, flags, small objects and arrays). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** What a batch of documents does to one cached list: the new data (null when unchanged), and whether to refetch it. */
export interface ListBatchUpdate {
  data: ListData | null;
  invalidate: boolean;
}

/**
 * Many `receipt` / `receipt-update` states (a bulk action's answers, a burst of live events) applied to one cached
 * list in one pass, as `applyReceiptToList` would apply them one after the other: rows are updated in place (a row
 * whose fields do not change keeps its object, so its memoized row does not render again), added at the top (the last
 * one first) or removed; an older state than the cached row is dropped. A list whose filters cannot be checked here
 * is refetched (`invalidate`), what is known is still applied.
 */
export function applyReceiptsToList(data: ListData | undefined, list: ListKeyParams, receipts: ReadonlyArray<Receipt>): ListBatchUpdate {
  if (!data || receipts.length === 0) return { data: null, invalidate: false };
  const present = new Map<string, Receipt>();
  for (const p of data.pages) for (const r of p.items) present.set(r.receipt_id, r);
  const changed = new Map<string, Receipt>();
  const removed = new Set<string>();
  const added: string[] = [];
  let invalidate = false;
  for (const receipt of receipts) {
    const id = receipt.receipt_id;
    const cached = present.get(id);
    if (cached && isOlder(receipt, cached)) continue;
    const match = receiptMatchesList(receipt, list);
    if (match === 'unknown') {
      invalidate = true;
      continue;
    }
    if (match === true) {
      if (cached) {
        const merged = { ...cached, ...receipt } as Receipt;
        if (sameValue(merged, cached)) continue;
        present.set(id, merged);
        changed.set(id, merged);
      } else {
        present.set(id, receipt);
        removed.delete(id);
        added.push(id);
        changed.set(id, receipt);
      }
    } else if (cached) {
      present.delete(id);
      changed.delete(id);
      removed.add(id);
      const at = added.indexOf(id);
      if (at >= 0) added.splice(at, 1);
    }
  }
  if (changed.size === 0 && removed.size === 0) return { data: null, invalidate };
  const addedSet = new Set(added);
  // rows already on a page stay where they are (replaced or removed); the new ones go on top, the last added first
  const pages = data.pages.map((p) =>
    p.items.some((r) => changed.has(r.receipt_id) || removed.has(r.receipt_id))
      ? { ...p, items: p.items.filter((r) => !removed.has(r.receipt_id) && !addedSet.has(r.receipt_id)).map((r) => changed.get(r.receipt_id) ?? r) }
      : p,
  );
  const top = added.reverse().map((id) => changed.get(id)!);
  if (top.length > 0) {
    if (pages.length === 0) pages.push({ items: top, next: null, next_company: null });
    else pages[0] = { ...pages[0]!, items: [...top, ...pages[0]!.items] };
  }
  return { data: withPages(data, pages), invalidate };
}

/** A `receipt-delete` event: the document leaves every list that has it. */
export function applyDeleteToList(data: ListData | undefined, receiptId: string): ListUpdate {
  if (!data || !listContains(data, receiptId)) return { kind: 'none' };
  return { kind: 'set', data: removeReceipt(data, receiptId) };
}

/** A whole document in an event payload (a receipt summary), or null. */
export function receiptOfPayload(payload: unknown): Receipt | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const candidate = (payload as { receipt?: unknown }).receipt ?? payload;
  if (typeof candidate !== 'object' || candidate === null) return null;
  const r = candidate as Partial<Receipt>;
  if (typeof r.receipt_id !== 'string' || !r.receipt_id) return null;
  if (typeof r.status !== 'string' || typeof r.receipt_type !== 'string') return null;
  return r as Receipt;
}

/** The receipt id of a `receipt-delete` payload (`{ receipt_id }` or the document). */
export function receiptIdOfPayload(payload: unknown): string | null {
  if (typeof payload === 'string' && payload) return payload;
  if (typeof payload !== 'object' || payload === null) return null;
  const direct = (payload as { receipt_id?: unknown }).receipt_id;
  if (typeof direct === 'string' && direct) return direct;
  const nested = (payload as { receipt?: { receipt_id?: unknown } }).receipt?.receipt_id;
  return typeof nested === 'string' && nested ? nested : null;
}

/** The company id of a `company` / `company-delete` payload. */
export function companyIdOfPayload(payload: unknown): string | null {
  if (typeof payload === 'string' && payload) return payload;
  if (typeof payload !== 'object' || payload === null) return null;
  const direct = (payload as { company_id?: unknown }).company_id;
  if (typeof direct === 'string' && direct) return direct;
  const nested = (payload as { company?: { company_id?: unknown } }).company?.company_id;
  return typeof nested === 'string' && nested ? nested : null;
}

export type CompaniesUpdate = { kind: 'set'; data: Company[] } | { kind: 'invalidate' } | { kind: 'none' };

/** The fields of a `company` payload that every member shares: a member's own fields (role) are never taken from it. */
function sharedCompanyFields(payload: unknown): Partial<Company> {
  const raw = typeof payload === 'object' && payload !== null ? ((payload as { company?: unknown }).company ?? payload) : {};
  if (typeof raw !== 'object' || raw === null) return {};
  const perMember = new Set<string>(PER_MEMBER_COMPANY_FIELDS);
  return Object.fromEntries(Object.entries(raw).filter(([name]) => !perMember.has(name))) as Partial<Company>;
}

/**
 * A `company` event: the company's fields are merged into the cached list, keeping this user's own role (the event
 * goes to every member of the company, so a role in it — an admin's, from an older server — is never taken). An
 * unknown company is refetched: only the server's list says what this user's role in it is.
 */
export function applyCompanyEvent(companies: Company[] | undefined, payload: unknown): CompaniesUpdate {
  const id = companyIdOfPayload(payload);
  if (!id) return { kind: 'invalidate' };
  if (!companies) return { kind: 'none' };
  const fields = sharedCompanyFields(payload);
  const index = companies.findIndex((c) => c.company_id === id);
  if (index < 0) return { kind: 'invalidate' };
  const cached = companies[index]!;
  const next = [...companies];
  next[index] = { ...cached, ...fields, company_id: id, role: cached.role };
  return { kind: 'set', data: next };
}

/**
 * The company whose account owner a `company` event changed (its `user`: who owns it, by name and email), or null:
 * My Team's cards of that company (who carries "Account owner", who may hand it over) are read again. A company
 * not in the cached list counts as changed when the event names an owner at all.
 */
export function ownerChangedByCompanyEvent(companies: Company[] | undefined, payload: unknown): string | null {
  const id = companyIdOfPayload(payload);
  const owner = sharedCompanyFields(payload).user;
  if (!id || typeof owner !== 'object' || owner === null) return null;
  const cached = companies?.find((c) => c.company_id === id)?.user;
  const same =
    cached &&
    cached.email?.toLowerCase() === owner.email?.toLowerCase() &&
    cached.name === owner.name &&
    cached.surname === owner.surname;
  return same ? null : id;
}

/**
 * A `membership` event, on the user's own channel only: their role in the company changed. The cached company
 * takes the new role (the one event that carries a role, being the user's own); an unknown company or payload
 * refetches the list.
 */
export function applyMembershipEvent(companies: Company[] | undefined, payload: unknown): CompaniesUpdate {
  const id = companyIdOfPayload(payload);
  const role = (payload as { role?: unknown } | null)?.role;
  if (!id || (role !== 'admin' && role !== 'basic')) return { kind: 'invalidate' };
  if (!companies) return { kind: 'none' };
  const index = companies.findIndex((c) => c.company_id === id);
  if (index < 0) return { kind: 'invalidate' };
  const next = [...companies];
  next[index] = { ...companies[index]!, role };
  return { kind: 'set', data: next };
}

/**
 * A `company-delete` event: a company other than the active one is removed from the list (product.md
 * section 4); for the active one the list is refetched, and the active-company choice then moves on.
 */
export function applyCompanyDelete(companies: Company[] | undefined, payload: unknown, activeCompanyId: string | null): CompaniesUpdate {
  const id = companyIdOfPayload(payload);
  if (!id || !companies) return { kind: 'none' };
  if (id === activeCompanyId) return { kind: 'invalidate' };
  if (!companies.some((c) => c.company_id === id)) return { kind: 'none' };
  return { kind: 'set', data: companies.filter((c) => c.company_id !== id) };
}
