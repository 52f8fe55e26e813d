import { describe, expect, it } from 'vitest';
import { INVITATIONS_PER_DAY } from '../../../shared/constants';
import { AppError } from '../../../shared/errors';
import type { CompanyRecord, ProfileRecord } from '../../../lambdas/core/accounts/types';
import type { AccountsStore } from '../../../lambdas/core/ports';
import { defaultEmailPrefix, memberEmailInAddress, prefixCandidate } from '../../../lambdas/core/team/email-prefix';
import {
  INVITATION_EXPIRED,
  INVITATION_USED,
  INVITATION_NOT_FOUND,
  INVITATIONS_TODAY,
  MAIL_FAILED,
  cancelInvitation,
  cancelInvitationsSentBy,
  confirmInvitation,
  invitationIdOf,
  invitationProblem,
  invitedSignUpProvesAddress,
  inviteColleague,
  listPendingInvitations,
  newInvitationToken,
  provisionInvitedUser,
  readInvitation,
} from '../../../lambdas/core/team/invitations';
import { canBeDeleted } from '../../../lambdas/core/team/members';
import type { CurrentInvitation, InvitationRecord, MemberRecord, OutgoingMail, TeamStore } from '../../../lambdas/core/team/types';
import { inviteSchema, updateCompanyUserSchema } from '../../../shared/schemas/team';
import { memberRoleLabel } from '../../../web/src/features/team/lib/labels';

const NOW = new Date('2026-11-25T10:00:00Z');
/** A log that keeps the warnings it was given, for a test to read. */
function recordingLog() {
  const warnings: { msg: string; data?: Record<string, unknown> }[] = [];
  return { warnings, warn: (msg: string, data?: Record<string, unknown>) => void warnings.push({ msg, data }) };
}
const clock = { now: () => NOW };

const company: CompanyRecord = {
  company_id: 'C1',
  name: 'Ąžuolas UAB',
  code: '300',
  unique_name: 'azuolas-uab-abc123',
  email: 'azuolas-uab-abc123@in.receipts.local',
  created_at: NOW.toISOString(),
  owner: { user_id: 'owner', name: 'Ona', surname: 'Onaitė', email: 'ona@example.com' },
  available_documents: 500,
  vat_account: '',
  integrations: {} as CompanyRecord['integrations'],
  google_selected_import_folder_name: null,
  dropbox_selected_import_folder_name: null,
};

const profile = (id: string, email: string): ProfileRecord => ({
  id,
  email,
  name: 'P',
  surname: 'S',
  phone: '',
  address: '',
  city: '',
  country: '',
  post_code: '',
  is_admin: false,
  created_at: NOW.toISOString(),
  last_login: null,
});

/** In-memory team store with the same conditions as the DynamoDB one (claims unique, invitations single use). */
function memoryTeam() {
  const invitations = new Map<string, InvitationRecord>();
  const members: MemberRecord[] = [];
  const claims = new Map<string, string>();
  const profiles = new Map<string, ProfileRecord>();
  const current = new Map<string, CurrentInvitation>();
  const deletedCompanies = new Set<string>();
  // invitations counted per company and UTC day (T13)
  const mailed = new Map<string, number>();
  // The sender of the tests' invitations, an administrator of C1 (kept out of `members`, which holds those who joined)
  const inviters = new Map<string, MemberRecord>([['C1|owner', { user_id: 'owner', company_id: 'C1', role: 'admin', joined_at: '' }]]);
  const team: TeamStore = {
    putInvitation: async (i) => void invitations.set(i.id, { ...i }),
    getInvitation: async (id) => invitations.get(id),
    deleteInvitation: async (id) => void invitations.delete(id),
    listInvitations: async (c) => [...invitations.values()].filter((i) => i.company_id === c).sort((a, b) => a.created_at.localeCompare(b.created_at)),
    cancelInvitation: async (id, c) => {
      const i = invitations.get(id);
      if (!i || i.company_id !== c || i.used_at) return false;
      return invitations.delete(id);
    },
    getCurrentInvitation: async (c, email) => current.get(`${c}|${email}`),
    makeCurrentInvitation: async (i, previousId) => {
      if (current.get(`${i.company_id}|${i.email}`)?.invitation_id !== previousId) return false;
      current.set(`${i.company_id}|${i.email}`, { invitation_id: i.id, created_at: i.created_at });
      if (previousId && !invitations.get(previousId)?.used_at) invitations.delete(previousId);
      return true;
    },
    countInvitationMailed: async (c, day, limit) => {
      const n = mailed.get(`${c}|${day}`) ?? 0;
      if (n >= limit) return false;
      mailed.set(`${c}|${day}`, n + 1);
      return true;
    },
    uncountInvitationMailed: async (c, day) => {
      const n = mailed.get(`${c}|${day}`) ?? 0;
      if (n > 0) mailed.set(`${c}|${day}`, n - 1);
    },
    findProfileByEmail: async (email) => [...profiles.values()].find((p) => p.email === email),
    putProfile: async (p) => (profiles.has(p.id) ? false : (profiles.set(p.id, p), true)),
    listMembers: async (c) => members.filter((m) => m.company_id === c),
    getMember: async (c, u) => members.find((m) => m.company_id === c && m.user_id === u) ?? inviters.get(`${c}|${u}`),
    acceptInvitation: async (w) => {
      const inv = invitations.get(w.invitationId);
      if (!inv || inv.used_at || inv.expires_at <= w.now) return 'invitation';
      if (deletedCompanies.has(w.member.company_id)) return 'company';
      if (inviters.get(`${w.member.company_id}|${w.inviterId}`)?.role !== 'admin') return 'inviter';
      if (members.some((m) => m.company_id === w.member.company_id && m.user_id === w.member.user_id)) return 'member';
      if (claims.has(w.emailInAddress)) return 'prefix';
      if (w.profile && profiles.has(w.profile.id)) return 'profile';
      inv.used_at = w.now;
      inv.used_by = w.userId;
      members.push(w.member);
      claims.set(w.emailInAddress, w.userId);
      if (w.profile) profiles.set(w.profile.id, w.profile);
      return undefined;
    },
    updateMember: async () => undefined,
    removeMember: async () => undefined,
  };
  return { team, invitations, members, claims, profiles, deletedCompanies, inviters, mailed };
}

const store = {
  getCompanies: async (ids: string[]) => (ids.includes('C1') ? [company] : []),
  getProfile: async (id: string) => (id === 'owner' ? profile('owner', 'ona@example.com') : undefined),
} as unknown as AccountsStore;

describe('Email-in prefix of a member', () => {
  it('is name.surname without accents, else the e-mail local part, at least 4 characters', () => {
    expect(defaultEmailPrefix('Rasa', 'Kolegė', 'r@example.com')).toBe('rasa.kolege');
    expect(defaultEmailPrefix('Žaneta', 'Šaulė-Ūsė', 'z@example.com')).toBe('zaneta.saule.use');
    expect(defaultEmailPrefix('', '', 'jo@example.com')).toBe('jo.user');
    expect(defaultEmailPrefix('A', '', 'anna.k@example.com')).toBe('anna.k');
    expect(defaultEmailPrefix('x'.repeat(60), 'y', 'a@b.c').length).toBeLessThanOrEqual(35);
    expect(memberEmailInAddress('Rasa.Team')).toBe('rasa.team@in.receipts.local');
  });

  it('tries base, base2, base3, base4, then a random suffix', () => {
    expect([0, 1, 2, 3].map((n) => prefixCandidate('ona.o', n))).toEqual(['ona.o', 'ona.o2', 'ona.o3', 'ona.o4']);
    expect(prefixCandidate('ona.o', 4, () => 0.5)).toBe('ona.o.5500');
  });

  it('every default candidate passes the edit rule (4 to 40 letters, digits or dots)', () => {
    const base = defaultEmailPrefix('Jonas', 'Jonaitis'.repeat(6), 'j@example.com');
    for (let n = 0; n < 6; n++) expect(updateCompanyUserSchema.safeParse({ email_prefix: prefixCandidate(base, n) }).success).toBe(true);
  });
});

describe('invitation rules', () => {
  const invitation = (over: Partial<InvitationRecord> = {}): InvitationRecord => ({
    id: 'x',
    company_id: 'C1',
    email: 'new@example.com',
    name: 'Rasa',
    surname: 'Kolegė',
    role: 'basic',
    message: '',
    invited_by: 'owner',
    created_at: NOW.toISOString(),
    expires_at: new Date(NOW.getTime() + 1000).toISOString(),
    used_at: null,
    used_by: null,
    ...over,
  });

  it('tokens are 32 random bytes in base64url; the id is their SHA-256', () => {
    const token = newInvitationToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newInvitationToken()).not.toBe(token);
    expect(invitationIdOf(token)).toMatch(/^[a-f0-9]{64}$/);
    expect(invitationIdOf(token)).toBe(invitationIdOf(token));
  });

  it('an invitation is unusable once used or expired', () => {
    expect(invitationProblem(invitation(), NOW)).toBeUndefined();
    expect(invitationProblem(invitation({ used_at: NOW.toISOString() }), NOW)).toBe(INVITATION_USED);
    expect(invitationProblem(invitation({ expires_at: NOW.toISOString() }), NOW)).toBe(INVITATION_EXPIRED);
  });

  it('the invited role is admin or basic, anything else basic; the message at most 1000 characters', () => {
    const base = { name: 'Ona', surname: 'Onaitė', email: 'ona@example.com' };
    expect(inviteSchema.parse({ ...base, role: 'admin' }).role).toBe('admin');
    expect(inviteSchema.parse({ ...base, role: 'owner' }).role).toBe('basic');
    expect(inviteSchema.safeParse({ ...base }).error?.issues.map((i) => [i.path[0], i.message])).toEqual([['role', 'Required field']]);
    const long = inviteSchema.safeParse({ ...base, role: 'basic', message: 'x'.repeat(1001) });
    expect(long.success ? [] : long.error.issues.map((i) => i.message)).toEqual(['To much sumbols']);
  });

  it('no mail, no invitation: a failed send removes the stored invitation', async () => {
    const t = memoryTeam();
    const mailer = { send: async () => Promise.reject(new Error('SES down')) };
    await expect(
      inviteColleague({ store, team: t.team, mailer, clock, appUrl: 'https://app', log: recordingLog() }, { userId: 'owner', companyId: 'C1' }, inviteSchema.parse({ name: 'Rasa', surname: 'Kolegė', email: 'r@example.com', role: 'basic' })),
    ).rejects.toThrow(MAIL_FAILED);
    expect(t.invitations.size).toBe(0);
  });

  it('a company mails at most INVITATIONS_PER_DAY invitations a UTC day: the next is refused with 429 before anything is stored or mailed', async () => {
    const t = memoryTeam();
    const sent: OutgoingMail[] = [];
    let now = NOW;
    const deps = { store, team: t.team, mailer: { send: async (m: OutgoingMail) => (sent.push(m), {}) }, clock: { now: () => now }, appUrl: 'https://app', log: recordingLog() };
    const invite = (n: number) => inviteColleague(deps, { userId: 'owner', companyId: 'C1' }, inviteSchema.parse({ name: 'Rasa', surname: 'Kolegė', email: `r${n}@example.com`, role: 'basic' }));
    for (let n = 0; n < INVITATIONS_PER_DAY; n++) await invite(n);
    expect(sent).toHaveLength(INVITATIONS_PER_DAY);
    const refused = await invite(INVITATIONS_PER_DAY).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ kind: 'QuotaExceeded', statusCode: 429, message: INVITATIONS_TODAY });
    expect(INVITATIONS_TODAY).toBe('Your company has sent the most invitations allowed in a day (100). Try again tomorrow.');
    expect(sent).toHaveLength(INVITATIONS_PER_DAY);
    expect(t.invitations.size).toBe(INVITATIONS_PER_DAY);
    // The next UTC day counts from zero again.
    now = new Date('2026-11-26T00:00:01Z');
    await expect(invite(INVITATIONS_PER_DAY)).resolves.toMatchObject({ email: `r${INVITATIONS_PER_DAY}@example.com` });
    expect([...t.mailed.entries()]).toEqual([['C1|2026-11-25', INVITATIONS_PER_DAY], ['C1|2026-11-26', 1]]);
  });

  it('an invitation whose mail failed, or that could not be stored, is not counted', async () => {
    const t = memoryTeam();
    const person = inviteSchema.parse({ name: 'Rasa', surname: 'Kolegė', email: 'r@example.com', role: 'basic' });
    const failing = { send: async () => Promise.reject(new Error('SES down')) };
    await expect(inviteColleague({ store, team: t.team, mailer: failing, clock, appUrl: 'https://app', log: recordingLog() }, { userId: 'owner', companyId: 'C1' }, person)).rejects.toThrow(MAIL_FAILED);
    const team = { ...t.team, putInvitation: async () => Promise.reject(new Error('ProvisionedThroughputExceededException')) };
    await expect(inviteColleague({ store, team, mailer: { send: async () => ({}) }, clock, appUrl: 'https://app', log: recordingLog() }, { userId: 'owner', companyId: 'C1' }, person)).rejects.toThrow('ProvisionedThroughput');
    expect(t.mailed.get('C1|2026-11-25')).toBe(0);
  });

  it('a mailed invitation whose replacement of the earlier ones fails is made all the same (201), and the failure is logged', async () => {
    const t = memoryTeam();
    const sent: OutgoingMail[] = [];
    const log = recordingLog();
    const team = { ...t.team, getCurrentInvitation: async () => Promise.reject(new Error('ProvisionedThroughputExceededException')) };
    const made = await inviteColleague(
      { store, team, mailer: { send: async (m: OutgoingMail) => (sent.push(m), {}) }, clock, appUrl: 'https://app', log },
      { userId: 'owner', companyId: 'C1' },
      inviteSchema.parse({ name: 'Rasa', surname: 'Kolegė', email: 'r@example.com', role: 'basic' }),
    );
    expect(sent).toHaveLength(1);
    expect(t.invitations.has(made.id)).toBe(true);
    expect(log.warnings).toEqual([{ msg: 'the earlier invitations of an address were not replaced', data: expect.objectContaining({ invitation_id: made.id, error: expect.stringContaining('ProvisionedThroughput') }) }]);
  });

  it('mails a link with the token; stores only its hash, expiring in 7 days', async () => {
    const t = memoryTeam();
    const sent: OutgoingMail[] = [];
    const result = await inviteColleague(
      { store, team: t.team, mailer: { send: async (m) => (sent.push(m), {}) }, clock, appUrl: 'https://app.example/', log: recordingLog() },
      { userId: 'owner', companyId: 'C1' },
      inviteSchema.parse({ name: 'Rasa', surname: 'Kolegė', email: 'R@Example.com', role: 'admin', message: 'Hi <b>' }),
    );
    const token = /token=([A-Za-z0-9_-]{43})/.exec(sent[0]!.text)![1]!;
    expect(sent[0]!.to).toBe('r@example.com');
    expect(sent[0]!.html).toContain('Hi &lt;b&gt;');
    expect(result.id).toBe(invitationIdOf(token));
    const stored = t.invitations.get(result.id)!;
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(stored.expires_at).toBe('2026-12-02T10:00:00.000Z');
    expect(result).toMatchObject({ role: 'admin', new_account_required: true });
  });

  it('lists pending invitations newest first with their sender; sent again, the earlier link stops working', async () => {
    const t = memoryTeam();
    const send = { send: async () => ({}) };
    t.invitations.set('used', invitation({ id: 'used', email: 'in@example.com', used_at: '2026-11-24T00:00:00.000Z', used_by: 'u9' }));
    t.invitations.set('old', invitation({ id: 'old', email: 'late@example.com', created_at: '2026-11-01T00:00:00.000Z', expires_at: '2026-11-08T00:00:00.000Z' }));
    t.invitations.set('other', invitation({ id: 'other', company_id: 'C2', email: 'x@example.com' }));
    const deps = { store, team: t.team, mailer: send, clock, appUrl: 'https://app', log: recordingLog() };
    const first = await inviteColleague(deps, { userId: 'owner', companyId: 'C1' }, inviteSchema.parse({ name: 'Rasa', surname: 'Kolegė', email: 'r@example.com', role: 'basic', message: ' Welcome! ' }));
    const listed = await listPendingInvitations(deps, { userId: 'owner', companyId: 'C1' });
    expect(listed).toEqual([
      { id: first.id, company_id: 'C1', email: 'r@example.com', name: 'Rasa', surname: 'Kolegė', role: 'basic', message: 'Welcome!', created_at: NOW.toISOString(), expires_at: first.expires_at, invited_by: { name: 'P', surname: 'S' } },
    ]);
    const again = await inviteColleague(deps, { userId: 'owner', companyId: 'C1' }, inviteSchema.parse({ name: 'Rasa', surname: 'Kolegė', email: 'r@example.com', role: 'admin' }));
    expect((await listPendingInvitations(deps, { userId: 'owner', companyId: 'C1' })).map((i) => [i.id, i.role])).toEqual([[again.id, 'admin']]);
    expect(t.invitations.has(first.id)).toBe(false);
    expect(t.invitations.has('used')).toBe(true);
  });

  it('two invitations of the same person at once (a double click): exactly one link stays valid, the newer one', async () => {
    const t = memoryTeam();
    const sent: OutgoingMail[] = [];
    let tick = 0;
    const ticking = { now: () => new Date(NOW.getTime() + tick++) };
    const deps = { store, team: t.team, mailer: { send: async (m: OutgoingMail) => (sent.push(m), {}) }, clock: ticking, appUrl: 'https://app', log: recordingLog() };
    const input = inviteSchema.parse({ name: 'Rasa', surname: 'Kolegė', email: 'twice@example.com', role: 'basic' });
    const [a, b] = await Promise.all([1, 2].map(() => inviteColleague(deps, { userId: 'owner', companyId: 'C1' }, input)));
    expect(sent).toHaveLength(2);
    const pending = await listPendingInvitations({ store, team: t.team, clock }, { userId: 'owner', companyId: 'C1' });
    expect(pending.map((i) => i.id)).toEqual([b!.id]);
    expect(t.invitations.has(a!.id)).toBe(false);
    // sent again later: it replaces that one; an accepted invitation of the address is never removed
    t.invitations.get(b!.id)!.used_at = NOW.toISOString();
    const c = await inviteColleague(deps, { userId: 'owner', companyId: 'C1' }, input);
    expect(t.invitations.has(b!.id)).toBe(true);
    expect((await listPendingInvitations({ store, team: t.team, clock }, { userId: 'owner', companyId: 'C1' })).map((i) => i.id)).toEqual([c.id]);
  });

  it("cancels a pending invitation of the caller's company; not another company's, not an accepted one", async () => {
    const t = memoryTeam();
    t.invitations.set('a'.repeat(64), invitation({ id: 'a'.repeat(64) }));
    t.invitations.set('b'.repeat(64), invitation({ id: 'b'.repeat(64), company_id: 'C2' }));
    t.invitations.set('c'.repeat(64), invitation({ id: 'c'.repeat(64), used_at: '2026-11-24T00:00:00.000Z', used_by: 'u9' }));
    await expect(cancelInvitation({ team: t.team }, { companyId: 'C1' }, 'b'.repeat(64))).rejects.toThrow(INVITATION_NOT_FOUND);
    await expect(cancelInvitation({ team: t.team }, { companyId: 'C1' }, 'c'.repeat(64))).rejects.toThrow(INVITATION_USED);
    expect(await cancelInvitation({ team: t.team }, { companyId: 'C1' }, 'a'.repeat(64))).toEqual({ cancelled: true, id: 'a'.repeat(64) });
    expect([...t.invitations.keys()]).toEqual(['b'.repeat(64), 'c'.repeat(64)]);
    await expect(cancelInvitation({ team: t.team }, { companyId: 'C1' }, 'a'.repeat(64))).rejects.toThrow(INVITATION_NOT_FOUND);
  });

  it("an invited sign-up proves its address only with the link's token of a usable invitation for that address", async () => {
    const t = memoryTeam();
    const token = newInvitationToken();
    const live = invitation({ id: invitationIdOf(token) });
    t.invitations.set(live.id, live);
    const expiredToken = newInvitationToken();
    t.invitations.set(invitationIdOf(expiredToken), invitation({ id: invitationIdOf(expiredToken), expires_at: NOW.toISOString() }));
    const deps = { team: t.team, clock };
    const proves = (email: string, invitationId: string | undefined, tok: string | undefined) =>
      invitedSignUpProvesAddress(deps, { email, invitationId, token: tok });
    expect(await proves('New@Example.com ', live.id, token)).toBe(true);
    expect(await proves('new@example.com', live.id, undefined)).toBe(false); // the id alone
    expect(await proves('other@example.com', live.id, token)).toBe(false); // another address
    expect(await proves('new@example.com', invitationIdOf(expiredToken), token)).toBe(false); // another invitation's id
    expect(await proves('new@example.com', invitationIdOf(expiredToken), expiredToken)).toBe(false); // expired
    expect(await proves('new@example.com', live.id, 'not a token')).toBe(false);
    t.invitations.set(live.id, { ...live, used_at: NOW.toISOString(), used_by: 'u1' });
    expect(await proves('new@example.com', live.id, token)).toBe(false); // used
  });

  it('an invited sign-up joins with the next free prefix; another e-mail gets a profile without a company', async () => {
    const t = memoryTeam();
    t.claims.set('rasa.kolege@in.receipts.local', 'someone');
    const inv = invitation({ id: 'a'.repeat(64), expires_at: '2026-12-01T00:00:00.000Z' });
    t.invitations.set(inv.id, inv);
    const deps = { store, team: t.team, clock, globalAdminEmails: [] };
    const wrong = await provisionInvitedUser(deps, { userId: 'u0', email: 'other@example.com', invitationId: inv.id });
    expect(wrong.outcome).toBe('invitation-invalid');
    expect(t.members).toHaveLength(0);
    const joined = await provisionInvitedUser(deps, { userId: 'u1', email: 'New@example.com', invitationId: inv.id });
    expect(joined.outcome).toBe('joined');
    expect(t.members).toEqual([expect.objectContaining({ user_id: 'u1', company_id: 'C1', role: 'basic', email_prefix: 'rasa.kolege2' })]);
    expect(t.invitations.get(inv.id)!.used_by).toBe('u1');
    const again = await provisionInvitedUser(deps, { userId: 'u2', email: 'new@example.com', invitationId: inv.id });
    expect(again.outcome).toBe('invitation-invalid');
  });

  it('an invitation whose sender is no longer an administrator joins no one and reads as not found', async () => {
    const t = memoryTeam();
    const token = newInvitationToken();
    const inv = invitation({ id: invitationIdOf(token), email: 'old@example.com', role: 'admin', expires_at: '2026-12-01T00:00:00.000Z' });
    const freshToken = newInvitationToken();
    const fresh = invitation({ id: invitationIdOf(freshToken), role: 'admin', expires_at: '2026-12-01T00:00:00.000Z' });
    t.invitations.set(inv.id, inv);
    t.invitations.set(fresh.id, fresh);
    t.profiles.set('u1', profile('u1', 'old@example.com'));
    expect(await invitedSignUpProvesAddress({ team: t.team, clock }, { email: 'new@example.com', invitationId: fresh.id, token: freshToken })).toBe(true);
    // lowered to Basic
    t.inviters.set('C1|owner', { user_id: 'owner', company_id: 'C1', role: 'basic', joined_at: '' });
    const deps = { store, team: t.team, clock, globalAdminEmails: [] };
    await expect(readInvitation(deps, token)).rejects.toMatchObject({ statusCode: 404, message: INVITATION_NOT_FOUND });
    await expect(confirmInvitation(deps, token)).rejects.toMatchObject({ statusCode: 404, message: INVITATION_NOT_FOUND });
    expect(await invitedSignUpProvesAddress(deps, { email: 'new@example.com', invitationId: fresh.id, token: freshToken })).toBe(false);
    // removed: a sign-up with the link gets a profile without the company
    t.inviters.clear();
    const signedUp = await provisionInvitedUser(deps, { userId: 'u2', email: 'new@example.com', invitationId: fresh.id });
    expect(signedUp.outcome).toBe('invitation-invalid');
    expect(t.members).toEqual([]);
    expect([inv, fresh].map((i) => t.invitations.get(i.id)!.used_at)).toEqual([null, null]);
  });

  it('the pending invitations one person sent are cancelled, again without effect; others and accepted ones stay', async () => {
    const t = memoryTeam();
    t.invitations.set('a'.repeat(64), invitation({ id: 'a'.repeat(64), invited_by: 'b' }));
    t.invitations.set('b'.repeat(64), invitation({ id: 'b'.repeat(64), invited_by: 'b', used_at: NOW.toISOString(), used_by: 'u9' }));
    t.invitations.set('c'.repeat(64), invitation({ id: 'c'.repeat(64), invited_by: 'owner' }));
    t.invitations.set('d'.repeat(64), invitation({ id: 'd'.repeat(64), invited_by: 'b', company_id: 'C2' }));
    expect(await cancelInvitationsSentBy(t.team, 'C1', 'b')).toBe(1);
    expect([...t.invitations.keys()].sort()).toEqual(['b'.repeat(64), 'c'.repeat(64), 'd'.repeat(64)]);
    expect(await cancelInvitationsSentBy(t.team, 'C1', 'b')).toBe(0);
  });

  it('an invitation of a deleted company joins no one: PUT answers Invitation not found, a sign-up gets a bare profile', async () => {
    const t = memoryTeam();
    const token = newInvitationToken();
    const inv = invitation({ id: invitationIdOf(token), email: 'old@example.com', expires_at: '2026-12-01T00:00:00.000Z' });
    const fresh = invitation({ id: 'b'.repeat(64), expires_at: '2026-12-01T00:00:00.000Z' });
    t.invitations.set(inv.id, inv);
    t.invitations.set(fresh.id, fresh);
    t.profiles.set('u1', profile('u1', 'old@example.com'));
    t.deletedCompanies.add('C1');
    const deps = { store, team: t.team, clock, globalAdminEmails: [] };
    await expect(confirmInvitation(deps, token)).rejects.toMatchObject({ statusCode: 404, message: INVITATION_NOT_FOUND });
    const signedUp = await provisionInvitedUser(deps, { userId: 'u2', email: 'new@example.com', invitationId: fresh.id });
    expect(signedUp.outcome).toBe('invitation-invalid');
    expect(signedUp.profile).toMatchObject({ id: 'u2', email: 'new@example.com', name: '', surname: '' });
    expect(t.profiles.get('u2')).toMatchObject({ name: '', surname: '' });
    expect(t.members).toEqual([]);
    expect(t.claims.size).toBe(0);
    expect([inv, fresh].map((i) => t.invitations.get(i.id)!.used_at)).toEqual([null, null]);
  });
});

describe('members', () => {
  const member = (user_id: string, role: 'admin' | 'basic'): MemberRecord => ({ user_id, company_id: 'C1', role, joined_at: '' });

  it('can_be_deleted: never yourself, the account owner or the last admin', () => {
    expect(canBeDeleted(member('b', 'basic'), company, 'owner', 1)).toBe(true);
    expect(canBeDeleted(member('b', 'basic'), company, 'b', 1)).toBe(false);
    expect(canBeDeleted(member('owner', 'admin'), company, 'a2', 2)).toBe(false);
    expect(canBeDeleted(member('a2', 'admin'), company, 'owner', 2)).toBe(true);
    expect(canBeDeleted(member('a2', 'admin'), company, 'x', 1)).toBe(false);
  });

  it('role labels: Account owner, Administrator, Basic user', () => {
    expect(memberRoleLabel({ role: 'admin', is_owner: true })).toBe('Account owner');
    expect(memberRoleLabel({ role: 'admin', is_owner: false })).toBe('Administrator');
    expect(memberRoleLabel({ role: 'basic', is_owner: false })).toBe('Basic user');
  });

  it('the Email-in prefix rule answers Imvalid email', () => {
    for (const bad of ['abc', 'a'.repeat(41), 'with space', 'a@b.cd', 'dash-ed'])
      expect(updateCompanyUserSchema.safeParse({ email_prefix: bad }).error?.issues[0]?.message).toBe('Imvalid email');
    expect(updateCompanyUserSchema.safeParse({ email_prefix: 'Rasa.Team2' }).success).toBe(true);
  });

  it('the Email-in prefix may not start or end with a dot nor hold two dots in a row (RFC 5322 local part)', () => {
    for (const bad of ['....', '.abcd', 'ab..cd', 'abcd.', '.ab.cd.', 'abcd...efgh'])
      expect(updateCompanyUserSchema.safeParse({ email_prefix: bad }).error?.issues[0]?.message, bad).toBe('Imvalid email');
    for (const good of ['ab.cd', 'a.b.c.d', 'abcd', 'Jonas.Jonaitis2', 'x'.repeat(40)])
      expect(updateCompanyUserSchema.safeParse({ email_prefix: good }).success, good).toBe(true);
  });
});
