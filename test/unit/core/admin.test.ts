import { describe, expect, it } from 'vitest';
import { decodeCompaniesCursor, encodeCompaniesCursor } from '../../../lambdas/adapters/ddb/company-admin-store';
import { emptyCounts } from '../../../lambdas/core/accounts/counts';
import type { CompanyRecord, CountsByType, UsageRecord } from '../../../lambdas/core/accounts/types';
import {
  companyUsageByMonth,
  getAdminCompany,
  listAdminCompanies,
  platformStatistics,
  totalDocuments,
  updateAvailableDocuments,
  updateVatAccount,
} from '../../../lambdas/core/admin/admin';
import { groupsOfClaim, isGlobalAdmin, withGlobalAdminFlag } from '../../../lambdas/core/admin/global-admin';
import type { CompanyAdminStore } from '../../../lambdas/core/admin/ports';
import { COMPANY_CHANGED_MEANWHILE, updateCompanyDetails } from '../../../lambdas/core/settings/company-settings';
import { updateEmailInSenders } from '../../../lambdas/core/settings/email-in-senders';
import { EMAIL_IN_SENDER_INVALID, EMAIL_IN_SENDERS_TOO_MANY, updateEmailInSendersSchema } from '../../../shared/schemas/company';
import type { AccountsStore, LiveEvents } from '../../../lambdas/core/ports';
import { resolveCaller } from '../../../lambdas/runtime/caller';
import { updateAvailableDocumentsSchema, updateVatAccountSchema } from '../../../shared/schemas/admin';

const clock = { now: () => new Date('2026-11-21T10:00:00Z') };

function company(id: string, createdAt: string): CompanyRecord {
  return {
    company_id: id,
    name: `Company ${id}`,
    code: id,
    unique_name: `company-${id}`,
    email: `company-${id}@in.receipts.local`,
    created_at: createdAt,
    owner: { user_id: `u-${id}`, name: 'Ona', surname: 'Onaitė', email: `${id}@example.com` },
    available_documents: 500,
    vat_account: '',
    integrations: {} as CompanyRecord['integrations'],
    google_selected_import_folder_name: null,
    dropbox_selected_import_folder_name: null,
  };
}

function counts(review: number, archive: number): CountsByType {
  return { receipt: { ...emptyCounts(), review }, invoice: { ...emptyCounts(), archive } };
}

/** In-memory companies (newest first by created_at), their counts and this month's usage. */
function fakes(n: number, emailInDomain = '') {
  const companies = new Map<string, CompanyRecord>();
  for (let i = 0; i < n; i++) {
    const id = `c${String(i).padStart(3, '0')}`;
    companies.set(id, company(id, `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}.${String(i).padStart(3, '0')}Z`));
  }
  const usage = new Map<string, number>();
  /** Past months' usage, `<company>@<YYYY-MM>`, with the quota recorded for the month when there is one. */
  const monthUsage = new Map<string, UsageRecord>();
  /** Quotas written on a month's usage item with the company's, `<company>@<YYYY-MM>=<quota>`. */
  const monthQuotas: string[] = [];
  const usageRanges: string[] = [];
  const resets: string[] = [];
  const events: { companyId: string; event: string; payload: unknown }[] = [];
  const statsRequests: string[][] = [];
  const store = {
    getCompanies: async (ids: string[]) => ids.flatMap((id) => (companies.has(id) ? [companies.get(id)!] : [])),
    getCompanyStats: async (ids: string[], month: string) => {
      statsRequests.push([month, ...ids]);
      return new Map(
        ids.map((id) => [id, { counts: counts(1, 2), usage: monthUsage.get(`${id}@${month}`) ?? { used_documents: usage.get(id) ?? 0, duplicated_documents: 0 } }]),
      );
    },
  } as unknown as AccountsStore;
  const sorted = () => [...companies.values()].sort((a, b) => b.created_at.localeCompare(a.created_at));
  const set = async (id: string, changes: Partial<CompanyRecord>) => {
    const c = companies.get(id);
    if (!c) return undefined;
    const next = { ...c, ...changes };
    companies.set(id, next);
    return next;
  };
  const admin: CompanyAdminStore = {
    listCompanies: async (limit, next, createdBefore) => {
      const all = sorted().filter((c) => !createdBefore || c.created_at < createdBefore);
      const start = next ? all.findIndex((c) => c.company_id === next) + 1 : 0;
      const items = all.slice(start, start + limit);
      return { items, next: start + limit < all.length ? items[items.length - 1]!.company_id : null };
    },
    setAvailableDocuments: async (id, available, expected, month) => {
      if (expected !== undefined && companies.get(id)?.available_documents !== expected) return undefined;
      const written = await set(id, { available_documents: available });
      if (written) monthQuotas.push(`${id}@${month}=${available}`);
      return written;
    },
    setVatAccount: (id, vat) => set(id, { vat_account: vat }),
    setEmailInSenders: (id, senders) => set(id, { email_in_senders: senders }),
    setNameAndCode: async (current, name, code) =>
      companies.get(current.company_id)?.code === current.code ? set(current.company_id, { name, code }) : undefined,
    resetMonthUsage: async (id, month) => {
      resets.push(`${id}@${month}`);
      usage.set(id, 0);
    },
    listMonthUsage: async (id, from, to) => {
      usageRanges.push(`${id}@${from}..${to}`);
      const found = new Map<string, UsageRecord>();
      for (const [key, value] of monthUsage) {
        const [owner, month] = key.split('@');
        if (owner === id && month >= from && month <= to) found.set(month, value);
      }
      return found;
    },
  };
  const live: LiveEvents = {
    publish: async (companyId, event, payload) => void events.push({ companyId, event, payload }),
    publishToUser: async () => undefined,
  };
  return { deps: { store, admin, clock, live, emailInDomain }, companies, usage, monthUsage, monthQuotas, usageRanges, resets, events, statsRequests };
}

describe('platform admin core', () => {
  it('statistics: customers = companies, documents = every status of both types, over all pages', async () => {
    // Prepare: 230 companies, each with 1 receipt in review and 2 invoices in archive
    const f = fakes(230);
    // Act
    const stats = await platformStatistics(f.deps);
    // Assess: three pages of at most 100 companies, each page's counts read once for this month
    expect(stats).toEqual({ customers: 230, documents: 690 });
    expect(f.statsRequests.map((r) => r.length - 1)).toEqual([100, 100, 30]);
    expect(f.statsRequests.every((r) => r[0] === '2026-11')).toBe(true);
  });

  it('statistics of an empty platform are zero', async () => {
    expect(await platformStatistics(fakes(0).deps)).toEqual({ customers: 0, documents: 0 });
  });

  it('totalDocuments adds every status of receipts and invoices', () => {
    expect(totalDocuments(counts(4, 5))).toBe(9);
  });

  it('lists 50 companies a page, newest first, with owner and usage; next continues', async () => {
    const f = fakes(60);
    f.usage.set('c059', 7);
    const first = await listAdminCompanies(f.deps, undefined);
    expect(first.items).toHaveLength(50);
    expect(first.items[0]).toEqual({
      company_id: 'c059',
      name: 'Company c059',
      code: 'c059',
      email: 'company-c059@in.receipts.local',
      created_at: f.companies.get('c059')!.created_at,
      user: { name: 'Ona', surname: 'Onaitė', email: 'c059@example.com' },
      used_documents: 7,
      available_documents: 500,
      vat_account: '',
    });
    const second = await listAdminCompanies(f.deps, first.next!);
    expect(second.items.map((c) => c.company_id)).toEqual(['c009', 'c008', 'c007', 'c006', 'c005', 'c004', 'c003', 'c002', 'c001', 'c000']);
    expect(second.next).toBeNull();
  });

  it('lists a past month’s usage when asked; a month not begun yet is refused under month', async () => {
    const f = fakes(2);
    await listAdminCompanies(f.deps, undefined, '2026-10');
    expect(f.statsRequests.at(-1)![0]).toBe('2026-10');
    await listAdminCompanies(f.deps, undefined);
    expect(f.statsRequests.at(-1)![0]).toBe('2026-11');
    // a past month lists the companies that existed by its end (midnight in Vilnius), not the ones created later
    f.companies.set('c-late', company('c-late', '2026-10-31T22:30:00.000Z'));
    f.companies.set('c-last', company('c-last', '2026-10-31T21:59:59.000Z'));
    expect((await listAdminCompanies(f.deps, undefined, '2026-10')).items.map((c) => c.company_id)).toEqual(['c-last', 'c001', 'c000']);
    expect((await listAdminCompanies(f.deps, undefined)).items.map((c) => c.company_id)).toEqual(['c-late', 'c-last', 'c001', 'c000']);
    await expect(listAdminCompanies(f.deps, undefined, '2026-12')).rejects.toMatchObject({
      statusCode: 422,
      details: [{ path: ['month'], message: 'The month has not started yet' }],
    });
  });

  it('usage by month: twelve months newest first, 0 where nothing was counted, none before the company; one range read', async () => {
    const f = fakes(2);
    f.monthUsage.set('c000@2026-11', { used_documents: 3, duplicated_documents: 1 });
    f.monthUsage.set('c000@2026-02', { used_documents: 40, duplicated_documents: 0 });
    f.monthUsage.set('c001@2026-10', { used_documents: 9, duplicated_documents: 0 });
    // c000 was created in January 2026: eleven months to show
    const usage = await companyUsageByMonth(f.deps, 'c000');
    expect(usage.items.map((m) => m.month)).toEqual([
      '2026-11', '2026-10', '2026-09', '2026-08', '2026-07', '2026-06', '2026-05', '2026-04', '2026-03', '2026-02', '2026-01',
    ]);
    expect(usage.items[0]).toEqual({ month: '2026-11', used_documents: 3, duplicated_documents: 1, available_documents: 500 });
    expect(usage.items[1]).toEqual({ month: '2026-10', used_documents: 0, duplicated_documents: 0, available_documents: 500 });
    expect(usage.items[9]).toEqual({ month: '2026-02', used_documents: 40, duplicated_documents: 0, available_documents: 500 });
    expect(f.usageRanges).toEqual(['c000@2026-01..2026-11']);
    // An older company: the current month and the eleven before it, across the year's turn
    f.companies.set('old', company('old', '2020-05-01T00:00:00Z'));
    const old = await companyUsageByMonth(f.deps, 'old');
    expect(old.items).toHaveLength(12);
    expect(old.items.at(-1)!.month).toBe('2025-12');
    await expect(companyUsageByMonth(f.deps, 'missing')).rejects.toMatchObject({ statusCode: 404 });
  });

  it('usage by month: a past month shows the quota recorded for it, a month without one today’s; this month today’s', async () => {
    // Prepare: the quota is 500 now; September was counted against 200, October has usage from before the quota was
    // kept, August no item at all; this month's item still says 300 (a reservation read the quota before a change)
    const f = fakes(1);
    f.monthUsage.set('c000@2026-11', { used_documents: 3, duplicated_documents: 0, available_documents: 300 });
    f.monthUsage.set('c000@2026-10', { used_documents: 9, duplicated_documents: 0 });
    f.monthUsage.set('c000@2026-09', { used_documents: 180, duplicated_documents: 2, available_documents: 200 });
    // Act
    const usage = await companyUsageByMonth(f.deps, 'c000');
    // Assess
    expect(usage.items.slice(0, 4)).toEqual([
      { month: '2026-11', used_documents: 3, duplicated_documents: 0, available_documents: 500 },
      { month: '2026-10', used_documents: 9, duplicated_documents: 0, available_documents: 500 },
      { month: '2026-09', used_documents: 180, duplicated_documents: 2, available_documents: 200 },
      { month: '2026-08', used_documents: 0, duplicated_documents: 0, available_documents: 500 },
    ]);
  });

  it('the companies list of a past month shows that month’s recorded quota, else today’s; this month today’s', async () => {
    const f = fakes(2);
    f.monthUsage.set('c000@2026-09', { used_documents: 180, duplicated_documents: 2, available_documents: 200 });
    f.monthUsage.set('c001@2026-09', { used_documents: 7, duplicated_documents: 0 });
    f.monthUsage.set('c000@2026-11', { used_documents: 4, duplicated_documents: 0, available_documents: 300 });
    const september = await listAdminCompanies(f.deps, undefined, '2026-09');
    expect(september.items.map((c) => [c.company_id, c.used_documents, c.available_documents])).toEqual([
      ['c001', 7, 500],
      ['c000', 180, 200],
    ]);
    for (const month of [undefined, '2026-11']) {
      const now = await listAdminCompanies(f.deps, undefined, month);
      expect(now.items.find((c) => c.company_id === 'c000')).toMatchObject({ used_documents: 4, available_documents: 500 });
    }
  });

  it('a new quota is also written as the current month’s quota; a refused one is not', async () => {
    const f = fakes(1);
    await updateAvailableDocuments(f.deps, 'c000', { available: 40, reset: false });
    await expect(updateAvailableDocuments(f.deps, 'c000', { available: 10, expected: 500, reset: false })).rejects.toMatchObject({ kind: 'Conflict' });
    await updateAvailableDocuments(f.deps, 'c000', { reset: true });
    expect(f.monthQuotas).toEqual(['c000@2026-11=40']);
  });

  it('shows the companies’ Email-in addresses at the deployed domain; stored as they were', async () => {
    const f = fakes(2, 'in.example.com');
    expect((await listAdminCompanies(f.deps, undefined)).items.map((c) => c.email)).toEqual(['company-c001@in.example.com', 'company-c000@in.example.com']);
    expect(await getAdminCompany(f.deps, 'c001')).toMatchObject({ email: 'company-c001@in.example.com' });
    expect(await updateVatAccount(f.deps, 'c001', '2410')).toMatchObject({ email: 'company-c001@in.example.com' });
    expect(f.companies.get('c001')!.email).toBe('company-c001@in.receipts.local');
  });

  it('a single company, or 404', async () => {
    const f = fakes(2);
    expect(await getAdminCompany(f.deps, 'c001')).toMatchObject({ company_id: 'c001', used_documents: 0 });
    await expect(getAdminCompany(f.deps, 'nope')).rejects.toMatchObject({ kind: 'NotFound' });
  });

  it('sets the quota, resets this month only when asked, and tells the company’s screens', async () => {
    const f = fakes(1);
    f.usage.set('c000', 12);
    const kept = await updateAvailableDocuments(f.deps, 'c000', { available: 40, reset: false });
    expect(kept).toMatchObject({ available_documents: 40, used_documents: 12 });
    expect(f.resets).toEqual([]);
    const reset = await updateAvailableDocuments(f.deps, 'c000', { available: 40, reset: true });
    expect(reset).toMatchObject({ available_documents: 40, used_documents: 0 });
    expect(f.resets).toEqual(['c000@2026-11']);
    expect(f.events.at(-1)).toEqual({
      companyId: 'c000',
      event: 'company',
      payload: { company_id: 'c000', available_documents: 40, used_documents: 0, used_documents_per_month: 0, vat_account: '' },
    });
    await expect(updateAvailableDocuments(f.deps, 'nope', { available: 1, reset: true })).rejects.toMatchObject({ kind: 'NotFound' });
    await expect(updateAvailableDocuments(f.deps, 'nope', { reset: true })).rejects.toMatchObject({ kind: 'NotFound' });
    expect(f.resets).toEqual(['c000@2026-11']);
  });

  it('a page out of date does not put back an old quota: 409 with the current one, nothing written, the reset neither', async () => {
    // Prepare: the page showed 500; another admin set 20 since
    const f = fakes(1);
    f.usage.set('c000', 12);
    await updateAvailableDocuments(f.deps, 'c000', { available: 20, expected: 500, reset: false });
    // Act
    const stale = updateAvailableDocuments(f.deps, 'c000', { available: 10, expected: 500, reset: true });
    // Assess
    await expect(stale).rejects.toMatchObject({ kind: 'Conflict', message: expect.stringContaining('changed to 20'), details: { available_documents: 20 } });
    expect(f.companies.get('c000')!.available_documents).toBe(20);
    expect(f.resets).toEqual([]);
    await expect(updateAvailableDocuments(f.deps, 'c000', { expected: 500, reset: true })).rejects.toMatchObject({ kind: 'Conflict' });
    expect(f.resets).toEqual([]);
    // A reset alone keeps the quota; a count sent on the current value is written.
    expect(await updateAvailableDocuments(f.deps, 'c000', { reset: true })).toMatchObject({ available_documents: 20, used_documents: 0 });
    expect(await updateAvailableDocuments(f.deps, 'c000', { available: 30, expected: 20, reset: false })).toMatchObject({ available_documents: 30 });
    // Nothing to do is a missing count.
    await expect(updateAvailableDocuments(f.deps, 'c000', { reset: false })).rejects.toMatchObject({ kind: 'ValidationFailed', details: [{ path: ['available_documents'], message: 'Required field' }] });
  });

  it('sets the VAT account, or 404', async () => {
    const f = fakes(1);
    expect(await updateVatAccount(f.deps, 'c000', '2441')).toMatchObject({ vat_account: '2441' });
    await expect(updateVatAccount(f.deps, 'nope', '1')).rejects.toMatchObject({ kind: 'NotFound' });
  });

  it('settings: renames the company, answers it with the caller’s role, publishes only name and code', async () => {
    const f = fakes(1);
    const view = await updateCompanyDetails(f.deps, { companyId: 'c000', role: 'admin' }, { name: ' New UAB ', code: ' 42 ' });
    expect(view).toMatchObject({ company_id: 'c000', name: 'New UAB', code: '42', role: 'admin' });
    expect(f.events).toEqual([{ companyId: 'c000', event: 'company', payload: { company_id: 'c000', name: 'New UAB', code: '42' } }]);
    await expect(updateCompanyDetails(f.deps, { companyId: 'nope', role: 'admin' }, { name: 'A', code: 'B' })).rejects.toMatchObject({
      kind: 'NotFound',
    });
  });

  it('settings: the allowed senders of Email-in are written as checked, answered and told to every open screen', async () => {
    const f = fakes(1);
    const input = updateEmailInSendersSchema.parse({ email_in_senders: [' Anna@Supplier.LT ', '@maxima.lt', 'maxima.lt'] });
    expect(input.email_in_senders).toEqual(['anna@supplier.lt', 'maxima.lt']);
    const view = await updateEmailInSenders(f.deps, { companyId: 'c000', role: 'admin' }, input);
    expect(view).toMatchObject({ company_id: 'c000', role: 'admin', email_in_senders: ['anna@supplier.lt', 'maxima.lt'] });
    expect(f.companies.get('c000')?.email_in_senders).toEqual(['anna@supplier.lt', 'maxima.lt']);
    expect(f.events).toEqual([{ companyId: 'c000', event: 'company', payload: { company_id: 'c000', email_in_senders: ['anna@supplier.lt', 'maxima.lt'] } }]);
    // Empty takes mail from anyone again.
    expect((await updateEmailInSenders(f.deps, { companyId: 'c000', role: 'admin' }, { email_in_senders: [] })).email_in_senders).toEqual([]);
    await expect(updateEmailInSenders(f.deps, { companyId: 'nope', role: 'admin' }, input)).rejects.toMatchObject({ kind: 'NotFound' });
    // An internationalised domain in its ASCII form (also as its top-level domain) is a domain.
    expect(updateEmailInSendersSchema.parse({ email_in_senders: ['xn--80ak6aa92e.xn--p1ai', 'saskaitos@xn--pirkiniai-9ub.lt'] }).email_in_senders).toHaveLength(2);
    // What is not an address or a domain, and a list too long, are refused with the field's message.
    for (const bad of ['anna', 'anna@', 'a b@x.lt', '<anna@x.lt>', 'x.lt; y.lt', 'x.xn--']) {
      expect(updateEmailInSendersSchema.safeParse({ email_in_senders: [bad] }).error?.issues[0]).toMatchObject({ path: ['email_in_senders', 0], message: EMAIL_IN_SENDER_INVALID });
    }
    const many = Array.from({ length: 51 }, (_, i) => `s${i}.lt`);
    expect(updateEmailInSendersSchema.safeParse({ email_in_senders: many }).error?.issues[0]?.message).toBe(EMAIL_IN_SENDERS_TOO_MANY);
    expect(updateEmailInSendersSchema.safeParse({ email_in_senders: [], other: 1 }).success).toBe(false);
  });

  it('settings: a code changed between the read and the write is read again; changed every time, 409', async () => {
    const f = fakes(1);
    const write = f.deps.admin.setNameAndCode;
    let concurrent = 1;
    f.deps.admin.setNameAndCode = async (current, name, code) => {
      if (concurrent-- > 0) f.companies.set('c000', { ...f.companies.get('c000')!, code: `meanwhile ${concurrent}` });
      return write(current, name, code);
    };
    expect(await updateCompanyDetails(f.deps, { companyId: 'c000', role: 'admin' }, { name: 'N', code: '43' })).toMatchObject({ code: '43' });
    concurrent = 10;
    await expect(updateCompanyDetails(f.deps, { companyId: 'c000', role: 'admin' }, { name: 'N', code: '44' })).rejects.toMatchObject({
      kind: 'Conflict',
      message: COMPANY_CHANGED_MEANWHILE,
    });
    expect(f.companies.get('c000')?.code).toMatch(/^meanwhile /);
  });
});

describe('admin input schemas', () => {
  it('count: digits only, at most 5 characters, string or number', () => {
    expect(updateAvailableDocumentsSchema.parse({ available_documents: '00120' })).toEqual({ available_documents: 120 });
    expect(updateAvailableDocumentsSchema.parse({ available_documents: 7 })).toEqual({ available_documents: 7 });
    for (const bad of ['1e3', '-5', ' 1 2', 'abc', 1.5]) {
      const r = updateAvailableDocumentsSchema.safeParse({ available_documents: bad });
      expect(r.success, String(bad)).toBe(false);
      expect(r.error!.issues.map((i) => i.message)).toContain('Not a number');
    }
    expect(updateAvailableDocumentsSchema.safeParse({ available_documents: '123456' }).error!.issues[0]!.message).toBe('At most 5 characters');
  });

  it('VAT account: at most 10 characters, trimmed, may be cleared', () => {
    expect(updateVatAccountSchema.parse({ vat_account: ' 2441 ' })).toEqual({ vat_account: '2441' });
    expect(updateVatAccountSchema.parse({ vat_account: '' })).toEqual({ vat_account: '' });
    expect(updateVatAccountSchema.safeParse({ vat_account: '12345678901' }).error!.issues[0]!.message).toBe('At most 10 characters');
  });
});

describe('who is a platform admin', () => {
  it('reads cognito:groups as API Gateway, the local adapter and a raw token give it', () => {
    expect(groupsOfClaim('[global-admins other]')).toEqual(['global-admins', 'other']);
    expect(groupsOfClaim('["global-admins"]')).toEqual(['global-admins']);
    expect(groupsOfClaim(['a', 'global-admins'])).toEqual(['a', 'global-admins']);
    expect(groupsOfClaim(undefined)).toEqual([]);
    expect(groupsOfClaim('')).toEqual([]);
  });

  it('the profile flag, the Cognito group or the deployment’s list makes one', () => {
    expect(isGlobalAdmin({ profileIsAdmin: true }, [])).toBe(true);
    expect(isGlobalAdmin({ groups: ['global-admins'] }, [])).toBe(true);
    expect(isGlobalAdmin({ email: ' Boss@Example.com ' }, ['boss@example.com'])).toBe(true);
    expect(isGlobalAdmin({ profileIsAdmin: false, groups: ['admins'], email: 'x@example.com' }, ['boss@example.com'])).toBe(false);
    expect(withGlobalAdminFlag({ is_admin: false, email: 'x@example.com' }, ['global-admins'], [])).toEqual({ is_admin: true, email: 'x@example.com' });
  });

  it('resolveCaller lets a member of global-admins through without the profile flag, and refuses others', async () => {
    const store = { getProfile: async () => ({ is_admin: false, email: 'x@example.com' }) } as unknown as AccountsStore;
    const viaGroup = await resolveCaller(store, 'global-admin', { sub: 'u1', 'cognito:groups': '[global-admins]' }, undefined, []);
    expect(viaGroup).toMatchObject({ userId: 'u1', isGlobalAdmin: true, groups: ['global-admins'] });
    await expect(resolveCaller(store, 'global-admin', { sub: 'u1', 'cognito:groups': '[readers]' }, undefined, [])).rejects.toMatchObject({
      kind: 'Forbidden',
    });
    await expect(resolveCaller(store, 'global-admin', undefined, undefined, [])).rejects.toMatchObject({ kind: 'Unauthorized' });
  });
});

describe('companies cursor (A7)', () => {
  it('round-trips the last key and refuses anything it did not issue', () => {
    const last = { pk: 'COMPANY#c1', sk: 'META', gsi2pk: 'COMPANIES', gsi2sk: '2026-01-01T00:00:00.000Z#c1' };
    const cursor = encodeCompaniesCursor(last)!;
    expect(decodeCompaniesCursor(cursor)).toEqual(last);
    expect(encodeCompaniesCursor(undefined)).toBeNull();
    for (const bad of ['not-base64-json', Buffer.from('{"pk":"USER#1","sk":"PROFILE","gsi2sk":"x"}').toString('base64url'), Buffer.from('[]').toString('base64url')]) {
      expect(() => decodeCompaniesCursor(bad)).toThrow('Invalid cursor');
    }
  });
});
