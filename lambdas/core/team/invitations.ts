import { createHash, randomBytes } from 'node:crypto';
import { INVITATION_VALID_DAYS, INVITATIONS_PER_DAY } from '../../../shared/constants';
import { AppError, badRequest, conflict, notFound } from '../../../shared/errors';
import { invitationTokenPathSchema, type Invite, type InvitationView, type PendingInvitation } from '../../../shared/schemas/team';
import type { ProfileRecord } from '../accounts/types';
import type { AccountsStore, Clock } from '../ports';
import { defaultEmailPrefix, memberEmailInAddress, prefixCandidate } from './email-prefix';
import { invitationEmail } from './invitation-email';
import type { InvitationRecord, Mailer, MemberRecord, TeamStore } from './types';

export const ALREADY_MEMBER = 'This user is already a member of the company';
export const INVITATION_NOT_FOUND = 'Invitation not found';
export const INVITATION_USED = 'This invitation has already been used';
export const INVITATION_EXPIRED = 'This invitation has expired';
export const SIGN_UP_REQUIRED = 'Sign up to accept this invitation';
export const MAIL_FAILED = 'The invitation email could not be sent';
export const INVITATIONS_TODAY = `Your company has sent the most invitations allowed in a day (${INVITATIONS_PER_DAY}). Try again tomorrow.`;

const PREFIX_ATTEMPTS = 6;
const DAY_MS = 86_400_000;

/** A new invitation token: 32 random bytes, base64url (43 characters). Only its hash is stored. */
export function newInvitationToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The invitation id: SHA-256 of the token, hex. The item is keyed by it; the Cognito attribute carries it. */
export function invitationIdOf(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function invitationLink(appUrl: string, token: string): string {
  return `${appUrl.replace(/\/+$/, '')}/signup/invite?token=${encodeURIComponent(token)}`;
}

/** Why an invitation cannot be used now, if it cannot. */
export function invitationProblem(invitation: InvitationRecord | undefined, now: Date): string | undefined {
  if (!invitation) return INVITATION_NOT_FOUND;
  if (invitation.used_at) return INVITATION_USED;
  if (Date.parse(invitation.expires_at) <= now.getTime()) return INVITATION_EXPIRED;
  return undefined;
}

/**
 * An invitation is the word of the administrator who sent it: it holds only while they are an administrator member
 * of its company (A4). Lowered to Basic or removed, their pending invitations are cancelled (`cancelInvitationsSentBy`);
 * one that outlived that (sent at the same moment) answers as a cancelled one, 'Invitation not found'.
 */
async function inviterIsAdmin(team: Pick<TeamStore, 'getMember'>, invitation: InvitationRecord): Promise<boolean> {
  return (await team.getMember(invitation.company_id, invitation.invited_by))?.role === 'admin';
}

/**
 * The pending invitations `userId` sent for the company are cancelled (T2, then T10 each: an accepted one stays, one
 * already gone is a no-op, so running it again does nothing more): after they were removed from the company or lost
 * the administrator role (core/team/members.ts). Returns how many were cancelled.
 */
export async function cancelInvitationsSentBy(team: Pick<TeamStore, 'listInvitations' | 'cancelInvitation'>, companyId: string, userId: string): Promise<number> {
  const sent = (await team.listInvitations(companyId)).filter((i) => i.invited_by === userId && !i.used_at);
  const cancelled = await Promise.all(sent.map((i) => team.cancelInvitation(i.id, companyId)));
  return cancelled.filter(Boolean).length;
}

function assertUsable(invitation: InvitationRecord | undefined, now: Date): asserts invitation is InvitationRecord {
  const problem = invitationProblem(invitation, now);
  if (problem === INVITATION_NOT_FOUND) throw notFound(problem);
  if (problem) throw conflict(problem);
}

export interface InviteDeps {
  store: AccountsStore;
  team: TeamStore;
  mailer: Mailer;
  clock: Clock;
  appUrl: string;
  log: { warn(msg: string, data?: Record<string, unknown>): void };
}

/**
 * POST /invitation: stores the invitation (hash of a fresh token, role, expiry in INVITATION_VALID_DAYS days)
 * and mails the link. A person who is already a member is refused; so is a company that mailed INVITATIONS_PER_DAY
 * invitations this UTC day (429; counted before the mail, given back when it is not sent).
 */
export async function inviteColleague(
  deps: InviteDeps,
  caller: { userId: string; companyId: string },
  input: Invite,
): Promise<Omit<InvitationView, 'company_name' | 'name' | 'surname'> & { name: string; surname: string }> {
  if (input.company_id && input.company_id !== caller.companyId) throw badRequest('company_id of the body and the query differ');
  const email = input.email.trim().toLowerCase();
  const [[company], inviter, existing] = await Promise.all([
    deps.store.getCompanies([caller.companyId]),
    deps.store.getProfile(caller.userId),
    deps.team.findProfileByEmail(email),
  ]);
  if (!company) throw notFound('Company not found');
  if (existing && (await deps.team.getMember(caller.companyId, existing.id))) {
    throw conflict(ALREADY_MEMBER, [{ path: ['email'], message: ALREADY_MEMBER }]);
  }
  const now = deps.clock.now();
  const token = newInvitationToken();
  const invitation: InvitationRecord = {
    id: invitationIdOf(token),
    company_id: caller.companyId,
    email,
    name: input.name,
    surname: input.surname,
    role: input.role,
    message: input.message.trim(),
    invited_by: caller.userId,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + INVITATION_VALID_DAYS * DAY_MS).toISOString(),
    used_at: null,
    used_by: null,
  };
  const day = now.toISOString().slice(0, 10);
  if (!(await deps.team.countInvitationMailed(caller.companyId, day, INVITATIONS_PER_DAY))) throw new AppError('QuotaExceeded', INVITATIONS_TODAY);
  // (a give-back that fails leaves one invitation too many counted for the day)
  const giveBack = () => deps.team.uncountInvitationMailed(caller.companyId, day).catch(() => undefined);
  await deps.team.putInvitation(invitation).catch(async (error: unknown) => {
    await giveBack();
    throw error;
  });
  const mail = invitationEmail({
    invitation,
    companyName: company.name,
    inviterName: inviter ? `${inviter.name} ${inviter.surname}`.trim() : '',
    link: invitationLink(deps.appUrl, token),
  });
  try {
    await deps.mailer.send(mail);
  } catch (error) {
    // No mail, no invitation: the admin sees the failure and can try again.
    await deps.team.deleteInvitation(invitation.id);
    await giveBack();
    throw new AppError('InternalError', MAIL_FAILED, { cause: error instanceof Error ? error.name : 'unknown' });
  }
  try {
    await replaceEarlierInvitations(deps.team, invitation);
  } catch (error) {
    // Replaced again and again by invitations sent at once: this one was cancelled, the admin is told (409).
    if (error instanceof AppError) throw error;
    // The mail is out and its link works: the invitation is made, whatever the replacement met. An earlier link to the
    // same person stays valid beside it until it expires or the person is invited again.
    deps.log.warn('the earlier invitations of an address were not replaced', { invitation_id: invitation.id, company_id: invitation.company_id, error: String(error) });
  }
  return {
    id: invitation.id,
    email,
    company_id: invitation.company_id,
    name: invitation.name,
    surname: invitation.surname,
    role: invitation.role,
    expires_at: invitation.expires_at,
    new_account_required: !existing,
  };
}

/** How often a mailed invitation tries to become the valid one while other invitations of the address keep replacing it. */
export const REPLACE_ATTEMPTS = 5;
export const INVITATION_BUSY = 'This person was invited again meanwhile. Please try again.';

/**
 * Sent again: the earlier links to the same person stop working, so one link is valid at a time — the newest (by
 * `created_at`; of two equal ones, the one recorded last). The company's pointer to the valid invitation of the
 * address (T11) is replaced only while it still names the invitation read (T12), with the delete of that invitation
 * in the same transaction, so two invitations sent at once (a double click) never cancel each other: the second
 * replacement fails, reads the pointer again and either replaces the first or, being the older, cancels itself.
 */
async function replaceEarlierInvitations(team: TeamStore, invitation: InvitationRecord): Promise<void> {
  for (let attempt = 0; attempt < REPLACE_ATTEMPTS; attempt++) {
    const current = await team.getCurrentInvitation(invitation.company_id, invitation.email);
    if (current && current.created_at > invitation.created_at) {
      await team.cancelInvitation(invitation.id, invitation.company_id);
      return;
    }
    if (await team.makeCurrentInvitation(invitation, current?.invitation_id)) {
      // None recorded yet (the first invitation of the address, or one sent before the pointer existed): the older
      // pending invitations of the address, found by T2, stop working. A newer one is left alone: it replaces this one.
      if (!current) {
        const older = (await team.listInvitations(invitation.company_id)).filter(
          (i) => i.email === invitation.email && i.id !== invitation.id && !i.used_at && i.created_at < invitation.created_at,
        );
        await Promise.all(older.map((i) => team.cancelInvitation(i.id, invitation.company_id)));
      }
      return;
    }
  }
  // Replaced again and again by invitations sent at the same time: this one stops working, the admin tries again.
  await team.cancelInvitation(invitation.id, invitation.company_id);
  throw conflict(INVITATION_BUSY);
}

/**
 * GET /company/invitations (company admin): the invitations of the company that are neither accepted nor expired,
 * newest first, with the administrator who sent each and the message mailed with it (Send Again mails it again). An
 * invitation sent again replaces the earlier one, so each person appears once.
 */
export async function listPendingInvitations(
  deps: { store: AccountsStore; team: TeamStore; clock: Clock },
  caller: { userId: string; companyId: string },
): Promise<PendingInvitation[]> {
  const now = deps.clock.now();
  const pending = (await deps.team.listInvitations(caller.companyId)).filter((i) => !invitationProblem(i, now));
  pending.sort((a, b) => b.created_at.localeCompare(a.created_at));
  const inviterIds = [...new Set(pending.map((i) => i.invited_by))];
  const inviters = new Map((await Promise.all(inviterIds.map((id) => deps.store.getProfile(id)))).flatMap((p) => (p ? [[p.id, p] as const] : [])));
  return pending.map((i) => {
    const inviter = inviters.get(i.invited_by);
    return {
      id: i.id,
      company_id: i.company_id,
      email: i.email,
      name: i.name,
      surname: i.surname,
      role: i.role,
      message: i.message ?? '',
      created_at: i.created_at,
      expires_at: i.expires_at,
      invited_by: inviter ? { name: inviter.name, surname: inviter.surname } : null,
    };
  });
}

/**
 * DELETE /company/invitations/{id} (company admin): the link stops working ('Invitation not found'). Another
 * company's invitation is not found; an accepted one cannot be cancelled (the person is a member: My Team
 * removes them).
 */
export async function cancelInvitation(
  deps: { team: TeamStore },
  caller: { companyId: string },
  invitationId: string,
): Promise<{ cancelled: true; id: string }> {
  const invitation = await deps.team.getInvitation(invitationId);
  if (!invitation || invitation.company_id !== caller.companyId) throw notFound(INVITATION_NOT_FOUND);
  if (invitation.used_at) throw conflict(INVITATION_USED);
  if (!(await deps.team.cancelInvitation(invitationId, caller.companyId))) {
    // Accepted or cancelled a moment ago
    const now = await deps.team.getInvitation(invitationId);
    if (now?.used_at) throw conflict(INVITATION_USED);
    throw notFound(INVITATION_NOT_FOUND);
  }
  return { cancelled: true, id: invitationId };
}

/** GET /invitation/{token} (no sign-in: the token is the credential). */
export async function readInvitation(
  deps: { store: AccountsStore; team: TeamStore; clock: Clock },
  token: string,
): Promise<InvitationView> {
  const invitation = await deps.team.getInvitation(invitationIdOf(token));
  assertUsable(invitation, deps.clock.now());
  const [[company], existing, inviterAdmin] = await Promise.all([
    deps.store.getCompanies([invitation.company_id]),
    deps.team.findProfileByEmail(invitation.email),
    inviterIsAdmin(deps.team, invitation),
  ]);
  if (!company || !inviterAdmin) throw notFound(INVITATION_NOT_FOUND);
  return {
    id: invitation.id,
    email: invitation.email,
    company_id: invitation.company_id,
    company_name: company.name,
    name: invitation.name,
    surname: invitation.surname,
    role: invitation.role,
    expires_at: invitation.expires_at,
    new_account_required: !existing,
  };
}

/**
 * Adds the membership for an invitation with a fresh Email-in prefix (tried until one is free), marking the
 * invitation used in the same transaction, which also checks that the company still exists ('company' when it was
 * deleted: its invitations stay until the purge). `profile` is created with it for a new account.
 */
async function joinCompany(
  team: TeamStore,
  invitation: InvitationRecord,
  user: { id: string; email: string },
  now: Date,
  profile?: ProfileRecord,
): Promise<'joined' | 'member' | 'invitation' | 'company' | 'inviter' | 'profile'> {
  // Accepting one's own invitation: a member already, or (no longer a member) an invitation of no administrator.
  if (user.id === invitation.invited_by) return (await team.getMember(invitation.company_id, user.id)) ? 'member' : 'inviter';
  const base = defaultEmailPrefix(invitation.name, invitation.surname, user.email);
  for (let attempt = 0; attempt < PREFIX_ATTEMPTS; attempt++) {
    const prefix = prefixCandidate(base, attempt);
    const member: MemberRecord = {
      user_id: user.id,
      company_id: invitation.company_id,
      role: invitation.role,
      joined_at: now.toISOString(),
      email_prefix: prefix,
      name: invitation.name,
      surname: invitation.surname,
    };
    const failure = await team.acceptInvitation({
      invitationId: invitation.id,
      userId: user.id,
      now: now.toISOString(),
      inviterId: invitation.invited_by,
      member,
      emailInAddress: memberEmailInAddress(prefix),
      profile,
    });
    if (!failure) return 'joined';
    if (failure !== 'prefix') return failure;
  }
  throw conflict('No free Email-in address was found for the new member');
}

/**
 * Pre-sign-up of an invited person: the sign-up proves its e-mail address when it carries the invitation's token
 * (only the mailed link holds it; the id in the attribute is known to the company's admins too), the token is of
 * the invitation named by the attribute, and that invitation is usable and for this address. Such a sign-up is
 * confirmed without a mailed code; any other goes the ordinary way (a code to the address).
 */
export async function invitedSignUpProvesAddress(
  deps: { team: TeamStore; clock: Clock },
  signUp: { email: string; invitationId: string | undefined; token: string | undefined },
): Promise<boolean> {
  const token = signUp.token === undefined ? undefined : invitationTokenPathSchema.shape.token.safeParse(signUp.token);
  if (!token?.success || !signUp.invitationId) return false;
  const id = invitationIdOf(token.data);
  if (id !== signUp.invitationId) return false;
  const invitation = await deps.team.getInvitation(id);
  return (
    !!invitation &&
    !invitationProblem(invitation, deps.clock.now()) &&
    invitation.email === signUp.email.trim().toLowerCase() &&
    (await inviterIsAdmin(deps.team, invitation))
  );
}

/**
 * PUT /invitation/{token}: an invitee who already has an account joins the company (a deleted company's, or one whose
 * sender is no longer an administrator of it: not found).
 */
export async function confirmInvitation(
  deps: { store: AccountsStore; team: TeamStore; clock: Clock },
  token: string,
): Promise<{ accepted: true; company_id: string }> {
  const now = deps.clock.now();
  const invitation = await deps.team.getInvitation(invitationIdOf(token));
  assertUsable(invitation, now);
  if (!(await inviterIsAdmin(deps.team, invitation))) throw notFound(INVITATION_NOT_FOUND);
  const profile = await deps.team.findProfileByEmail(invitation.email);
  if (!profile) throw conflict(SIGN_UP_REQUIRED);
  const outcome = await joinCompany(deps.team, invitation, profile, now);
  if (outcome === 'company' || outcome === 'inviter') throw notFound(INVITATION_NOT_FOUND);
  if (outcome === 'member') throw conflict(ALREADY_MEMBER);
  if (outcome !== 'joined') {
    const again = invitationProblem(await deps.team.getInvitation(invitation.id), deps.clock.now());
    throw conflict(again ?? INVITATION_USED);
  }
  return { accepted: true, company_id: invitation.company_id };
}

/**
 * Post-confirmation of an invited sign-up: re-checks the invitation on the server (id, same e-mail, unused,
 * unexpired, its sender still an administrator of the company), then creates the profile and joins the inviting
 * company with the invited role, without a company of their own. An invitation that no longer holds (its company
 * deleted, its sender lowered to Basic or removed, too) leaves a profile without
 * companies (the user can add a company, or accept a new invitation). Safe to run twice.
 */
export async function provisionInvitedUser(
  deps: { store: AccountsStore; team: TeamStore; clock: Clock; globalAdminEmails: string[] },
  attrs: { userId: string; email: string; invitationId: string },
): Promise<{ outcome: 'joined' | 'exists' | 'invitation-invalid'; profile?: ProfileRecord }> {
  const existing = await deps.store.getProfile(attrs.userId);
  if (existing) return { outcome: 'exists', profile: existing };
  const now = deps.clock.now();
  const email = attrs.email.trim().toLowerCase();
  const invitation = /^[a-f0-9]{64}$/.test(attrs.invitationId) ? await deps.team.getInvitation(attrs.invitationId) : undefined;
  const valid = invitation && !invitationProblem(invitation, now) && invitation.email === email;
  const profileOf = (from?: { name: string; surname: string }): ProfileRecord => ({
    id: attrs.userId,
    email,
    name: from?.name ?? '',
    surname: from?.surname ?? '',
    phone: '',
    address: '',
    city: '',
    country: '',
    post_code: '',
    is_admin: deps.globalAdminEmails.includes(email),
    created_at: now.toISOString(),
    last_login: null,
  });
  let profile = profileOf(valid ? invitation : undefined);
  if (valid) {
    const outcome = await joinCompany(deps.team, invitation, { id: attrs.userId, email }, now, profile);
    if (outcome === 'joined') return { outcome: 'joined', profile };
    if (outcome === 'profile') return { outcome: 'exists', profile: await deps.store.getProfile(attrs.userId) };
    // The company was deleted, or the sender is no longer its administrator: nothing of the invitation goes into the profile.
    if (outcome === 'company' || outcome === 'inviter') profile = profileOf();
  }
  const created = await deps.team.putProfile(profile);
  return { outcome: created ? 'invitation-invalid' : 'exists', profile };
}
