import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMembership, apiClient, openLiveChannel, registeredUser, startTestStack, subOf, uploadDocument, type TestStack } from '../support/local-stack';
import { textPdf } from '../support/text-pdf';

type CompanyBody = { items: Record<string, unknown>[] };

describe('accounts and companies through the local API', () => {
  let t: TestStack;
  beforeAll(async () => {
    t = await startTestStack();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('creates the first company with the user as admin on confirmation', async () => {
    // Prepare / Act
    const { api, user } = await registeredUser(t.stack, 'first');
    const res = await api.get('/companies');
    // Assess
    expect(res.status).toBe(200);
    const [company] = (res.body as CompanyBody).items;
    expect(company).toMatchObject({
      name: user.company,
      code: user.company_code,
      role: 'admin',
      used_documents: 0,
      available_documents: 500,
      user: { name: user.name, surname: user.surname, email: user.email },
    });
    expect(String(company!.email)).toMatch(/@in\.receipts\.local$/);
    expect(company!.counts).toMatchObject({ receipt: { review: 0, processing: 0 }, invoice: { archive: 0 } });
  });

  it('answers 401 without a token and with a forged one', async () => {
    expect((await apiClient(t.stack.apiUrl).get('/companies')).status).toBe(401);
    expect((await apiClient(t.stack.apiUrl, 'abc.def.ghi').get('/companies')).status).toBe(401);
  });

  it('adds a company, validates input and refuses malformed JSON', async () => {
    const { api } = await registeredUser(t.stack, 'adder');
    const created = await api.post('/company', { company_name: 'Second UAB', code: '123456789' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Second UAB', code: '123456789', role: 'admin' });
    const list = (await api.get('/companies')).body as CompanyBody;
    expect(list.items.map((c) => c.name)).toContain('Second UAB');

    const tooLong = await api.post('/company', { company_name: 'x'.repeat(81), code: '' });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body).toMatchObject({ statusCode: 422, error: 'ValidationFailed' });
    const details = (tooLong.body as { details: { path: string[]; message: string }[] }).details;
    expect(details).toEqual(
      expect.arrayContaining([
        { path: ['company_name'], message: 'At most 80 characters' },
        { path: ['code'], message: 'Required field' },
      ]),
    );
    const malformed = await api.raw('POST', '/company', '{"company_name":');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ statusCode: 400, message: 'Malformed JSON body' });
  });

  it('deletes a company but never the only one, and tells open screens', async () => {
    const { api, token, companyId } = await registeredUser(t.stack, 'deleter');
    const only = await api.delete(`/company?company_id=${companyId}`);
    expect(only.status).toBe(409);

    const second = (await api.post('/company', { company_name: 'Short lived', code: '42' })).body as { company_id: string };
    const live = await openLiveChannel(t.stack.wsUrl, token, second.company_id);
    const deleted = await api.delete(`/company?company_id=${second.company_id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ deleted: true, company_id: second.company_id });
    const event = await live.waitFor('company-delete');
    expect(event.payload).toEqual({ company_id: second.company_id });
    live.close();
    const left = (await api.get('/companies')).body as CompanyBody;
    expect(left.items.map((c) => c.company_id)).toEqual([companyId]);
  });

  it("deleting both of a user's two companies at once: one goes, the other is refused, so the user keeps a company", async () => {
    const { api, companyId } = await registeredUser(t.stack, 'twodeletes');
    const second = (await api.post('/company', { company_name: 'Second UAB', code: '2' })).body as { company_id: string };
    const results = await Promise.all([companyId, second.company_id].map((c) => api.delete(`/company?company_id=${c}`)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body).toMatchObject({ message: 'You cannot delete your only company' });
    const left = ((await api.get('/companies')).body as CompanyBody).items.map((c) => c.company_id);
    const deleted = (results.find((r) => r.status === 200)!.body as { company_id: string }).company_id;
    expect(left).toEqual([companyId, second.company_id].filter((c) => c !== deleted));
  });

  it('keeps tenants apart: another user learns nothing of my company', async () => {
    const owner = await registeredUser(t.stack, 'owner');
    const extra = (await owner.api.post('/company', { company_name: 'Owner extra', code: '7' })).body as { company_id: string };
    const stranger = await registeredUser(t.stack, 'stranger');

    const del = await stranger.api.delete(`/company?company_id=${extra.company_id}`);
    expect(del.status).toBe(403);
    const missing = await stranger.api.delete(`/company?company_id=01NOSUCHCOMPANY0000000000`);
    expect(missing.status).toBe(403);
    expect((del.body as { message: string }).message).toBe((missing.body as { message: string }).message);

    const theirs = (await stranger.api.get('/companies')).body as CompanyBody;
    expect(theirs.items.map((c) => c.company_id)).not.toContain(extra.company_id);
    const still = (await owner.api.get('/companies')).body as CompanyBody;
    expect(still.items.map((c) => c.company_id)).toContain(extra.company_id);

    await expect(openLiveChannel(t.stack.wsUrl, stranger.token, owner.companyId)).rejects.toThrow(/403/);
  });

  it('reads the profile and saves only the changed fields', async () => {
    const { api, user } = await registeredUser(t.stack, 'profile');
    const before = await api.get('/user');
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ email: user.email, name: user.name, surname: user.surname, is_admin: false, phone: '' });

    const saved = await api.post('/user', { phone: '+37060000000', city: 'Vilnius' });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ phone: '+37060000000', city: 'Vilnius', name: user.name });

    const bad = await api.post('/user', { name: 'A' });
    expect(bad.status).toBe(422);
    expect((bad.body as { details: unknown[] }).details).toEqual([{ path: ['name'], message: 'At least 2 characters' }]);
    const unknownField = await api.post('/user', { is_admin: true });
    expect(unknownField.status).toBe(422);
    expect(((await api.get('/user')).body as { is_admin: boolean }).is_admin).toBe(false);
  });

  it("the profile's figures: every document of the user's companies and their own unassigned ones, counted and summed; nobody else's", async () => {
    const { api, companyId, token } = await registeredUser(t.stack, 'figures');
    await api.post('/company', { company_name: 'Figures second', code: '8' });
    const upload = async (company: string, name: string, receipt_type: 'receipt' | 'invoice', lines: string[]) =>
      expect((await uploadDocument(api, { company_id: company, original_file_name: name, receipt_type }, await textPdf(lines))).request.status).toBe(200);
    await upload(companyId, 'office.pdf', 'receipt', ['OFFICE UAB', 'Invoice No. O-1', 'Total 100.25 EUR']);
    await upload(companyId, 'sale.pdf', 'invoice', ['BUYER UAB', 'Invoice No. S-1', 'Total 169.00 EUR']);
    await upload('NONE', 'loose-receipt.pdf', 'receipt', ['LOOSE UAB', 'Total 260.25 EUR']);
    await upload('NONE', 'loose-invoice.pdf', 'invoice', ['OTHER UAB', 'Total 9.00 EUR']);
    await t.stack.jobs.idle();

    type Listed = { receipt_id: string; receipt_type: string; status: string; total: string | null };
    const listed = async () => [
      ...((await api.get(`/receipts?selected=ALL`)).body as { items: Listed[] }).items,
      ...((await api.get('/receipts?company_id=NONE&receipt_status=unassigned')).body as { items: Listed[] }).items,
    ];
    const docs = await listed();
    expect(docs).toHaveLength(4);
    // Unassigned documents are not read until a company is chosen: no totals yet.
    expect(docs.map((d) => d.total ?? 'none').sort()).toEqual(['100.25', '169.00', 'none', 'none']);
    const sumOf = (list: Listed[]) => Math.round(list.reduce((sum, d) => sum + Number(d.total ?? 0) * 100, 0)) / 100;
    const figures = async () => {
      const body = (await api.get('/user')).body as Record<string, number>;
      return {
        total_amount: body.total_amount,
        total_receipts: body.total_receipts,
        waiting_for_approval: body.waiting_for_approval,
        total_unassigned_receipts: body.total_unassigned_receipts,
        total_unassigned_invoices: body.total_unassigned_invoices,
      };
    };
    const expected = (list: Listed[]) => ({
      total_amount: sumOf(list),
      total_receipts: list.length,
      waiting_for_approval: list.filter((d) => d.status === 'review').length,
      total_unassigned_receipts: list.filter((d) => d.status === 'unassigned' && d.receipt_type === 'receipt').length,
      total_unassigned_invoices: list.filter((d) => d.status === 'unassigned' && d.receipt_type === 'invoice').length,
    });
    expect(await figures()).toEqual(expected(docs));
    expect(await figures()).toMatchObject({ total_amount: 269.25, total_receipts: 4, total_unassigned_receipts: 1, total_unassigned_invoices: 1 });

    // A deleted document leaves the figures; an unassigned one given a company moves from the unassigned figures to the company's.
    const sale = docs.find((d) => d.total === '169.00')!;
    expect((await api.delete(`/receipt/${sale.receipt_id}?company_id=${companyId}`)).status).toBe(200);
    const loose = docs.find((d) => d.status === 'unassigned' && d.receipt_type === 'invoice')!;
    expect((await api.post(`/receipts/${loose.receipt_id}/company?company_id=NONE`, { company_id: companyId })).status).toBe(200);
    // Read in the company once it is chosen: its total joins the figures.
    await t.stack.jobs.idle();
    const after = await listed();
    expect(after).toHaveLength(3);
    expect(after.map((d) => d.total ?? 'none').sort()).toEqual(['100.25', '9.00', 'none']);
    expect(await figures()).toEqual(expected(after));
    expect(await figures()).toMatchObject({ total_amount: 109.25, total_unassigned_invoices: 0, total_unassigned_receipts: 1 });

    // Another user (another company) counts none of them; nor does the caller count theirs.
    const stranger = await registeredUser(t.stack, 'figurestranger');
    expect((await uploadDocument(stranger.api, { company_id: stranger.companyId, original_file_name: 'theirs.pdf' }, await textPdf(['THEIR UAB', 'Total 5.00 EUR']))).request.status).toBe(200);
    await t.stack.jobs.idle();
    expect((await stranger.api.get('/user')).body).toMatchObject({ total_amount: 5, total_receipts: 1, total_unassigned_receipts: 0, total_unassigned_invoices: 0 });
    expect(await figures()).toEqual(expected(after));
    expect(subOf(stranger.token)).not.toBe(subOf(token));
  }, 120_000);

  it("a rename in My Profile reaches the owner's name on every company they own", async () => {
    const { api, companyId } = await registeredUser(t.stack, 'renamed');
    const second = await api.post('/company', { company_name: 'Antra UAB', code: '305550000' });
    expect(second.status).toBe(201);
    expect((await api.post('/user', { name: 'Rūta', surname: 'Naujokė' })).status).toBe(200);
    const companies = ((await api.get('/companies')).body as { items: Array<{ company_id: string; user: { name: string; surname: string } }> }).items;
    expect(companies.map((c) => c.company_id).sort()).toEqual([companyId, (second.body as { company_id: string }).company_id].sort());
    for (const c of companies) expect(c.user).toMatchObject({ name: 'Rūta', surname: 'Naujokė' });
    // another field alone writes nothing to the companies
    expect((await api.post('/user', { city: 'Kaunas' })).status).toBe(200);
    expect(((await api.get('/companies')).body as { items: Array<{ user: { name: string } }> }).items[0]!.user.name).toBe('Rūta');
  });

  it('notes the start of a session as the last login, shown to the company admin on My Team', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'lastlogin');
    const started = Date.now();
    const opened = (await api.get('/user')).body as { last_login: string | null };
    expect(opened.last_login).not.toBeNull();
    expect(Date.parse(opened.last_login!)).toBeGreaterThanOrEqual(started - 1000);
    // Reloads within the quarter of an hour keep the same note.
    expect(((await api.get('/user')).body as { last_login: string }).last_login).toBe(opened.last_login);
    const team = (await api.get(`/company/users?company_id=${companyId}`)).body as { items: { user: { last_login: string | null } }[] };
    expect(team.items[0]!.user.last_login).toBe(opened.last_login);
  });
});

describe('company users', () => {
  let t: TestStack;
  beforeAll(async () => {
    t = await startTestStack();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('lists the members to an administrator, and refuses basic members and strangers', async () => {
    // Prepare: an admin, a basic member of the same company, a stranger
    const admin = await registeredUser(t.stack, 'teamadmin');
    const basic = await registeredUser(t.stack, 'teambasic');
    await addMembership(subOf(basic.token), admin.companyId, 'basic');
    const stranger = await registeredUser(t.stack, 'teamstranger');

    // Act
    const listed = await admin.api.get(`/company/users?company_id=${admin.companyId}`);
    const byBasic = await basic.api.get(`/company/users?company_id=${admin.companyId}`);
    const byStranger = await stranger.api.get(`/company/users?company_id=${admin.companyId}`);

    // Assess
    expect(listed.status).toBe(200);
    const items = (listed.body as { items: Record<string, unknown>[] }).items;
    expect(items).toHaveLength(2);
    expect(items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ user_id: subOf(admin.token), role: 'admin', can_be_deleted: false, name: admin.user.name }),
        expect.objectContaining({ user_id: subOf(basic.token), role: 'basic', can_be_deleted: true, surname: basic.user.surname }),
      ]),
    );
    expect(items[0]!.user).toMatchObject({ email: expect.stringContaining('@example.com') });
    expect(byBasic.status).toBe(403);
    expect(byStranger.status).toBe(403);
  });
});
