/**
 * Deleting one's own account (DELETE /user; docs/decisions.md "Deleting one's own account"). What goes: the companies
 * the account alone is a member of (deleted as DELETE /company deletes one, their purge queued), its memberships of
 * other companies (ended as My Team's removal ends one), its sign-in at the identity provider, and its own partition
 * (profile, company-code guards, counts, holds). What stays: the documents it added to other companies — they are those
 * companies' bookkeeping records — with the uploader's name on them.
 *
 * Refused (409, nothing deleted) while it would take something from others or lose something of the user's own: a
 * company the account owns that has other members (the owner cannot be removed from it), documents without a company
 * (the all-companies view's uploads, which only their owner sees), or an upload of theirs still under way.
 *
 * Order: what others see first, then the sign-in, then the profile. A step that fails answers an error and the user
 * tries again: every step skips what is already gone, and the profile (which holds the email the confirmation is
 * checked against) goes last.
 */
import { AppError, conflict, notFound } from '../../../shared/errors';
import {
  ACCOUNT_MSG,
  ownsSharedCompaniesMessage,
  unassignedDocumentsMessage,
  type DeleteAccountInput,
  type DeleteAccountResult,
} from '../../../shared/schemas/user';
import { RECEIPT_TYPES } from '../../../shared/schemas/receipts';
import type { DocumentsStore } from '../documents/ports';
import { userScope } from '../documents/types';
import { releaseExpiredUserUploads } from '../documents/upload';
import type { ConnectionStore } from '../live/connections';
import type { IdentityDirectory } from '../ports';
import { endMembership, type MembershipEndDeps } from '../team/members';
import type { TeamStore } from '../team/types';
import { deleteCompanyWithAccount, type CompanyRemovalDeps } from './companies';
import type { CompanyRecord } from './types';

/** The end of time for the pending-upload look-up: every pending upload's expiry is before it. */
const ANY_EXPIRY = '9999-12-31T23:59:59.999Z';

export type AccountDeletionDeps = CompanyRemovalDeps &
  MembershipEndDeps & {
    team: TeamStore;
    connections: Pick<ConnectionStore, 'unsubscribeCompany' | 'unsubscribeUser'>;
    documents: Pick<DocumentsStore, 'tallies' | 'expiredUploads' | 'releaseUpload'>;
    identity: IdentityDirectory;
  };

/** Documents of every status and type in the user's own scope (the all-companies view's documents without a company). */
async function documentsWithoutCompany(deps: AccountDeletionDeps, userId: string): Promise<number> {
  const scope = userScope(userId);
  const tally = (await deps.documents.tallies([scope])).get(scope);
  if (!tally) return 0;
  return RECEIPT_TYPES.reduce((sum, type) => sum + Object.values(tally[type].counts).reduce((a, b) => a + b, 0), 0);
}

/** An all-companies upload of the user whose file may still arrive (expired reservations are given back first). */
async function uploadUnderWay(deps: AccountDeletionDeps, userId: string): Promise<boolean> {
  await releaseExpiredUserUploads(deps, userId);
  return (await deps.documents.expiredUploads(userScope(userId), ANY_EXPIRY, 1)).length > 0;
}

export async function deleteOwnAccount(deps: AccountDeletionDeps, userId: string, input: DeleteAccountInput): Promise<DeleteAccountResult> {
  const profile = await deps.store.getProfile(userId);
  if (!profile) throw notFound('Profile not found');
  if (input.email.trim().toLowerCase() !== profile.email.trim().toLowerCase()) {
    throw new AppError('ValidationFailed', ACCOUNT_MSG.confirmEmail, [{ path: ['email'], message: ACCOUNT_MSG.confirmEmail }]);
  }

  const memberships = await deps.store.listMembershipsOfUser(userId);
  const companies = await deps.store.getCompanies(memberships.map((m) => m.company_id));
  const owned: CompanyRecord[] = [];
  const shared: string[] = [];
  for (const company of companies.filter((c) => c.owner.user_id === userId)) {
    const members = await deps.store.listMembersOfCompany(company.company_id);
    if (members.some((m) => m.user_id !== userId)) shared.push(company.name);
    else owned.push(company);
  }
  const reasons: string[] = [];
  if (shared.length) reasons.push(ownsSharedCompaniesMessage(shared));
  const unassigned = await documentsWithoutCompany(deps, userId);
  if (unassigned > 0) reasons.push(unassignedDocumentsMessage(unassigned));
  if (!reasons.length && (await uploadUnderWay(deps, userId))) reasons.push(ACCOUNT_MSG.uploadInProgress);
  if (reasons.length) throw conflict(reasons.join(' '));

  const deleted: string[] = [];
  for (const company of owned) {
    if (await deleteCompanyWithAccount(deps, company)) deleted.push(company.company_id);
  }
  const ownedIds = new Set(owned.map((c) => c.company_id));
  const left: string[] = [];
  for (const m of memberships) {
    if (ownedIds.has(m.company_id)) continue;
    const member = await deps.team.getMember(m.company_id, userId);
    if (member && (await endMembership(deps, m.company_id, member))) left.push(m.company_id);
  }
  await deps.identity.deleteUser(userId);
  await deps.store.deleteUserItems(userId);
  return { deleted: true, companies_deleted: deleted, companies_left: left };
}
