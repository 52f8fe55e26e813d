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
import type { DocCaller } from './workflow';
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
 * Which scopes a list call covers: the caller's own unassigned documents (status unassigned), every
 * company of the caller (all-companies view, company after company with next_company), or one company.
 */
export async function listScopes(store: AccountsStore, caller: DocCaller, query: Pick<ListReceiptsQuery, 'receipt_status' | 'selected' | 'company_id'>): Promise<ScopeKey[]> {
  if (query.receipt_status === 'unassigned') return [userScope(caller.userId)];
  if (isAllCompanies(query)) return companyScopes(store, caller.userId);
  if (!caller.companyId) throw badRequest('company_id is required');
  return [companyScope(caller.companyId)];
}

export async function listDocuments(
  deps: { documents: DocumentsStore; store: AccountsStore },
  caller: DocCaller,
  query: ListReceiptsQuery,
): Promise<ListReceiptsResponse & { reads: number }> {
  const scopes = await listScopes(deps.store, caller, query);
  const plan = planList(query, scopes);
  const page = await runList(deps.documents, plan, query.next, query.next_company);
  return { items: page.items.map(toSummary), next: page.next, next_company: page.next_company, reads: page.reads };
}

function add(into: StatusCounts, from: StatusCounts) {
  for (const s of RECEIPT_STATUSES) into[s] += from[s];
}

/**
 * Counts by status per type of one company (or of all the caller's companies); `unassigned` is the
 * caller's own unassigned documents, whatever their processing state.
 */
export async function totalDocuments(
  deps: { documents: DocumentsStore; store: AccountsStore },
  caller: DocCaller,
  query: { selected?: string; company_id?: string },
): Promise<Record<ReceiptType, StatusCounts>> {
  const scopes = isAllCompanies(query) ? await companyScopes(deps.store, caller.userId) : caller.companyId ? [companyScope(caller.companyId)] : [];
  if (!isAllCompanies(query) && scopes.length === 0) throw badRequest('company_id is required');
  const out: Record<ReceiptType, StatusCounts> = { receipt: emptyCounts(), invoice: emptyCounts() };
  const [mine, ...companies] = await Promise.all([deps.documents.counts(userScope(caller.userId)), ...scopes.map((s) => deps.documents.counts(s))]);
  for (const c of companies) {
    add(out.receipt, c.receipt);
    add(out.invoice, c.invoice);
  }
  for (const t of ['receipt', 'invoice'] as const) {
    out[t].unassigned = RECEIPT_STATUSES.reduce((sum, s) => sum + mine![t][s], 0);
  }
  return out;
}
