import { businessMonth } from '../../../shared/business-time';
import { DEFAULT_AVAILABLE_DOCUMENTS, EMAIL_IN_DOMAIN } from '../../../shared/constants';
import { AppError, conflict, forbidden, notFound } from '../../../shared/errors';
import { INTEGRATION_FLAGS, type Company, type CreateCompanyInput } from '../../../shared/schemas/company';
import { shownEmailInAddress } from '../email-in/address';
import { publishCompanyChange } from '../live/company-event';
import type { ConnectionStore } from '../live/connections';
import { CompanyCodeTaken, CompanyLimitReached, type AccountsStore, type Clock, type IdGenerator, type LiveEvents, type PurgeQueue } from '../ports';
import { emptyCounts } from './counts';
import { firstPurgeMessage } from './purge-message';
import type { CompanyRecord, MembershipRecord, ProfileRecord } from './types';

/** The quota month of a moment (`YYYY-MM`), in the business calendar (shared/business-time.ts). */
export function monthOf(date: Date): string {
  return businessMonth(date);
}

export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 32)
    .replace(/-+$/g, '');
  return slug || 'company';
}

export function newCompanyRecord(
  input: { name: string; code: string },
  owner: Pick<ProfileRecord, 'id' | 'name' | 'surname' | 'email'>,
  ids: IdGenerator,
  clock: Clock,
): CompanyRecord {
  const companyId = ids.newId();
  const uniqueName = `${slugify(input.name)}-${companyId.slice(-6).toLowerCase()}`;
  return {
    company_id: companyId,
    name: input.name.trim(),
    code: input.code.trim(),
    unique_name: uniqueName,
    email: `${uniqueName}@${EMAIL_IN_DOMAIN}`,
    created_at: clock.now().toISOString(),
    owner: { user_id: owner.id, name: owner.name, surname: owner.surname, email: owner.email },
    available_documents: DEFAULT_AVAILABLE_DOCUMENTS,
    vat_account: '',
    integrations: Object.fromEntries(INTEGRATION_FLAGS.map((flag) => [flag, false])) as CompanyRecord['integrations'],
    google_selected_import_folder_name: null,
    dropbox_selected_import_folder_name: null,
  };
}

/**
 * The API shape of a company as its member sees it; its Email-in address at the deployed domain (`emailInDomain`,
 * EMAIL_IN_DOMAIN of the deployment; empty: the stored address, email-in/address.ts).
 */
export function toCompanyView(
  record: CompanyRecord,
  role: Company['role'],
  stats: { counts: Company['counts']; usage: { used_documents: number; duplicated_documents: number } } | undefined,
  emailInDomain: string,
): Company {
  const used = stats?.usage.used_documents ?? 0;
  return {
    company_id: record.company_id,
    name: record.name,
    code: record.code,
    unique_name: record.unique_name,
    role,
    email: shownEmailInAddress(record.email, emailInDomain),
    created_at: record.created_at,
    user: { name: record.owner.name, surname: record.owner.surname, email: record.owner.email },
    used_documents: used,
    available_documents: record.available_documents,
    used_documents_per_month: used,
    duplicated_documents_per_month: stats?.usage.duplicated_documents ?? 0,
    vat_account: record.vat_account,
    counts: stats?.counts ?? { receipt: emptyCounts(), invoice: emptyCounts() },
    ...record.integrations,
    google_selected_import_folder_name: record.google_selected_import_folder_name,
    dropbox_selected_import_folder_name: record.dropbox_selected_import_folder_name,
    email_in_senders: record.email_in_senders ?? [],
  };
}

export async function listCompaniesOfUser(store: AccountsStore, userId: string, clock: Clock, emailInDomain: string): Promise<Company[]> {
  const memberships = await store.listMembershipsOfUser(userId);
  if (memberships.length === 0) return [];
  const ids = memberships.map((m) => m.company_id);
  const [companies, stats] = await Promise.all([store.getCompanies(ids), store.getCompanyStats(ids, monthOf(clock.now()))]);
  const byId = new Map(companies.map((c) => [c.company_id, c]));
  return memberships
    .filter((m) => byId.has(m.company_id))
    .map((m) => toCompanyView(byId.get(m.company_id)!, m.role, stats.get(m.company_id), emailInDomain))
    .sort((a, b) => a.created_at.localeCompare(b.created_at));
}

/** The answer when a user has created as many companies as they may (POST /company). */
export const companyLimitMessage = (limit: number) =>
  `You can create at most ${limit} companies. Ask the platform administrator if you need more.`;

/** The answer when the creator already has a company with this code (POST /company), on the name field. */
export const COMPANY_CODE_TAKEN = 'You already have a company with this code';

/**
 * A company code as the one-company-per-code rule compares it (the creator's guard item, A8): trimmed, without
 * case and without spaces anywhere in it ("LT 305 999" and "lt305999" are one code).
 */
export function companyCodeKey(code: string): string {
  return code.normalize('NFKC').toLowerCase().replace(/\s+/gu, '');
}

/** Tries of one write of a company code when the guard found names a company that no longer holds the code (stale). */
const GUARD_TRIES = 3;

/**
 * Writes a company code under the creator's company-code guard, the one way for POST /company (A8) and PUT /company
 * (A29): `write` puts the guard only while there is none (or it names the company itself), or, with `replacing`,
 * while it names that company. A refused guard (CompanyCodeTaken) naming a company of `creator` that still has this
 * code answers `taken()`; one whose company is gone, has another creator or another code now (stale: a delete that
 * stopped half way, an older settings change) is replaced, conditioned on still naming that company, so two writes
 * at once still cannot both pass.
 */
export async function withCompanyCodeGuard<T>(
  store: Pick<AccountsStore, 'getCompanies'>,
  creator: string,
  code: string,
  taken: () => Error,
  write: (replacing?: string) => Promise<T>,
): Promise<T> {
  let replacing: string | undefined;
  for (let attempt = 1; ; attempt++) {
    try {
      return await write(replacing);
    } catch (error) {
      if (!(error instanceof CompanyCodeTaken)) throw error;
      if (attempt >= GUARD_TRIES) throw taken();
      const [holder] = error.holder ? await store.getCompanies([error.holder]) : [];
      if (holder && holder.owner.user_id === creator && companyCodeKey(holder.code) === companyCodeKey(code)) throw taken();
      // Stale (or gone since): replace it, only while it still names that company.
      replacing = error.holder;
    }
  }
}

/**
 * POST /company. A user cannot create a second company with the code of a company they created and still have:
 * the database refuses it (the creator's company-code guard, put in the company's transaction, A8; a stale guard is
 * replaced, `withCompanyCodeGuard`). Other users may have companies with the same code (an accountant adds a client
 * company another user registered).
 */
export async function createCompany(
  deps: { store: AccountsStore; ids: IdGenerator; clock: Clock; live: LiveEvents; maxCompaniesPerUser: number; emailInDomain: string },
  userId: string,
  input: CreateCompanyInput,
): Promise<Company> {
  const profile = await deps.store.getProfile(userId);
  if (!profile) throw new AppError('Forbidden', 'Your account is not set up yet');
  const record = newCompanyRecord({ name: input.company_name, code: input.code }, profile, deps.ids, deps.clock);
  const membership = { user_id: userId, company_id: record.company_id, role: 'admin' as const, joined_at: record.created_at };
  const taken = () => conflict(COMPANY_CODE_TAKEN, [{ path: ['company_name'], message: COMPANY_CODE_TAKEN }]);
  try {
    await withCompanyCodeGuard(deps.store, userId, record.code, taken, (replacing) =>
      deps.store.createCompany(record, membership, deps.maxCompaniesPerUser, replacing),
    );
  } catch (error) {
    if (error instanceof CompanyLimitReached) throw new AppError('QuotaExceeded', companyLimitMessage(error.limit));
    throw error;
  }
  const view = toCompanyView(record, 'admin', undefined, deps.emailInDomain);
  await publishCompanyChange(deps.live, view);
  return view;
}

/** The purge starts this long after it is queued: the delete that follows the queueing has long happened by then. */
export const PURGE_START_DELAY_SECONDS = 30;
export const COMPANY_NOT_DELETED = 'The company could not be deleted. Please try again.';
export const ONLY_COMPANY = 'You cannot delete your only company';

/**
 * The company's Google Drive and Dropbox grants at deletion (core/drive-import `grantsOfDeletedCompany`): `read`
 * opens the stored grants before the delete removes them and answers what revokes them at the providers after it
 * (best effort: it never fails, logs no token, and waits a bounded time).
 */
export interface CompanyGrants {
  read(companyId: string): Promise<() => Promise<void>>;
}

/** What deletes a company at once and queues the purge of the rest (DELETE /company, and an account's deletion). */
export interface CompanyRemovalDeps {
  store: AccountsStore;
  live: LiveEvents;
  connections: Pick<ConnectionStore, 'unsubscribeCompany'>;
  purgeQueue: PurgeQueue;
  clock: Clock;
  log: { error(msg: string, data?: Record<string, unknown>): void };
  grants?: CompanyGrants;
}

/** Queues the purge before anything is deleted: a queue that refuses it fails the call with nothing deleted. */
async function queueCompanyPurge(deps: CompanyRemovalDeps, companyId: string): Promise<void> {
  try {
    await deps.purgeQueue.send(firstPurgeMessage(companyId, deps.clock.now()), PURGE_START_DELAY_SECONDS);
  } catch (error) {
    deps.log.error('company purge not queued: the company is kept', { company_id: companyId, error: error instanceof Error ? error.message : String(error) });
    throw new AppError('InternalError', COMPANY_NOT_DELETED);
  }
}

/**
 * Once the company's META item is gone (A25): open screens are told (`company-delete`), the rest of what made the
 * company visible goes, every live subscription to it ends, and its Google Drive and Dropbox grants are revoked at the
 * providers (`grants`, best effort: read before the delete removes them).
 */
async function finishCompanyDelete(deps: CompanyRemovalDeps, company: CompanyRecord, members: MembershipRecord[]): Promise<void> {
  const revokeGrants = deps.grants ? await deps.grants.read(company.company_id) : undefined;
  // Told while the memberships are there: a live event reaches only members (A15).
  await deps.live.publish(company.company_id, 'company-delete', { company_id: company.company_id });
  await deps.store.deleteCompany(company, members);
  await deps.connections.unsubscribeCompany(company.company_id);
  await revokeGrants?.();
}

/**
 * Deletes a company the caller administers. The caller keeps at least one company (the META item's delete is
 * conditioned on another membership of theirs and its company, A25, so two deletes at once cannot take both):
 * the dashboard offers deletion only on cards other than the active one. Open screens are told first
 * (`company-delete`), then every live subscription to the company ends with it. What made the company visible goes
 * at once (its META item, memberships, email-in claims, counts, credentials, imports); the purge of everything else
 * it owned (lambdas/core/accounts/purge.ts) is queued first, delayed by PURGE_START_DELAY_SECONDS: a queue that
 * refuses it fails the call with nothing deleted (the admin tries again), and a purge whose delete then did not
 * happen finds the company and stops (docs/decisions.md "Company deletion: the purge job"). The company's Google
 * Drive and Dropbox grants are revoked at the providers once it is deleted (`grants`, best effort).
 */
export async function deleteCompany(deps: CompanyRemovalDeps, userId: string, companyId: string): Promise<{ deleted: true; company_id: string }> {
  const membership = await deps.store.getMembership(userId, companyId);
  if (!membership) throw notFound('Company not found');
  if (membership.role !== 'admin') throw forbidden('Only a company administrator can delete the company');
  // The company the caller keeps; the delete is conditioned on it (A25), so the rule holds for deletes at the same time.
  const notKept = new Set([companyId]);
  const keptCompany = async () => (await deps.store.listMembershipsOfUser(userId)).find((m) => !notKept.has(m.company_id))?.company_id;
  let kept = await keptCompany();
  if (!kept) throw conflict(ONLY_COMPANY);
  const [company] = await deps.store.getCompanies([companyId]);
  if (!company) throw notFound('Company not found');
  const members = await deps.store.listMembersOfCompany(companyId);
  await queueCompanyPurge(deps, companyId);
  for (;;) {
    const failure = await deps.store.deleteCompanyRecord(companyId, { userId, companyId: kept });
    if (!failure) break;
    if (failure === 'gone') throw notFound('Company not found');
    // The company kept was deleted (or left) meanwhile, e.g. by a delete of it at the same time: another one, if any.
    notKept.add(kept);
    kept = await keptCompany();
    if (!kept) throw conflict(ONLY_COMPANY);
  }
  await finishCompanyDelete(deps, company, members);
  return { deleted: true, company_id: companyId };
}

/**
 * Deletes a company with the account of its only member (core/accounts/delete-account.ts): as DELETE /company, but
 * no company is kept — the account goes too. False when the company was already gone.
 */
export async function deleteCompanyWithAccount(deps: CompanyRemovalDeps, company: CompanyRecord): Promise<boolean> {
  const members = await deps.store.listMembersOfCompany(company.company_id);
  await queueCompanyPurge(deps, company.company_id);
  if ((await deps.store.deleteCompanyRecord(company.company_id, null)) === 'gone') return false;
  await finishCompanyDelete(deps, company, members);
  return true;
}
