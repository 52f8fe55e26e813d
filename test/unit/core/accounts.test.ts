import { describe, expect, it } from 'vitest';
import { COMPANY_NOT_DELETED, deleteCompany, listCompaniesOfUser, PURGE_START_DELAY_SECONDS, slugify } from '../../../lambdas/core/accounts/companies';
import { emptyCounts } from '../../../lambdas/core/accounts/counts';
import type { CompanyRecord, MembershipRecord, ProfileRecord } from '../../../lambdas/core/accounts/types';
import { getOwnProfile, provisionConfirmedUser } from '../../../lambdas/core/accounts/users';
import { countMove } from '../../../lambdas/core/documents/status-machine';
import { emptyChange, type DocumentRecord, type ScopeKey } from '../../../lambdas/core/documents/types';
import { seededDocument } from '../../support/document-records';
import { MemoryDocuments } from '../documents/fakes';
import type { PurgeMessage } from '../../../lambdas/core/accounts/purge-message';
import { deleteOwnAccount, type AccountDeletionDeps } from '../../../lambdas/core/accounts/delete-account';
import type { MemberRecord, TeamStore } from '../../../lambdas/core/team/types';
import type { UploadRecord } from '../../../lambdas/core/documents/types';
import { transferOwnership } from '../../../lambdas/core/team/owner';
import { OWNER_MSG } from '../../../shared/schemas/team';
import { CompanyCodeTaken } from '../../../lambdas/core/ports';
import { ACCOUNT_MSG, ownsSharedCompaniesMessage, unassignedDocumentsMessage } from '../../../shared/schemas/user';
import type { AccountsStore, LiveEvents, PurgeQueue } from '../../../lambdas/core/ports';

/** An in-memory AccountsStore: enough to test the rules apart from DynamoDB. */
function memoryStore() {
  const profiles = new Map<string, ProfileRecord>();
  const companies = new Map<string, CompanyRecord>();
  const memberships: MembershipRecord[] = [];
  const store: AccountsStore = {
    getProfile: async (id) => profiles.get(id),
    getProfiles: async (ids) => ids.flatMap((id) => (profiles.has(id) ? [profiles.get(id)!] : [])),
    updateProfile: async (id, changes) => {
      const next = { ...profiles.get(id)!, ...changes };
      profiles.set(id, next);
      return next;
    },
    getMembership: async (u, c) => memberships.find((m) => m.user_id === u && m.company_id === c),
    listMembershipsOfUser: async (u) => memberships.filter((m) => m.user_id === u),
    listMembersOfCompany: async (c) => memberships.filter((m) => m.company_id === c),
    getCompanies: async (ids) => ids.flatMap((id) => (companies.has(id) ? [companies.get(id)!] : [])),
    getCompanyStats: async (ids) =>
      new Map(ids.map((id) => [id, { counts: { receipt: emptyCounts(), invoice: emptyCounts() }, usage: { used_documents: 3, duplicated_documents: 1 } }])),
    provisionUser: async (profile, company) => {
      if (profiles.has(profile.id)) return false;
      profiles.set(profile.id, profile);
      companies.set(company.company_id, company);
      memberships.push({ user_id: profile.id, company_id: company.company_id, role: 'admin', joined_at: profile.created_at });
      return true;
    },
    createCompany: async (company, membership) => {
      companies.set(company.company_id, company);
      memberships.push(membership);
    },
    renameCompanyOwner: async (companyId, ownerId, name) => {
      const company = companies.get(companyId);
      if (company?.owner.user_id === ownerId) companies.set(companyId, { ...company, owner: { ...company.owner, ...name } });
    },
    // The same conditions as A25: the kept membership and company must be there, this company too.
    deleteCompanyRecord: async (companyId, kept) => {
      if (!companies.has(companyId)) return 'gone';
      if (kept && (!companies.has(kept.companyId) || !memberships.some((m) => m.user_id === kept.userId && m.company_id === kept.companyId))) return 'kept';
      companies.delete(companyId);
      return undefined;
    },
    deleteCompany: async (company) => {
      companies.delete(company.company_id);
      for (let i = memberships.length - 1; i >= 0; i--) if (memberships[i]!.company_id === company.company_id) memberships.splice(i, 1);
    },
    transferCompanyOwner: async (company, newOwner) => {
      const current = companies.get(company.company_id);
      if (current?.owner.user_id !== company.owner.user_id) return 'changed';
      if (!memberships.some((m) => m.user_id === newOwner.user_id && m.company_id === company.company_id && m.role === 'admin')) return 'not-admin';
      companies.set(company.company_id, { ...current, owner: newOwner });
      return undefined;
    },
    deleteUserItems: async (userId) => {
      profiles.delete(userId);
      for (let i = memberships.length - 1; i >= 0; i--) if (memberships[i]!.user_id === userId) memberships.splice(i, 1);
    },
  };
  return { store, profiles, companies, memberships };
}

let seq = 0;
const ids = { newId: () => `01ID${String(++seq).padStart(22, '0')}` };
const clock = { now: () => new Date('2026-11-21T10:00:00Z') };
const events: { companyId: string; event: string }[] = [];
const live: LiveEvents = {
  publish: async (companyId, event) => void events.push({ companyId, event }),
  publishToUser: async (userId, event) => void events.push({ companyId: `user:${userId}`, event }),
};

const unsubscribed: string[] = [];
const connections = { unsubscribeCompany: async (companyId: string) => void unsubscribed.push(companyId) };
const purges: PurgeMessage[] = [];
const purgeDelays: Array<number | undefined> = [];
const purgeQueue: PurgeQueue = {
  send: async (message, delay) => {
    purges.push(message);
    purgeDelays.push(delay);
  },
};
const logged: { msg: string; data?: Record<string, unknown> }[] = [];
const log = { error: (msg: string, data?: Record<string, unknown>) => void logged.push({ msg, data }) };
const deleteDeps = (store: AccountsStore, queue: PurgeQueue = purgeQueue) => ({ store, live, connections, purgeQueue: queue, clock, log });

const attrs = (userId: string, email = `${userId}@example.com`) => ({
  userId,
  email,
  name: 'Ona',
  surname: 'Onaitė',
  company: 'Ąžuolas & Co UAB',
  company_code: '304050607',
});

describe('provisionConfirmedUser', () => {
  it('creates profile, first company as admin and an email-in address; a second run changes nothing', async () => {
    const m = memoryStore();
    const first = await provisionConfirmedUser({ store: m.store, ids, clock, globalAdminEmails: [] }, attrs('u1'));
    const second = await provisionConfirmedUser({ store: m.store, ids, clock, globalAdminEmails: [] }, attrs('u1'));
    expect(first.created).toBe(true);
    expect(second.created).toBe(false);
    expect(m.companies.size).toBe(1);
    const [company] = [...m.companies.values()];
    expect(company).toMatchObject({ name: 'Ąžuolas & Co UAB', code: '304050607', available_documents: 500 });
    expect(company!.email).toMatch(/^azuolas-co-uab-[a-z0-9]{6}@in\.receipts\.local$/);
    expect(m.memberships).toEqual([expect.objectContaining({ user_id: 'u1', role: 'admin' })]);
  });

  it('marks configured platform administrators', async () => {
    const m = memoryStore();
    const r = await provisionConfirmedUser({ store: m.store, ids, clock, globalAdminEmails: ['boss@example.com'] }, attrs('u2', 'Boss@Example.com'));
    expect(r.profile).toMatchObject({ email: 'boss@example.com', is_admin: true });
  });
});

describe('companies', () => {
  it('lists the companies of a user with role, usage and counts', async () => {
    const m = memoryStore();
    await provisionConfirmedUser({ store: m.store, ids, clock, globalAdminEmails: [] }, attrs('u3'));
    const list = await listCompaniesOfUser(m.store, 'u3', clock, '');
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ role: 'admin', used_documents: 3, used_documents_per_month: 3, duplicated_documents_per_month: 1, ftp_export: false });
    expect(list[0]!.email).toMatch(/^[a-z0-9-]+@in\.receipts\.local$/);
  });

  it('shows the Email-in address at the deployed domain; the company keeps the stored one', async () => {
    const m = memoryStore();
    await provisionConfirmedUser({ store: m.store, ids, clock, globalAdminEmails: [] }, attrs('u3'));
    const [shown] = await listCompaniesOfUser(m.store, 'u3', clock, 'in.example.com');
    const [stored] = await m.store.getCompanies([shown!.company_id]);
    expect(stored!.email).toMatch(/@in\.receipts\.local$/);
    expect(shown!.email).toBe(stored!.email.replace('@in.receipts.local', '@in.example.com'));
  });

  it('refuses to delete the only company and lets an admin delete another', async () => {
    const m = memoryStore();
    await provisionConfirmedUser({ store: m.store, ids, clock, globalAdminEmails: [] }, attrs('u4'));
    const [only] = await m.store.listMembershipsOfUser('u4');
    await expect(deleteCompany(deleteDeps(m.store), 'u4', only!.company_id)).rejects.toMatchObject({ kind: 'Conflict' });
    m.companies.set('c2', { ...m.companies.get(only!.company_id)!, company_id: 'c2' });
    m.memberships.push({ user_id: 'u4', company_id: 'c2', role: 'admin', joined_at: '' });
    await expect(deleteCompany(deleteDeps(m.store), 'u4', 'c2')).resolves.toEqual({ deleted: true, company_id: 'c2' });
    expect(events).toContainEqual({ companyId: 'c2', event: 'company-delete' });
    // The live subscriptions to the deleted company end with it (not when the connections expire).
    expect(unsubscribed).toEqual(['c2']);
    // The purge of everything else the company owned is queued, from its first step.
    expect(purges).toEqual([{ company_id: 'c2', step: 'uploads', cursor: null, deferred: 0, files_after: null, requested_at: '2026-11-21T10:00:00.000Z' }]);
    // queued before the delete, so it starts a while later
    expect(purgeDelays).toEqual([PURGE_START_DELAY_SECONDS]);
    await expect(deleteCompany(deleteDeps(m.store), 'u4', 'c2')).rejects.toMatchObject({ kind: 'NotFound' });
    expect(purges).toHaveLength(1);
  });

  it('keeps the company when its purge cannot be queued: the call fails, nothing is deleted, and it is logged', async () => {
    const m = memoryStore();
    m.memberships.push({ user_id: 'u6', company_id: 'k1', role: 'admin', joined_at: '' }, { user_id: 'u6', company_id: 'k2', role: 'admin', joined_at: '' });
    m.companies.set('k1', { company_id: 'k1', email: 'k1@in.receipts.local' } as CompanyRecord);
    m.companies.set('k2', { company_id: 'k2', email: 'k2@in.receipts.local' } as CompanyRecord);
    const refusing: PurgeQueue = { send: async () => Promise.reject(new Error('queue unavailable')) };
    const before = events.length;
    await expect(deleteCompany(deleteDeps(m.store, refusing), 'u6', 'k2')).rejects.toMatchObject({ kind: 'InternalError', message: COMPANY_NOT_DELETED });
    expect(m.companies.has('k2')).toBe(true);
    expect(m.memberships.filter((x) => x.company_id === 'k2')).toHaveLength(1);
    expect(events.slice(before)).toEqual([]);
    expect(logged).toContainEqual({ msg: 'company purge not queued: the company is kept', data: { company_id: 'k2', error: 'queue unavailable' } });
    // tried again with the queue back: deleted
    await expect(deleteCompany(deleteDeps(m.store), 'u6', 'k2')).resolves.toEqual({ deleted: true, company_id: 'k2' });
    expect(m.companies.has('k2')).toBe(false);
  });

  it('deleting both of two companies at once: one is deleted, the other refused, so the user keeps a company', async () => {
    const m = memoryStore();
    for (const id of ['d1', 'd2', 'd3']) m.companies.set(id, { company_id: id, email: `${id}@in.receipts.local` } as CompanyRecord);
    m.memberships.push({ user_id: 'u7', company_id: 'd1', role: 'admin', joined_at: '' }, { user_id: 'u7', company_id: 'd2', role: 'admin', joined_at: '' });
    const results = await Promise.allSettled(['d1', 'd2'].map((c) => deleteCompany(deleteDeps(m.store), 'u7', c)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult | undefined;
    expect(refused?.reason).toMatchObject({ kind: 'Conflict', message: 'You cannot delete your only company' });
    const mine = () => m.memberships.filter((x) => x.user_id === 'u7' && m.companies.has(x.company_id)).map((x) => x.company_id);
    expect(mine()).toHaveLength(1);
    // With a third company, both go: the refused check moves to the company that is left.
    m.memberships.push({ user_id: 'u7', company_id: 'd3', role: 'admin', joined_at: '' });
    const left = m.memberships.find((x) => x.user_id === 'u7' && x.company_id !== 'd3')!.company_id;
    m.companies.set('d4', { company_id: 'd4', email: 'd4@in.receipts.local' } as CompanyRecord);
    m.memberships.push({ user_id: 'u7', company_id: 'd4', role: 'admin', joined_at: '' });
    const both = await Promise.all([left, 'd4'].map((c) => deleteCompany(deleteDeps(m.store), 'u7', c)));
    expect(both.map((r) => r.deleted)).toEqual([true, true]);
    expect(mine()).toEqual(['d3']);
  });

  it('refuses a basic member', async () => {
    const m = memoryStore();
    m.memberships.push({ user_id: 'u5', company_id: 'c9', role: 'basic', joined_at: '' });
    await expect(deleteCompany(deleteDeps(m.store), 'u5', 'c9')).rejects.toMatchObject({ kind: 'Forbidden' });
  });
});

describe('slugify', () => {
  it.each([
    ['Ąžuolas & Co UAB', 'azuolas-co-uab'],
    ['  ', 'company'],
    ['BOOK TA .K (TAMAN DAYA) SDN BHD', 'book-ta-k-taman-daya-sdn-bhd'],
  ])('%s → %s', (input, expected) => expect(slugify(input)).toBe(expected));
});

describe('profile figures', () => {
  /** Documents written as the app writes them (one commit each, with its count); an edit of the total the same way. */
  async function write(documents: MemoryDocuments, id: string, scope: ScopeKey, over: Partial<DocumentRecord>) {
    const doc = seededDocument({ receipt_id: id, scope, created_at: '2026-11-20T10:00:00.000Z', ...over });
    const change = emptyChange();
    change.puts.push(doc);
    change.counts.push(...countMove(null, doc));
    await documents.commit(change);
    return doc;
  }

  it("counts and sums every document of the user's companies and their own unassigned ones, per status and type", async () => {
    const { store } = memoryStore();
    const created = await provisionConfirmedUser({ store, ids, clock, globalAdminEmails: [] }, attrs('figures'));
    const first = created.profile.id;
    const [membership] = await store.listMembershipsOfUser(first);
    const second = { company_id: 'second-company' } as CompanyRecord;
    await store.createCompany(second, { user_id: first, company_id: second.company_id, role: 'basic', joined_at: '' }, 10);
    const documents = new MemoryDocuments();
    const own: ScopeKey = `U#${first}`;
    await write(documents, 'R1', `C#${membership!.company_id}`, { status: 'review', receipt_type: 'receipt', total: '100.25' });
    const invoice = await write(documents, 'I1', `C#${membership!.company_id}`, { status: 'ready', receipt_type: 'invoice', total: '169.00' });
    await write(documents, 'R2', `C#${second.company_id}`, { status: 'review', receipt_type: 'receipt', total: null });
    await write(documents, 'U1', own, { status: 'unassigned', receipt_type: 'receipt', total: '260.25' });
    await write(documents, 'U2', own, { status: 'unassigned', receipt_type: 'invoice', total: '9.00' });
    await write(documents, 'U3', own, { status: 'processing', receipt_type: 'invoice' });
    // Not the user's: another user's upload and a company they are not in.
    await write(documents, 'X1', 'U#someone-else', { status: 'unassigned', total: '1000.00' });
    await write(documents, 'X2', 'C#not-mine', { status: 'review', total: '1000.00' });

    const profile = await getOwnProfile({ store, documents }, first);
    expect(profile).toMatchObject({
      total_receipts: 6,
      total_amount: 538.5,
      waiting_for_approval: 2,
      total_unassigned_receipts: 1,
      total_unassigned_invoices: 1,
    });

    // An edit of a total moves the sum by the difference; a delete takes the document out.
    const edit = emptyChange();
    edit.updates.push({ before: invoice, after: { ...invoice, total: '170.00', version: invoice.version + 1 } });
    await documents.commit(edit);
    const removal = emptyChange();
    const loose = (await documents.get('U1'))!;
    removal.deletes.push(loose);
    removal.counts.push(...countMove(loose, null));
    await documents.commit(removal);
    expect(await getOwnProfile({ store, documents }, first)).toMatchObject({ total_receipts: 5, total_amount: 279.25, total_unassigned_receipts: 0, total_unassigned_invoices: 1 });
  });
});

describe('deleteOwnAccount', () => {
  /** A user with their first company, a second one, and a membership of another user's company. */
  async function world(options: { unassigned?: number; pending?: boolean; identityFails?: boolean; queue?: PurgeQueue } = {}) {
    const m = memoryStore();
    const steps: string[] = [];
    await provisionConfirmedUser({ store: m.store, ids, clock, globalAdminEmails: [] }, attrs('leaver'));
    await provisionConfirmedUser({ store: m.store, ids, clock, globalAdminEmails: [] }, attrs('firm'));
    const [own] = await m.store.listMembershipsOfUser('leaver');
    const [firm] = await m.store.listMembershipsOfUser('firm');
    m.memberships.push({ user_id: 'leaver', company_id: firm!.company_id, role: 'basic', joined_at: '' });
    const team = {
      getMember: async (companyId: string, userId: string) => {
        const found = m.memberships.find((x) => x.company_id === companyId && x.user_id === userId);
        return found ? ({ ...found, email_prefix: 'ona.onaite' } as MemberRecord) : undefined;
      },
      removeMember: async (companyId: string, userId: string, claim?: string) => {
        steps.push(`leave ${companyId} ${claim ?? ''}`);
        const i = m.memberships.findIndex((x) => x.company_id === companyId && x.user_id === userId);
        if (i < 0) return 'member' as const;
        m.memberships.splice(i, 1);
        return undefined;
      },
      listInvitations: async () => [],
      cancelInvitation: async () => false,
    } as unknown as TeamStore;
    const counts = { ...emptyCounts(), unassigned: options.unassigned ?? 0 };
    const pending = options.pending ? [{ upload_id: 'u1' } as UploadRecord] : [];
    const deps: AccountDeletionDeps = {
      ...deleteDeps(m.store, options.queue),
      team,
      connections: { unsubscribeCompany: async () => undefined, unsubscribeUser: async () => undefined },
      documents: {
        tallies: async (scopes) => new Map(scopes.map((sc) => [sc, { receipt: { counts, total_cents: 0 }, invoice: { counts: emptyCounts(), total_cents: 0 } }])),
        expiredUploads: async (_scope, now) => (now > '9999' ? pending : []),
        releaseUpload: async () => true,
      },
      identity: {
        deleteUser: async (userId) => {
          steps.push(`identity ${userId}`);
          if (options.identityFails) throw new Error('the identity provider did not answer');
        },
      },
    };
    const store = deps.store;
    deps.store = { ...store, deleteUserItems: async (userId) => void (steps.push(`items ${userId}`), await store.deleteUserItems(userId)) };
    return { m, deps, steps, own: own!.company_id, firm: firm!.company_id };
  }

  it('deletes the companies it alone had, leaves the others, then the sign-in, then its own items', async () => {
    const w = await world();
    purges.length = 0;
    const res = await deleteOwnAccount(w.deps, 'leaver', { email: 'LEAVER@example.com ' });
    expect(res).toEqual({ deleted: true, companies_deleted: [w.own], companies_left: [w.firm] });
    expect(purges.map((p) => p.company_id)).toEqual([w.own]);
    expect(w.m.companies.has(w.own)).toBe(false);
    expect(w.m.companies.has(w.firm)).toBe(true);
    expect(w.steps).toEqual([`leave ${w.firm} ona.onaite@in.receipts.local`, 'identity leaver', 'items leaver']);
    expect(w.m.profiles.has('leaver')).toBe(false);
    expect(w.m.memberships.filter((x) => x.user_id === 'leaver')).toEqual([]);
  });

  it('refuses another address, and keeps everything', async () => {
    const w = await world();
    await expect(deleteOwnAccount(w.deps, 'leaver', { email: 'firm@example.com' })).rejects.toMatchObject({
      kind: 'ValidationFailed',
      message: ACCOUNT_MSG.confirmEmail,
      details: [{ path: ['email'], message: ACCOUNT_MSG.confirmEmail }],
    });
    expect(w.steps).toEqual([]);
    expect(w.m.companies.has(w.own)).toBe(true);
  });

  it('names every reason at once: a company with other members, documents without a company', async () => {
    const w = await world({ unassigned: 2 });
    w.m.memberships.push({ user_id: 'firm', company_id: w.own, role: 'basic', joined_at: '' });
    const name = (await w.m.store.getCompanies([w.own]))[0]!.name;
    await expect(deleteOwnAccount(w.deps, 'leaver', { email: 'leaver@example.com' })).rejects.toMatchObject({
      kind: 'Conflict',
      message: `${ownsSharedCompaniesMessage([name])} ${unassignedDocumentsMessage(2)}`,
    });
    expect(w.steps).toEqual([]);
  });

  it('waits for an upload still under way', async () => {
    const w = await world({ pending: true });
    await expect(deleteOwnAccount(w.deps, 'leaver', { email: 'leaver@example.com' })).rejects.toMatchObject({ kind: 'Conflict', message: ACCOUNT_MSG.uploadInProgress });
    expect(w.steps).toEqual([]);
  });

  it('keeps the profile when the sign-in could not be deleted; the next try finishes what is left', async () => {
    const w = await world({ identityFails: true });
    await expect(deleteOwnAccount(w.deps, 'leaver', { email: 'leaver@example.com' })).rejects.toThrow('did not answer');
    expect(w.m.profiles.has('leaver')).toBe(true);
    expect(w.steps).not.toContain('items leaver');
    const retry = await deleteOwnAccount({ ...w.deps, identity: { deleteUser: async () => void w.steps.push('identity again') } }, 'leaver', { email: 'leaver@example.com' });
    expect(retry).toEqual({ deleted: true, companies_deleted: [], companies_left: [] });
    expect(w.m.profiles.has('leaver')).toBe(false);
  });

  it('deletes nothing when the purge cannot be queued', async () => {
    const w = await world({ queue: { send: async () => Promise.reject(new Error('queue down')) } });
    await expect(deleteOwnAccount(w.deps, 'leaver', { email: 'leaver@example.com' })).rejects.toMatchObject({ message: COMPANY_NOT_DELETED });
    expect(w.m.companies.has(w.own)).toBe(true);
    expect(w.steps).toEqual([]);
  });
});

describe('transferOwnership', () => {
  async function firm() {
    const m = memoryStore();
    await provisionConfirmedUser({ store: m.store, ids, clock, globalAdminEmails: [] }, attrs('owner'));
    await provisionConfirmedUser({ store: m.store, ids, clock, globalAdminEmails: [] }, attrs('partner'));
    const [own] = await m.store.listMembershipsOfUser('owner');
    const companyId = own!.company_id;
    m.memberships.push({ user_id: 'partner', company_id: companyId, role: 'admin', joined_at: '' });
    const team = { getMember: async (c: string, u: string) => m.memberships.find((x) => x.company_id === c && x.user_id === u) as MemberRecord | undefined };
    events.length = 0;
    return { m, companyId, deps: { store: m.store, team, live } };
  }

  it('hands the company to an administrator member, who becomes its account owner; the screens are told', async () => {
    const f = await firm();
    const res = await transferOwnership(f.deps, 'owner', f.companyId, { user_id: 'partner' });
    expect(res).toEqual({ company_id: f.companyId, owner: { user_id: 'partner', name: 'Ona', surname: 'Onaitė', email: 'partner@example.com' } });
    expect(f.m.companies.get(f.companyId)!.owner.user_id).toBe('partner');
    expect(events).toEqual([{ companyId: f.companyId, event: 'company' }]);
    // The old owner is no longer the owner: they may not hand it over again.
    await expect(transferOwnership(f.deps, 'owner', f.companyId, { user_id: 'partner' })).rejects.toMatchObject({ kind: 'Forbidden', message: OWNER_MSG.ownerOnly });
  });

  it('refuses another admin than the owner, a Basic member and someone not in the company', async () => {
    const f = await firm();
    f.m.memberships.push({ user_id: 'clerk', company_id: f.companyId, role: 'basic', joined_at: '' });
    f.m.profiles.set('clerk', { ...f.m.profiles.get('partner')!, id: 'clerk', email: 'clerk@example.com' });
    await expect(transferOwnership(f.deps, 'partner', f.companyId, { user_id: 'partner' })).rejects.toMatchObject({ kind: 'Forbidden', message: OWNER_MSG.ownerOnly });
    await expect(transferOwnership(f.deps, 'owner', f.companyId, { user_id: 'clerk' })).rejects.toMatchObject({
      kind: 'Conflict',
      message: OWNER_MSG.notAdmin,
      details: [{ path: ['user_id'], message: OWNER_MSG.notAdmin }],
    });
    await expect(transferOwnership(f.deps, 'owner', f.companyId, { user_id: 'stranger' })).rejects.toMatchObject({ kind: 'NotFound' });
    expect(f.m.companies.get(f.companyId)!.owner.user_id).toBe('owner');
    expect(events).toEqual([]);
  });

  it('answers the database’s refusals: lowered to Basic meanwhile, or a company of the new owner with this code', async () => {
    const f = await firm();
    const lowered = { ...f.deps, store: { ...f.m.store, transferCompanyOwner: async () => 'not-admin' as const } };
    await expect(transferOwnership(lowered, 'owner', f.companyId, { user_id: 'partner' })).rejects.toMatchObject({ message: OWNER_MSG.notAdmin });
    // The new owner's guard for this code names a company of theirs with the same code: taken.
    const [partnerOwn] = await f.m.store.listMembershipsOfUser('partner');
    const theirs = f.m.companies.get(partnerOwn!.company_id)!;
    f.m.companies.set(theirs.company_id, { ...theirs, code: f.m.companies.get(f.companyId)!.code });
    const taken = { ...f.deps, store: { ...f.m.store, transferCompanyOwner: async () => Promise.reject(new CompanyCodeTaken(theirs.company_id)) } };
    await expect(transferOwnership(taken, 'owner', f.companyId, { user_id: 'partner' })).rejects.toMatchObject({ kind: 'Conflict', message: OWNER_MSG.codeTaken });
    expect(events).toEqual([]);
  });
});
