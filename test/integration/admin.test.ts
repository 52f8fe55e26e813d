/**
 * Platform admin (global admin) and company settings through the real local API: statistics, the
 * companies list, one company, quota and VAT account updates, PUT /company, and who may call them.
 */
import { textPdf } from '../support/text-pdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../../scripts/local/seed';
import {
  addMembership,
  apiClient,
  newUser,
  openLiveChannel,
  registeredUser,
  signIn,
  startTestStack,
  subOf,
  uploadDocument,
  type TestStack,
} from '../support/local-stack';

const PLATFORM_ADMIN_EMAIL = 'platform-admin@example.com';

type AdminCompany = {
  company_id: string;
  name: string;
  code: string;
  email: string;
  created_at: string;
  user: { name: string; surname: string; email: string };
  used_documents: number;
  available_documents: number;
  vat_account: string;
};
type Page = { items: AdminCompany[]; next: string | null };
type Api = ReturnType<typeof apiClient>;

/** Every admin call, with input that passes validation (so only the caller decides the answer). */
function adminCalls(companyId: string): [string, (api: Api) => ReturnType<Api['get']>][] {
  return [
    ['GET /admin/statistics', (api) => api.get('/admin/statistics')],
    ['GET /admin/companies', (api) => api.get('/admin/companies')],
    ['GET /admin/companies/{id}', (api) => api.get(`/admin/companies/${companyId}`)],
    ['GET /admin/companies/{id}/usage', (api) => api.get(`/admin/companies/${companyId}/usage`)],
    [
      'POST /admin/companies/{id}/updateAvailableDocuments',
      (api) => api.post(`/admin/companies/${companyId}/updateAvailableDocuments?reset=1`, { available_documents: '1' }),
    ],
    ['POST /admin/companies/{id}/updateVATAccount', (api) => api.post(`/admin/companies/${companyId}/updateVATAccount`, { vat_account: 'HACK' })],
  ];
}

describe('platform admin and company settings through the local API', () => {
  let t: TestStack;
  let admin: Api;
  let adminToken: string;
  beforeAll(async () => {
    t = await startTestStack({ globalAdminEmails: [PLATFORM_ADMIN_EMAIL] });
    const user = { ...newUser('platform'), email: PLATFORM_ADMIN_EMAIL };
    await registerUser(t.stack, user);
    adminToken = await signIn(t.stack, user);
    admin = apiClient(t.stack.apiUrl, adminToken);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('GET /user says is_admin only for a platform admin', async () => {
    const other = await registeredUser(t.stack, 'plain');
    expect((await admin.get('/user')).body).toMatchObject({ email: PLATFORM_ADMIN_EMAIL, is_admin: true });
    expect((await other.api.get('/user')).body).toMatchObject({ is_admin: false });
  });

  it('POST /user answers is_admin as GET /user does: an admin by the deployment list, not by the profile, keeps the Admin menu after saving', async () => {
    // An admin named in the list after signing up: the stored profile does not say so
    const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
    const { ddb } = await import('../../lambdas/adapters/ddb/client');
    const { keys } = await import('../../lambdas/adapters/ddb/keys');
    const sub = subOf(adminToken);
    await ddb().send(new UpdateCommand({ TableName: process.env.TABLE_NAME, Key: keys.userProfile(sub), UpdateExpression: 'SET is_admin = :f', ExpressionAttributeValues: { ':f': false } }));
    expect((await admin.get('/user')).body).toMatchObject({ is_admin: true });
    const saved = await admin.post('/user', { city: 'Kaunas' });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ city: 'Kaunas', is_admin: true });
  });

  it('lists companies newest first with owner and this month’s usage, paged with next', async () => {
    const owner = await registeredUser(t.stack, 'listed');
    const first = (await admin.get('/admin/companies')).body as Page;
    expect(first.items[0]).toEqual({
      company_id: owner.companyId,
      name: owner.user.company,
      code: owner.user.company_code,
      email: expect.stringMatching(/@in\.receipts\.local$/),
      created_at: expect.any(String),
      user: { name: owner.user.name, surname: owner.user.surname, email: owner.user.email },
      used_documents: 0,
      available_documents: 500,
      vat_account: '',
    });
    const dates = first.items.map((c) => c.created_at);
    expect([...dates].sort().reverse()).toEqual(dates);

    // More than one page: 52 companies in all, 50 a page, the second page continues where the first stopped.
    // (Several owners: one user may create only a few companies.)
    let existing = ((await admin.get('/admin/statistics')).body as { customers: number }).customers;
    while (existing < 52) {
      const extra = await registeredUser(t.stack, 'pager');
      existing += 1;
      for (let i = 0; i < 5 && existing < 52; i++, existing++) {
        expect((await extra.api.post('/company', { company_name: `Pager ${existing}`, code: `${existing}` })).status).toBe(201);
      }
    }
    const p1 = (await admin.get('/admin/companies')).body as Page;
    expect(p1.items).toHaveLength(50);
    expect(p1.next).toEqual(expect.any(String));
    const p2 = (await admin.get(`/admin/companies?next=${encodeURIComponent(p1.next!)}`)).body as Page;
    expect(p2.items.length).toBeGreaterThanOrEqual(2);
    const ids = [...p1.items, ...p2.items].map((c) => c.company_id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain(owner.companyId);

    const forged = await admin.get(`/admin/companies?next=${Buffer.from('{"pk":"USER#x","sk":"PROFILE"}').toString('base64url')}`);
    expect(forged.status).toBe(400);
    expect(forged.body).toMatchObject({ statusCode: 400, message: 'Invalid cursor' });
  });

  it('counts customers (companies) and documents across the platform', async () => {
    const before = (await admin.get('/admin/statistics')).body as { customers: number; documents: number };
    const { api, companyId } = await registeredUser(t.stack, 'counted');
    const afterCompany = (await admin.get('/admin/statistics')).body as { customers: number; documents: number };
    expect(afterCompany).toEqual({ customers: before.customers + 1, documents: before.documents });

    const up = await uploadDocument(api, { company_id: companyId, original_file_name: 'count.pdf' }, await textPdf(['COUNT UAB', 'Total 3.00']));
    expect(up.request.status).toBe(200);
    await t.stack.jobs.idle();
    expect((await admin.get('/admin/statistics')).body).toEqual({ customers: before.customers + 1, documents: before.documents + 1 });
    const row = (await admin.get(`/admin/companies/${companyId}`)).body as AdminCompany;
    expect(row).toMatchObject({ company_id: companyId, used_documents: 1, available_documents: 500 });
  });

  it('usage by month: the company’s months newest first, none before it existed; the list shows a past month when asked', async () => {
    const { GetCommand, PutCommand } = await import('@aws-sdk/lib-dynamodb');
    const { ddb } = await import('../../lambdas/adapters/ddb/client');
    const { keys } = await import('../../lambdas/adapters/ddb/keys');
    const { businessMonth, monthsUpTo } = await import('../../shared/business-time');
    const { api, companyId } = await registeredUser(t.stack, 'monthly');
    const [current, previous, third] = monthsUpTo(businessMonth(new Date()), 3);
    type Usage = { items: { month: string; used_documents: number; duplicated_documents: number; available_documents: number }[] };

    // A company created this month has one month to show; its upload counts in it, against the quota it had.
    expect((await uploadDocument(api, { company_id: companyId, original_file_name: 'month.pdf' }, await textPdf(['MONTH UAB', 'Total 2.00']))).request.status).toBe(200);
    await t.stack.jobs.idle();
    expect((await admin.get(`/admin/companies/${companyId}/usage`)).body).toEqual({ items: [{ month: current, used_documents: 1, duplicated_documents: 0, available_documents: 500 }] });
    const usageItem = async (month: string) =>
      (await ddb().send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: keys.companyUsage(companyId, month), ConsistentRead: true }))).Item;
    // The upload's reservation kept the quota it was compared with on the month's item
    expect(await usageItem(current)).toMatchObject({ used_documents: 1, reserved_documents: 0, quota_taken: 1, available_documents: 500 });

    // Created two years ago, with documents counted two months back (an item from before the quota was kept on it):
    // twelve months, the quiet one 0, each over today's quota.
    const table = process.env.TABLE_NAME;
    const { setCompanyCreatedAt } = await import('../../scripts/local/seed-admin');
    await setCompanyCreatedAt(companyId, '2024-06-01T08:00:00.000Z');
    await ddb().send(new PutCommand({ TableName: table, Item: { ...keys.companyUsage(companyId, third), used_documents: 37, duplicated_documents: 2, quota_taken: 37 } }));
    const usage = (await admin.get(`/admin/companies/${companyId}/usage`)).body as Usage;
    expect(usage.items).toHaveLength(12);
    expect(usage.items.slice(0, 3)).toEqual([
      { month: current, used_documents: 1, duplicated_documents: 0, available_documents: 500 },
      { month: previous, used_documents: 0, duplicated_documents: 0, available_documents: 500 },
      { month: third, used_documents: 37, duplicated_documents: 2, available_documents: 500 },
    ]);

    // The companies list with a past month: that month's documents
    // every page of the list (the company, created long ago now, is listed last)
    const allRows = async (query: string) => {
      const rows: Page['items'] = [];
      let next: string | null = null;
      do {
        const sep = query ? '&' : '?';
        const page = (await admin.get(`/admin/companies${query}${next ? `${sep}next=${encodeURIComponent(next)}` : ''}`)).body as Page;
        rows.push(...page.items);
        next = page.next;
      } while (next);
      return rows;
    };
    const row = async (query: string) => (await allRows(query)).find((c) => c.company_id === companyId);
    expect(await row('')).toMatchObject({ used_documents: 1 });
    expect(await row(`?month=${third}`)).toMatchObject({ used_documents: 37, available_documents: 500 });
    expect(await row(`?month=${previous}`)).toMatchObject({ used_documents: 0 });
    // A company created this month is not listed for a month before it existed
    const fresh = await registeredUser(t.stack, 'monthly-new');
    const listed = async (query: string) => (await allRows(query)).map((c) => c.company_id);
    expect(await listed('')).toContain(fresh.companyId);
    expect(await listed(`?month=${previous}`)).not.toContain(fresh.companyId);

    // Last month the admin set the quota to 200 (the quota change as it ran then, on the same table); today to 60.
    const { updateAvailableDocuments } = await import('../../lambdas/core/admin/admin');
    const { ddbAccountsStore } = await import('../../lambdas/adapters/ddb/accounts-store');
    const { ddbCompanyAdminStore } = await import('../../lambdas/adapters/ddb/company-admin-store');
    const lastMonth = { now: () => new Date(`${previous}-15T10:00:00.000Z`) };
    const quiet = { publish: async () => undefined, publishToUser: async () => undefined };
    const deps = { store: ddbAccountsStore, admin: ddbCompanyAdminStore, clock: lastMonth, live: quiet, emailInDomain: '' };
    expect(await updateAvailableDocuments(deps, companyId, { available: 200, reset: false })).toMatchObject({ available_documents: 200 });
    expect(await usageItem(previous)).toMatchObject({ available_documents: 200 });
    const raised = await admin.post(`/admin/companies/${companyId}/updateAvailableDocuments`, { available_documents: '60', expected_available_documents: 200 });
    expect(raised.status).toBe(200);
    // This month's item keeps the new quota, its counters as they were
    expect(await usageItem(current)).toMatchObject({ used_documents: 1, reserved_documents: 0, quota_taken: 1, available_documents: 60 });
    // The past month shows the quota it had; the month from before the quota was kept, and this month, today's
    expect(((await admin.get(`/admin/companies/${companyId}/usage`)).body as Usage).items.slice(0, 3)).toEqual([
      { month: current, used_documents: 1, duplicated_documents: 0, available_documents: 60 },
      { month: previous, used_documents: 0, duplicated_documents: 0, available_documents: 200 },
      { month: third, used_documents: 37, duplicated_documents: 2, available_documents: 60 },
    ]);
    expect(await row(`?month=${previous}`)).toMatchObject({ used_documents: 0, available_documents: 200 });
    expect(await row(`?month=${third}`)).toMatchObject({ used_documents: 37, available_documents: 60 });
    expect(await row('')).toMatchObject({ used_documents: 1, available_documents: 60 });
    expect(await row(`?month=${current}`)).toMatchObject({ used_documents: 1, available_documents: 60 });

    // A month not begun, or not a month: 422 under month; an unknown company's usage: 404
    const [next] = monthsUpTo(`${Number(current.slice(0, 4)) + 1}-${current.slice(5)}`, 1);
    expect((await admin.get(`/admin/companies?month=${next}`)).body).toMatchObject({ statusCode: 422, details: [{ path: ['month'], message: 'The month has not started yet' }] });
    for (const bad of ['2026-13', '2026-1', 'december', '2026-12-01']) {
      const res = await admin.get(`/admin/companies?month=${bad}`);
      expect(res.status, bad).toBe(422);
      expect(res.body).toMatchObject({ details: [{ path: ['month'], message: 'Month must be YYYY-MM' }] });
    }
    expect((await admin.get('/admin/companies/01UNKNOWNCOMPANY0000000000/usage')).status).toBe(404);
  });

  it('lowers the quota: the very next upload is refused; reset=1 starts the month again', async () => {
    const { api, companyId, token } = await registeredUser(t.stack, 'quota');
    const upload = (name: string) => api.get(`/upload/document?company_id=${companyId}&original_file_name=${name}&size=100`);
    const first = await uploadDocument(api, { company_id: companyId, original_file_name: 'one.pdf' }, await textPdf(['ONE UAB', 'Total 1.00']));
    expect(first.request.status).toBe(200);
    await t.stack.jobs.idle();

    const live = await openLiveChannel(t.stack.wsUrl, token, companyId);
    const lowered = await admin.post(`/admin/companies/${companyId}/updateAvailableDocuments`, { available_documents: '1' });
    expect(lowered.status).toBe(200);
    expect(lowered.body).toMatchObject({ company_id: companyId, available_documents: 1, used_documents: 1 });
    const event = await live.waitFor('company');
    expect(event.payload).toMatchObject({ company_id: companyId, available_documents: 1, used_documents: 1 });
    live.close();
    expect((await api.get('/companies')).body).toMatchObject({ items: [{ company_id: companyId, available_documents: 1 }] });

    const over = await upload('two.pdf');
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ error: 'QuotaExceeded', message: expect.stringContaining('(1 document a month)') });

    // A pending reservation survives a reset: quota_taken = the reservations still held.
    await admin.post(`/admin/companies/${companyId}/updateAvailableDocuments`, { available_documents: 2 });
    const held = await upload('held.pdf');
    expect(held.status).toBe(200);
    expect((await upload('three.pdf')).status).toBe(429);
    const reset = await admin.post(`/admin/companies/${companyId}/updateAvailableDocuments?reset=1`, { available_documents: '2' });
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ used_documents: 0, available_documents: 2 });
    expect((await upload('four.pdf')).status).toBe(200);
    expect((await upload('five.pdf')).status).toBe(429);
  });

  it('a quota changed since the page was loaded is not overwritten (409 with the current value); a reset alone keeps the quota', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'stale');
    const count = (body: unknown, q = '') => admin.post(`/admin/companies/${companyId}/updateAvailableDocuments${q}`, body);
    expect((await uploadDocument(api, { company_id: companyId, original_file_name: 'used.pdf' }, await textPdf(['USED UAB', 'Total 1.00']))).request.status).toBe(200);
    await t.stack.jobs.idle();
    expect((await admin.get(`/admin/companies/${companyId}`)).body).toMatchObject({ used_documents: 1 });
    // Admin A loaded the page at 500; admin B raises the quota to 20 meanwhile.
    expect((await count({ available_documents: '20', expected_available_documents: 500 })).status).toBe(200);
    const stale = await count({ available_documents: '10', expected_available_documents: 500 }, '?reset=1');
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ statusCode: 409, error: 'Conflict', message: expect.stringContaining('20'), details: { available_documents: 20 } });
    // Nothing was written: neither the quota nor the reset.
    expect((await admin.get(`/admin/companies/${companyId}`)).body).toMatchObject({ available_documents: 20, used_documents: 1 });
    // The reset alone sends no count: the newer quota stays.
    const reset = await count({}, '?reset=1');
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ available_documents: 20, used_documents: 0 });
    // Nothing to change: the count is required.
    expect((await count({})).body).toMatchObject({ statusCode: 422, details: [{ path: ['available_documents'], message: 'Required field' }] });
    // With the current value as expected, the change is made.
    expect((await count({ available_documents: '30', expected_available_documents: 20 })).body).toMatchObject({ available_documents: 30 });
  });

  it('validates the count and the VAT account with the spec messages; unknown companies are 404', async () => {
    const { companyId } = await registeredUser(t.stack, 'valid');
    const count = (body: unknown, q = '') => admin.post(`/admin/companies/${companyId}/updateAvailableDocuments${q}`, body);
    for (const bad of ['12a', '-1', '1.5', 'abc']) {
      const res = await count({ available_documents: bad });
      expect(res.status, bad).toBe(422);
      expect(res.body).toMatchObject({ details: [{ path: ['available_documents'], message: 'Not a number' }] });
    }
    expect((await count({ available_documents: '123456' })).body).toMatchObject({
      statusCode: 422,
      details: [{ path: ['available_documents'], message: 'At most 5 characters' }],
    });
    expect((await count({})).status).toBe(422);
    expect((await count({ available_documents: '5' }, '?reset=yes')).status).toBe(422);
    expect((await count({ available_documents: '99999' })).body).toMatchObject({ available_documents: 99999 });

    const vat = (body: unknown) => admin.post(`/admin/companies/${companyId}/updateVATAccount`, body);
    expect((await vat({ vat_account: '12345678901' })).body).toMatchObject({
      statusCode: 422,
      details: [{ path: ['vat_account'], message: 'At most 10 characters' }],
    });
    const saved = await vat({ vat_account: ' 2441 ' });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ vat_account: '2441' });
    expect((await admin.get(`/admin/companies/${companyId}`)).body).toMatchObject({ vat_account: '2441', available_documents: 99999 });

    for (const [name, call] of adminCalls('01UNKNOWNCOMPANY0000000000').slice(2)) {
      const res = await call(admin);
      expect(res.status, name).toBe(404);
    }
    expect((await admin.get(`/admin/companies/${'x'.repeat(65)}`)).status).toBe(422);
  });

  it('refuses every admin call to a company admin, a basic member, a member of another company (403) and anyone anonymous (401)', async () => {
    const owner = await registeredUser(t.stack, 'tenant');
    const basic = await registeredUser(t.stack, 'basicm');
    await addMembership(subOf(basic.token), owner.companyId, 'basic');
    const stranger = await registeredUser(t.stack, 'stranger');
    const anonymous = apiClient(t.stack.apiUrl);

    for (const [name, call] of adminCalls(owner.companyId)) {
      for (const [who, api] of [
        ['company admin', owner.api],
        ['basic member', basic.api],
        ['member of another company', stranger.api],
      ] as const) {
        const res = await call(api);
        expect(res.status, `${who}: ${name}`).toBe(403);
        expect(res.body).toMatchObject({ statusCode: 403, error: 'Forbidden' });
      }
      expect((await call(anonymous)).status, `anonymous: ${name}`).toBe(401);
    }
    // Nothing was changed by the refused calls.
    expect((await admin.get(`/admin/companies/${owner.companyId}`)).body).toMatchObject({ available_documents: 500, vat_account: '' });
  });

  it('PUT /company: a company admin renames the company and changes its code; others cannot', async () => {
    const owner = await registeredUser(t.stack, 'rename');
    const basic = await registeredUser(t.stack, 'renameb');
    await addMembership(subOf(basic.token), owner.companyId, 'basic');
    const stranger = await registeredUser(t.stack, 'renames');
    const put = (api: Api, body: unknown, companyId = owner.companyId) => api.put(`/company?company_id=${companyId}`, body);

    const live = await openLiveChannel(t.stack.wsUrl, basic.token, owner.companyId);
    const saved = await put(owner.api, { name: '  Renamed UAB ', code: '111222333' });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ company_id: owner.companyId, name: 'Renamed UAB', code: '111222333', role: 'admin' });
    const event = await live.waitFor('company');
    expect(event.payload).toEqual({ company_id: owner.companyId, name: 'Renamed UAB', code: '111222333' });
    live.close();
    expect((await basic.api.get('/companies')).body).toMatchObject({
      items: expect.arrayContaining([expect.objectContaining({ company_id: owner.companyId, name: 'Renamed UAB', role: 'basic' })]),
    });

    const invalid = await put(owner.api, { name: 'x'.repeat(81), code: ' ' });
    expect(invalid.status).toBe(422);
    expect((invalid.body as { details: unknown }).details).toEqual(
      expect.arrayContaining([
        { path: ['name'], message: 'At most 80 characters' },
        { path: ['code'], message: 'Required field' },
      ]),
    );
    expect((await put(basic.api, { name: 'Basic tries', code: '1' })).status).toBe(403);
    expect((await put(stranger.api, { name: 'Stranger tries', code: '1' })).status).toBe(403);
    expect((await put(apiClient(t.stack.apiUrl), { name: 'Anonymous', code: '1' })).status).toBe(401);
    expect((await put(owner.api, { name: 'No company', code: '1' }, '')).status).toBe(422);
    expect((await owner.api.get('/companies')).body).toMatchObject({ items: [{ name: 'Renamed UAB', code: '111222333' }] });
  });
});
