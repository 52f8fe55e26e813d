/** The document list (GET /receipts) and counts by status (GET /receipts/total-documents). */
import { badRequest } from '../../../shared/errors';
import type { StatusCounts } from '../../../shared/schemas';
import type { ListReceiptsQuery, ListReceiptsResponse } from '../../../shared/schemas/receipts';
import { RECEIPT_STATUSES } from '../../../shared/status';
import { emptyCounts } from '../accounts/counts';
import type { AccountsStore } from '../ports';
import { planList, runList } from './list';
import type { DocumentsStore } from './ports';
import { companyScope, userScope, type ReceiptType, type ScopeKey } from './types';
import { withSameDocumentChecked, type DocCaller } from './workflow';
import { toSummary } from './views';

/** The all-companies view: selected=ALL, or company_id NONE. */
export function isAllCompanies(query: { selected?: string; company_id?: string }): boolean {
  return query.selected === 'ALL' || query.company_id === 'NONE';
}

async function companyScopes(store: AccountsStore, userId: string): Promise<ScopeKey[]> {
  const memberships = await store.listMembershipsOfUser(userId);
  return memberships.map((m) => m.company_id).sort().map(companyScope);
}

/**
 * Which scopes a list call covers. The caller's own scope holds their uploads of the all-companies view until they are
 * given a company: the Unassigned list is that scope alone (its documents in status unassigned, planList); the
 * all-companies view lists it with every company of the caller (newest first across them, runList), so those uploads
 * show under In Processing, Failed and the rest like any document; one company's view lists that company.
 */
export async function listScopes(store: AccountsStore, caller: DocCaller, query: Pick<ListReceiptsQuery, 'receipt_status' | 'selected' | 'company_id'>): Promise<ScopeKey[]> {
  if (query.receipt_status === 'unassigned') return [userScope(caller.userId)];
  if (isAllCompanies(query)) return [userScope(caller.userId), ...(await companyScopes(store, caller.userId))];
  if (!caller.companyId) throw badRequest('company_id is required');
  return [companyScope(caller.companyId)];
}

export async function listDocuments(
  deps: { documents: DocumentsStore; store: AccountsStore },
  caller: DocCaller,
  query: ListReceiptsQuery,
): Promise<ListReceiptsResponse & { reads: number }> {
  const scopes = await listScopes(deps.store, caller, query);
  // All companies: the counts items of every scope (D15, 50 scopes a BatchGetItem) tell which hold nothing of the
  // list's type and status, so a page reads only the streams of companies that may have something to show.
  const plan = planList(query, scopes, scopes.length > 1 ? (of) => deps.documents.tallies(of) : undefined);
  const page = await runList(deps.documents, plan, query.next, query.next_company);
  // The copies of a same document checked again (withSameDocumentChecked); the Duplicates list then leaves out those
  // that are no copies any more (a same-file copy, `duplicate_id`, stays as it is)
  const checked = await withSameDocumentChecked(deps.documents, page.items);
  const items = plan.filter?.duplicatesOnly ? checked.filter((d) => d.duplicate_id || d.same_document) : checked;
  return { items: items.map(toSummary), next: page.next, next_company: page.next_company, reads: page.reads };
}

function add(into: StatusCounts, from: StatusCounts) {
  for (const s of RECEIPT_STATUSES) into[s] += from[s];
}

/**
 * Counts by status per type. All-companies view: every company of the caller plus the caller's own uploads without a
 * company, each in its own status (processing, failed, … and unassigned for those waiting for a company), as the
 * lists of that view show them. One company: that company's counts, and under `unassigned` the caller's documents
 * waiting for a company (the Unassigned list, which every view offers).
 */
export async function totalDocuments(
  deps: { documents: DocumentsStore; store: AccountsStore },
  caller: DocCaller,
  query: { selected?: string; company_id?: string },
): Promise<Record<ReceiptType, StatusCounts>> {
  const all = isAllCompanies(query);
  if (!all && !caller.companyId) throw badRequest('company_id is required');
  const own = userScope(caller.userId);
  const scopes = all ? await companyScopes(deps.store, caller.userId) : [companyScope(caller.companyId!)];
  const out: Record<ReceiptType, StatusCounts> = { receipt: emptyCounts(), invoice: emptyCounts() };
  // One batch of the counts items of every scope (D15) rather than two reads a scope.
  const tallies = await deps.documents.tallies([own, ...scopes]);
  for (const scope of all ? [own, ...scopes] : scopes) {
    const t = tallies.get(scope);
    if (!t) continue;
    add(out.receipt, t.receipt.counts);
    add(out.invoice, t.invoice.counts);
  }
  if (!all) {
    const mine = tallies.get(own);
    out.receipt.unassigned += mine?.receipt.counts.unassigned ?? 0;
    out.invoice.unassigned += mine?.invoice.counts.unassigned ?? 0;
  }
  return out;
}
