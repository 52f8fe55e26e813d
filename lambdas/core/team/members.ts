import { conflict, notFound } from '../../../shared/errors';
import type { CompanyUser, UpdateCompanyUserInput } from '../../../shared/schemas/team';
import type { ConnectionStore } from '../live/connections';
import type { AccountsStore, LiveEvents } from '../ports';
import type { CompanyRecord, ProfileRecord } from '../accounts/types';
import { switchOffImportsOf, type DriveDeps } from '../drive-import/service';
import { shownEmailInAddress } from '../email-in/address';
import { memberEmailInAddress } from './email-prefix';
import { cancelInvitationsSentBy } from './invitations';
import type { MemberRecord, TeamStore } from './types';

export const PREFIX_TAKEN = 'This Email-in address is already taken';
export const LAST_ADMIN = 'A company needs at least one administrator';
export const OWNER_STAYS_ADMIN = 'The account owner stays an administrator';
export const CANNOT_DELETE = 'This user cannot be deleted';

export interface TeamDeps {
  store: AccountsStore;
  team: TeamStore;
  /** The deployed Email-in domain members' addresses are shown at (EMAIL_IN_DOMAIN; empty: the stored ones). */
  emailInDomain: string;
}

/**
 * Whether a member may be deleted: never yourself, never the company's creator (the Account owner), never
 * the last administrator.
 */
export function canBeDeleted(member: MemberRecord, company: CompanyRecord, callerId: string, adminCount: number): boolean {
  if (member.user_id === callerId) return false;
  if (member.user_id === company.owner.user_id) return false;
  if (member.role === 'admin' && adminCount <= 1) return false;
  return true;
}

/**
 * The member's Email-in address: their own prefix, or the company's address while they have none (the creator);
 * shown at the deployed domain (`emailInDomain`, email-in/address.ts). `email_prefix` is the local part only.
 */
export function emailInOf(member: MemberRecord, company: CompanyRecord, emailInDomain: string): { email: string; email_prefix: string } {
  if (member.email_prefix) return { email: shownEmailInAddress(memberEmailInAddress(member.email_prefix), emailInDomain), email_prefix: member.email_prefix };
  return { email: shownEmailInAddress(company.email, emailInDomain), email_prefix: company.email.split('@')[0] ?? '' };
}

export function toCompanyUser(
  member: MemberRecord,
  profile: ProfileRecord,
  company: CompanyRecord,
  callerId: string,
  adminCount: number,
  emailInDomain: string,
): CompanyUser {
  return {
    user_id: member.user_id,
    company_id: company.company_id,
    name: member.name ?? profile.name,
    surname: member.surname ?? profile.surname,
    role: member.role,
    ...emailInOf(member, company, emailInDomain),
    is_owner: member.user_id === company.owner.user_id,
    can_be_deleted: canBeDeleted(member, company, callerId, adminCount),
    user: { created_at: profile.created_at, last_login: profile.last_login, email: profile.email },
  };
}

async function companyOrNotFound(store: AccountsStore, companyId: string): Promise<CompanyRecord> {
  const [company] = await store.getCompanies([companyId]);
  if (!company) throw notFound('Company not found');
  return company;
}

/** Members of a company for its administrators (My Team, the upload's Owner dropdown). */
export async function listCompanyUsers(deps: TeamDeps, callerId: string, companyId: string): Promise<CompanyUser[]> {
  const company = await companyOrNotFound(deps.store, companyId);
  const members = await deps.team.listMembers(companyId);
  const profiles = new Map((await deps.store.getProfiles(members.map((m) => m.user_id))).map((p) => [p.id, p]));
  const adminCount = members.filter((m) => m.role === 'admin').length;
  return members
    .filter((m) => profiles.has(m.user_id))
    .map((m) => toCompanyUser(m, profiles.get(m.user_id)!, company, callerId, adminCount, deps.emailInDomain))
    .sort((a, b) => Number(b.is_owner) - Number(a.is_owner) || a.user.created_at.localeCompare(b.user.created_at));
}

/**
 * GET /company/users/me: the caller's own member card in a company, for every member (a Basic user cannot load the
 * company's list, and reads here the Email-in address mail sent to becomes theirs). It is never deletable by them.
 */
export async function ownCompanyUser(deps: TeamDeps, callerId: string, companyId: string): Promise<CompanyUser> {
  const [company, member, profile] = await Promise.all([companyOrNotFound(deps.store, companyId), deps.team.getMember(companyId, callerId), deps.store.getProfile(callerId)]);
  if (!member || !profile) throw notFound('User not found');
  return toCompanyUser(member, profile, company, callerId, 0, deps.emailInDomain);
}

async function memberOrNotFound(deps: Pick<TeamDeps, 'store' | 'team'>, companyId: string, userId: string) {
  const [company, members] = await Promise.all([companyOrNotFound(deps.store, companyId), deps.team.listMembers(companyId)]);
  const member = members.find((m) => m.user_id === userId);
  // A user of another company (or no user at all) is simply not found here.
  if (!member) throw notFound('User not found');
  return { company, member, adminCount: members.filter((m) => m.role === 'admin').length };
}

/**
 * PUT /company/users/{id}: changes the company's name, surname, role or Email-in prefix of one member. A changed role
 * reaches the member's open screens at once (`membership` on their own channel: the menus an administrator has
 * appear or go), including an administrator's own screens after they gave up the role. An administrator lowered to
 * Basic loses the invitations they sent: the pending ones are cancelled (docs/decisions.md "Invitations end with
 * their sender's administrator role"), and the Google Drive and Dropbox imports they connected are switched off
 * (their grant revoked at the provider and forgotten), as when they are removed: only admins configure integrations.
 */
export async function updateCompanyUser(
  deps: TeamDeps & { live: LiveEvents; drive?: DriveDeps },
  callerId: string,
  companyId: string,
  userId: string,
  input: UpdateCompanyUserInput,
): Promise<CompanyUser> {
  const { company, member, adminCount } = await memberOrNotFound(deps, companyId, userId);
  const changes: Partial<Pick<MemberRecord, 'role' | 'name' | 'surname' | 'email_prefix'>> = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.surname !== undefined) changes.surname = input.surname;
  if (input.role !== undefined && input.role !== member.role) {
    if (member.user_id === company.owner.user_id) throw conflict(OWNER_STAYS_ADMIN, [{ path: ['role'], message: OWNER_STAYS_ADMIN }]);
    if (member.role === 'admin' && adminCount <= 1) throw conflict(LAST_ADMIN, [{ path: ['role'], message: LAST_ADMIN }]);
    changes.role = input.role;
  }
  let claim: { oldAddress?: string; newAddress: string } | undefined;
  if (input.email_prefix !== undefined) {
    const prefix = input.email_prefix.toLowerCase();
    const current = member.email_prefix?.toLowerCase();
    if (prefix !== current) {
      claim = { oldAddress: current ? memberEmailInAddress(current) : undefined, newAddress: memberEmailInAddress(prefix) };
      changes.email_prefix = prefix;
    }
  }
  if (Object.keys(changes).length > 0) {
    const failure = await deps.team.updateMember(companyId, userId, changes, claim);
    if (failure === 'prefix') throw conflict(PREFIX_TAKEN, [{ path: ['email_prefix'], message: PREFIX_TAKEN }]);
    if (failure === 'member') throw notFound('User not found');
    // An administrator lowered to Basic: the invitations they sent end with their role (acceptance checks it too, T4).
    if (changes.role === 'basic' && member.role === 'admin') {
      await cancelInvitationsSentBy(deps.team, companyId, userId);
      // Only admins configure integrations: the imports they connected end with the role (the import job checks it too, G12).
      await endImportsOf(deps.drive, companyId, userId, 'no longer an admin');
    }
    if (changes.role) await deps.live.publishToUser(userId, 'membership', { company_id: companyId, role: changes.role });
  }
  const [profile] = await deps.store.getProfiles([userId]);
  if (!profile) throw notFound('User not found');
  const updated: MemberRecord = { ...member, ...changes };
  const admins = adminCount + (changes.role === 'admin' ? 1 : changes.role === 'basic' ? -1 : 0);
  return toCompanyUser(updated, profile, company, callerId, admins, deps.emailInDomain);
}

/**
 * DELETE /company/users/{id}: removes the membership and releases the member's Email-in claim (never given to another
 * company, data-model.md); their documents stay with the company. The removed member's open screens stop following
 * the company at once: their live subscriptions to it end (not when the connection expires), and their own channel
 * gets a `company-delete` so the company leaves their companies list (for them it is gone). The pending invitations
 * they sent are cancelled. The Google Drive and Dropbox imports they connected are switched off (their grant revoked
 * at the provider and forgotten): their folder no longer feeds the company (the import job refuses it too).
 */
export async function deleteCompanyUser(
  deps: Pick<TeamDeps, 'store' | 'team'> & { connections: Pick<ConnectionStore, 'unsubscribeUser'>; live: LiveEvents; drive?: DriveDeps },
  callerId: string,
  companyId: string,
  userId: string,
): Promise<{ deleted: true; user_id: string }> {
  const { company, member, adminCount } = await memberOrNotFound(deps, companyId, userId);
  if (!canBeDeleted(member, company, callerId, adminCount)) throw conflict(CANNOT_DELETE);
  if (!(await endMembership(deps, companyId, member))) throw notFound('User not found');
  return { deleted: true, user_id: userId };
}

/** What ending a membership needs (DELETE /company/users/{id}, and an account's deletion for the companies it leaves). */
export type MembershipEndDeps = Pick<TeamDeps, 'team'> & { connections: Pick<ConnectionStore, 'unsubscribeUser'>; live: LiveEvents; drive?: DriveDeps };

/**
 * Ends one membership: the membership and the member's Email-in claim go (the claim released, never given to another
 * company), the invitations they sent are cancelled, their live subscriptions to the company end, their own channel gets
 * `company-delete`, and the Google Drive and Dropbox imports they connected are switched off. False when the
 * membership was already gone (nothing else is done then).
 */
export async function endMembership(deps: MembershipEndDeps, companyId: string, member: MemberRecord): Promise<boolean> {
  const userId = member.user_id;
  const failure = await deps.team.removeMember(companyId, userId, member.email_prefix ? memberEmailInAddress(member.email_prefix) : undefined);
  if (failure) return false;
  // The invitations they sent end with their membership (acceptance checks it too, T4).
  await cancelInvitationsSentBy(deps.team, companyId, userId);
  await deps.connections.unsubscribeUser(userId, companyId);
  await deps.live.publishToUser(userId, 'company-delete', { company_id: companyId });
  await endImportsOf(deps.drive, companyId, userId, 'left');
  return true;
}

/**
 * The Google Drive and Dropbox imports `userId` connected are switched off (their grant revoked at the provider and
 * forgotten) once they left the company or are no longer an administrator. A failure is logged and the change stands:
 * the import job switches such an import off at its next run (it checks the connector is still an admin member, G12).
 */
async function endImportsOf(drive: DriveDeps | undefined, companyId: string, userId: string, why: 'left' | 'no longer an admin'): Promise<void> {
  if (!drive) return;
  try {
    await switchOffImportsOf(drive, companyId, userId, why);
  } catch (error) {
    const whose = why === 'left' ? 'a removed member' : 'a member lowered to Basic';
    drive.log?.warn(`switching off the imports of ${whose} failed`, { company_id: companyId, error: error instanceof Error ? error.message : String(error) });
  }
}
