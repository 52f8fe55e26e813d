/**
 * The platform admin area (global admins): usage statistics, the companies with their monthly usage,
 * and the per-company quota and VAT account. The caller's global-admin right is checked by the route's
 * auth level ('global-admin') before any of these run.
 */
import { AppError, conflict, notFound } from '../../../shared/errors';
import { MSG } from '../../../shared/schemas/messages';
import { businessMonthEnd, monthsUpTo } from '../../../shared/business-time';
import {
  ADMIN_COMPANIES_PAGE,
  ADMIN_USAGE_MONTHS,
  MONTH_IN_FUTURE_MESSAGE,
  type AdminCompaniesResponse,
  type AdminCompany,
  type AdminCompanyUsageResponse,
  type AdminStatistics,
} from '../../../shared/schemas/admin';
import { monthOf } from '../accounts/companies';
import type { CompanyRecord, CountsByType, UsageRecord } from '../accounts/types';
import { shownEmailInAddress } from '../email-in/address';
import { publishCompanyChange } from '../live/company-event';
import type { AccountsStore, Clock, LiveEvents } from '../ports';
import type { CompanyAdminStore } from './ports';

export interface AdminDeps {
  store: AccountsStore;
  admin: CompanyAdminStore;
  clock: Clock;
  live: LiveEvents;
  /** The deployed Email-in domain companies' addresses are shown at (EMAIL_IN_DOMAIN; empty: the stored ones). */
  emailInDomain: string;
}

/** Companies read per step while statistics add up the documents (A7 pages, then A6 batches). */
export const STATISTICS_PAGE = 100;

/**
 * The quota a month's usage is shown over: for the current month the company's quota as it is now (what the next
 * upload compares with); for a past month the quota recorded on its usage item, else — an item written before the
 * quota was kept there, or no item at all — the company's current quota.
 */
export function monthQuota(record: CompanyRecord, usage: UsageRecord | undefined, past: boolean): number {
  return (past ? usage?.available_documents : undefined) ?? record.available_documents;
}

/** `pastMonth`: the usage is of a month that is over (GET /admin/companies?month), shown over that month's quota. */
export function toAdminCompany(record: CompanyRecord, usage: UsageRecord | undefined, emailInDomain: string, pastMonth = false): AdminCompany {
  return {
    company_id: record.company_id,
    name: record.name,
    code: record.code,
    email: shownEmailInAddress(record.email, emailInDomain),
    created_at: record.created_at,
    user: { name: record.owner.name, surname: record.owner.surname, email: record.owner.email },
    used_documents: usage?.used_documents ?? 0,
    available_documents: monthQuota(record, usage, pastMonth),
    vat_account: record.vat_account ?? '',
  };
}

/** Every document a company holds, in any status, of both types. */
export function totalDocuments(counts: CountsByType): number {
  let total = 0;
  for (const type of ['receipt', 'invoice'] as const) {
    for (const value of Object.values(counts[type])) total += value;
  }
  return total;
}

/**
 * customers = number of companies; documents = the documents they hold. Both are summed over the
 * companies index page by page (A7) with each page's count items (A6): exact, with no counter to keep
 * in step; the cost grows with the number of companies (docs/data-model.md, A13).
 */
export async function platformStatistics(deps: Pick<AdminDeps, 'store' | 'admin' | 'clock'>): Promise<AdminStatistics> {
  const month = monthOf(deps.clock.now());
  let customers = 0;
  let documents = 0;
  let next: string | undefined;
  do {
    const page = await deps.admin.listCompanies(STATISTICS_PAGE, next);
    customers += page.items.length;
    if (page.items.length > 0) {
      const stats = await deps.store.getCompanyStats(
        page.items.map((c) => c.company_id),
        month,
      );
      for (const s of stats.values()) documents += totalDocuments(s.counts);
    }
    next = page.next ?? undefined;
  } while (next);
  return { customers, documents };
}

/**
 * The month whose usage is shown: the current one of the business calendar when none is asked for. A month that has
 * not begun has no usage to show and is refused (422 under `month`); a month before a company existed shows 0.
 */
export function usageMonth(clock: Clock, month: string | undefined): string {
  const current = monthOf(clock.now());
  if (month === undefined) return current;
  if (month > current) throw new AppError('ValidationFailed', MONTH_IN_FUTURE_MESSAGE, [{ path: ['month'], message: MONTH_IN_FUTURE_MESSAGE }]);
  return month;
}

/**
 * One page of companies, newest first, each with this month's usage, or with the usage of `month` (a past one) over
 * the quota recorded for it (monthQuota); a past month lists only the companies created by its end.
 */
export async function listAdminCompanies(
  deps: Pick<AdminDeps, 'store' | 'admin' | 'clock' | 'emailInDomain'>,
  next: string | undefined,
  month?: string,
): Promise<AdminCompaniesResponse> {
  const shownMonth = usageMonth(deps.clock, month);
  const past = shownMonth !== monthOf(deps.clock.now());
  // A past month lists the companies that existed in it: none created after its end
  const page = await deps.admin.listCompanies(ADMIN_COMPANIES_PAGE, next, past ? businessMonthEnd(shownMonth).toISOString() : undefined);
  const stats = page.items.length
    ? await deps.store.getCompanyStats(
        page.items.map((c) => c.company_id),
        shownMonth,
      )
    : new Map();
  return {
    items: page.items.map((c) => toAdminCompany(c, stats.get(c.company_id)?.usage, deps.emailInDomain, past)),
    next: page.next,
  };
}

async function adminView(deps: Pick<AdminDeps, 'store' | 'clock' | 'emailInDomain'>, record: CompanyRecord): Promise<AdminCompany> {
  const stats = await deps.store.getCompanyStats([record.company_id], monthOf(deps.clock.now()));
  return toAdminCompany(record, stats.get(record.company_id)?.usage, deps.emailInDomain);
}

export async function getAdminCompany(deps: Pick<AdminDeps, 'store' | 'clock' | 'emailInDomain'>, companyId: string): Promise<AdminCompany> {
  const [record] = await deps.store.getCompanies([companyId]);
  if (!record) throw notFound('Company not found');
  return adminView(deps, record);
}

/**
 * A company's usage month by month: the current month and the ones before it, up to ADMIN_USAGE_MONTHS, none before
 * the month the company was created in; newest first. A month without documents shows 0 (no usage item is written
 * until the first upload). Each month shows the quota it was counted against (monthQuota: the current month the
 * company's quota as it is now). One Query of the company's usage items (P7).
 */
export async function companyUsageByMonth(
  deps: Pick<AdminDeps, 'store' | 'admin' | 'clock'>,
  companyId: string,
): Promise<AdminCompanyUsageResponse> {
  const [record] = await deps.store.getCompanies([companyId]);
  if (!record) throw notFound('Company not found');
  const current = monthOf(deps.clock.now());
  const created = monthOf(new Date(record.created_at));
  const months = monthsUpTo(current, ADMIN_USAGE_MONTHS).filter((m) => m >= created);
  if (months.length === 0) months.push(current);
  const usage = await deps.admin.listMonthUsage(companyId, months[months.length - 1], current);
  return {
    items: months.map((month) => ({
      month,
      used_documents: usage.get(month)?.used_documents ?? 0,
      duplicated_documents: usage.get(month)?.duplicated_documents ?? 0,
      available_documents: monthQuota(record, usage.get(month), month !== current),
    })),
  };
}

/** Tells the company's open screens (menu counts, dashboard cards) about the new usage figures. */
async function publishUsage(live: LiveEvents, view: AdminCompany): Promise<void> {
  await publishCompanyChange(live, {
    company_id: view.company_id,
    available_documents: view.available_documents,
    used_documents: view.used_documents,
    used_documents_per_month: view.used_documents,
    vat_account: view.vat_account,
  });
}

export interface QuotaUpdate {
  /** The new monthly quota; none: the quota stays as it is (a reset alone). */
  available?: number;
  /** The quota the admin's page showed: when the company's quota is another one now, nothing is written (409). */
  expected?: number;
  /** This month's usage starts again from zero. */
  reset: boolean;
}

/** The 409 of a quota changed since the admin's page was loaded; `details` carries the current quota. */
export function quotaChanged(current: number) {
  return conflict(`The documents available were changed to ${current} since this page was loaded. Check the number and update again.`, { available_documents: current });
}

/**
 * Sets the company's monthly quota; the very next upload reservation compares against it (D11). The current month's
 * usage item records it as the month's quota (shown for the month once it is over).
 * With `reset`, this month's usage starts again from zero (uploads in flight keep their reservation).
 * With `expected`, the quota is written only while it is still that one (a conditional write), else 409 with the
 * current quota and nothing written, the reset neither: an admin whose page is out of date does not put back an old
 * quota. A reset alone leaves the quota as it is.
 */
export async function updateAvailableDocuments(deps: AdminDeps, companyId: string, update: QuotaUpdate): Promise<AdminCompany> {
  const { available, expected, reset } = update;
  if (available === undefined && !reset) throw new AppError('ValidationFailed', MSG.required, [{ path: ['available_documents'], message: MSG.required }]);
  let record: CompanyRecord | undefined;
  if (available !== undefined) {
    record = await deps.admin.setAvailableDocuments(companyId, available, expected, monthOf(deps.clock.now()));
    if (!record) {
      const [current] = await deps.store.getCompanies([companyId]);
      if (!current) throw notFound('Company not found');
      throw quotaChanged(current.available_documents);
    }
  } else {
    [record] = await deps.store.getCompanies([companyId]);
    if (!record) throw notFound('Company not found');
    if (expected !== undefined && record.available_documents !== expected) throw quotaChanged(record.available_documents);
  }
  if (reset) await deps.admin.resetMonthUsage(companyId, monthOf(deps.clock.now()));
  const view = await adminView(deps, record);
  await publishUsage(deps.live, view);
  return view;
}

export async function updateVatAccount(deps: AdminDeps, companyId: string, vatAccount: string): Promise<AdminCompany> {
  const record = await deps.admin.setVatAccount(companyId, vatAccount);
  if (!record) throw notFound('Company not found');
  const view = await adminView(deps, record);
  await publishUsage(deps.live, view);
  return view;
}
