/**
 * Master data through the local API: suppliers and customers, categories, items — every route, duplicates,
 * changed-field updates, search, paging, the all-companies view, imported (external) records and tenant
 * isolation. Real handlers against the local stand-ins.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../lambdas/adapters/ddb/client';
import { keys } from '../../lambdas/adapters/ddb/keys';
import { ddbMasterDataStore } from '../../lambdas/adapters/ddb/master-data-store';
import { newCategoryRecord } from '../../lambdas/core/master-data/categories';
import { newStakeholderRecord } from '../../lambdas/core/master-data/stakeholders';
import { apiClient, openLiveChannel, registeredUser, startTestStack, type TestStack } from '../support/local-stack';

type Api = ReturnType<typeof apiClient>;
type Row = Record<string, unknown> & { id?: string; name: string; company_name: string };
type PageBody = { items: Row[]; next: string | null; next_company: string | null };
type ErrorBody = { statusCode: number; error: string; message: string; details?: { path: string[]; message: string }[] };

let seq = 0;
const testIds = { newId: () => `EXT${Date.now().toString(36)}${String(++seq).padStart(6, '0')}` };
const clock = { now: () => new Date() };

async function setFlag(companyId: string, flag: 'display_imported_stakeholders' | 'display_imported_categories', on: boolean) {
  await ddb().send(
    new UpdateCommand({
      TableName: process.env.TABLE_NAME,
      Key: keys.company(companyId),
      UpdateExpression: 'SET integrations.#f = :on',
      ExpressionAttributeNames: { '#f': flag },
      ExpressionAttributeValues: { ':on': on },
    }),
  );
}

async function walk(api: Api, firstPath: string): Promise<{ pages: PageBody[]; rows: Row[] }> {
  const pages: PageBody[] = [];
  let path: string | undefined = firstPath;
  while (path) {
    const res = await api.get(path);
    expect(res.status).toBe(200);
    const body = res.body as PageBody;
    pages.push(body);
    path = body.next ? `${firstPath}&next=${encodeURIComponent(body.next)}` : undefined;
    expect(pages.length).toBeLessThan(20);
  }
  return { pages, rows: pages.flatMap((p) => p.items) };
}

describe('master data through the local API', () => {
  let t: TestStack;
  beforeAll(async () => {
    t = await startTestStack();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('creates, reads, updates only changed fields and deletes a supplier', async () => {
    const { api, companyId, user } = await registeredUser(t.stack, 'mdcrud');
    const q = `?company_id=${companyId}`;
    const created = await api.post(`/stakeholder${q}`, { type: 'supplier', name: ' Baltic Trade UAB ', code: 'BT-1', vat_id: 'LT100001', city: 'Vilnius', country: 'lt' });
    expect(created.status).toBe(201);
    const s = created.body as Row & { id: string; updated_at: string };
    expect(s).toMatchObject({
      type: 'supplier',
      name: 'Baltic Trade UAB',
      code: 'BT-1',
      vat_id: 'LT100001',
      city: 'Vilnius',
      country: 'LT',
      street: '',
      category: null,
      category_id: null,
      company_id: companyId,
      company_name: user.company,
      selected_date_format: null,
      list_date_formats: ['YYYY-MM-DD', 'YYYY/MM/DD', 'MM/DD/YYYY', 'DD/MM/YYYY'],
      external: false,
    });

    const got = await api.get(`/stakeholders/${s.id}${q}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(s);

    // Only the changed field is stored; the rest stays as it was.
    const updated = await api.put(`/stakeholder${q}`, { id: s.id, street: 'Gedimino 1', selected_date_format: 'DD/MM/YYYY' });
    expect(updated.status).toBe(200);
    const u = updated.body as Row & { updated_at: string };
    expect(u).toMatchObject({ street: 'Gedimino 1', selected_date_format: 'DD/MM/YYYY', city: 'Vilnius', vat_id: 'LT100001', code: 'BT-1', name: 'Baltic Trade UAB' });
    expect(u.updated_at >= s.updated_at).toBe(true);

    // A PUT that changes nothing writes nothing and answers the current view.
    const same = await api.put(`/stakeholder${q}`, { id: s.id, street: 'Gedimino 1', city: 'Vilnius' });
    expect(same.status).toBe(200);
    expect(same.body).toEqual(u);

    // Two edit pop-ups read the supplier in Vilnius; the first saves Kaunas. The second's City, made on Vilnius, is
    // refused with what it is now and nothing is written; its other field, untouched by the first, goes through once
    // it is sent alone, and a second save made on Kaunas keeps its City knowingly.
    expect((await api.put(`/stakeholder${q}`, { id: s.id, city: 'Kaunas', before: { city: 'Vilnius' } })).status).toBe(200);
    const refused = await api.put(`/stakeholder${q}`, { id: s.id, city: 'Klaipėda', zipcode: '91001', before: { city: 'Vilnius', zipcode: '' } });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message: 'This supplier was changed by someone else meanwhile',
      details: [{ path: ['city'], message: 'Changed by someone else meanwhile to "Kaunas": Save again to keep yours' }],
    });
    expect((await api.get(`/stakeholders/${s.id}${q}`)).body).toMatchObject({ city: 'Kaunas', zipcode: '' });
    expect((await api.put(`/stakeholder${q}`, { id: s.id, zipcode: '91001', before: { zipcode: '' } })).status).toBe(200);
    expect((await api.put(`/stakeholder${q}`, { id: s.id, city: 'Klaipėda', before: { city: 'Kaunas' } })).status).toBe(200);
    // Both set to the same value: no conflict; without `before` (an import, an API client): made as asked
    expect((await api.put(`/stakeholder${q}`, { id: s.id, city: 'Klaipėda', before: { city: 'Vilnius' } })).status).toBe(200);
    expect((await api.put(`/stakeholder${q}`, { id: s.id, city: 'Vilnius' })).status).toBe(200);
    expect((await api.get(`/stakeholders/${s.id}${q}`)).body).toMatchObject({ city: 'Vilnius', zipcode: '91001', street: 'Gedimino 1' });

    const del = await api.delete(`/stakeholder${q}&id=${s.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ deleted: true, id: s.id });
    expect((await api.get(`/stakeholders/${s.id}${q}`)).status).toBe(404);
    expect((await api.delete(`/stakeholder${q}&id=${s.id}`)).status).toBe(404);
    expect((await api.put(`/stakeholder${q}`, { id: s.id, city: 'Kaunas' })).status).toBe(404);
    // The name and code are free again.
    expect((await api.post(`/stakeholder${q}`, { type: 'supplier', name: 'baltic trade uab', code: 'bt1' })).status).toBe(201);
  });

  it('validates stakeholder input with the spec texts', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'mdvalid');
    const q = `?company_id=${companyId}`;
    const bad = await api.post(`/stakeholder${q}`, { type: 'supplier', name: 'A', code: '', country: 'XX' });
    expect(bad.status).toBe(422);
    expect((bad.body as ErrorBody).details).toEqual(
      expect.arrayContaining([
        { path: ['name'], message: 'At least 2 characters' },
        { path: ['code'], message: 'Required field' },
        { path: ['country'], message: 'Choose a country from the list' },
      ]),
    );
    const noName = await api.post(`/stakeholder${q}`, { type: 'customer', code: '1' });
    expect(noName.status).toBe(422);
    expect((noName.body as ErrorBody).details).toEqual([{ path: ['name'], message: 'Required field' }]);
    const badType = await api.post(`/stakeholder${q}`, { type: 'partner', name: 'Xx', code: '1' });
    expect(badType.status).toBe(422);
    const tooLong = await api.post(`/stakeholder${q}`, { type: 'supplier', name: 'x'.repeat(256), code: '1' });
    expect(tooLong.status).toBe(422);
    const malformed = await api.raw('POST', `/stakeholder${q}`, '{"name":');
    expect(malformed.status).toBe(400);
    expect((await api.post('/stakeholder', { type: 'supplier', name: 'No company', code: '1' })).status).toBe(422);
  });

  it('answers duplicates of name or code with the spec texts, per type', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'mddup');
    const q = `?company_id=${companyId}`;
    expect((await api.post(`/stakeholder${q}`, { type: 'supplier', name: 'Ąžuolas UAB', code: 'K-100' })).status).toBe(201);
    const byName = await api.post(`/stakeholder${q}`, { type: 'supplier', name: '  azuolas   uab', code: 'K-200' });
    expect(byName.status).toBe(422);
    expect(byName.body).toMatchObject({ error: 'ValidationFailed', message: 'This supplier already exists' });
    expect((byName.body as ErrorBody).details).toEqual([{ path: ['name'], message: 'This supplier already exists' }]);
    const byCode = await api.post(`/stakeholder${q}`, { type: 'supplier', name: 'Other UAB', code: 'k 100' });
    expect(byCode.status).toBe(422);
    expect((byCode.body as ErrorBody).details).toEqual([
      { path: ['name'], message: 'This supplier already exists' },
      { path: ['code'], message: 'This supplier already exists' },
    ]);
    // The same name as a customer is another register.
    expect((await api.post(`/stakeholder${q}`, { type: 'customer', name: 'Ąžuolas UAB', code: 'K-100' })).status).toBe(201);
    const customerDup = await api.post(`/stakeholder${q}`, { type: 'customer', name: 'AZUOLAS UAB', code: 'K-9' });
    expect((customerDup.body as ErrorBody).details).toEqual([{ path: ['name'], message: 'This customer already exists' }]);

    // A rename onto another supplier's name is refused and changes nothing.
    const other = (await api.post(`/stakeholder${q}`, { type: 'supplier', name: 'Pušis UAB', code: 'K-300' })).body as Row & { id: string };
    const rename = await api.put(`/stakeholder${q}`, { id: other.id, name: 'Azuolas uab' });
    expect(rename.status).toBe(422);
    expect((rename.body as ErrorBody).details).toEqual([{ path: ['name'], message: 'This supplier already exists' }]);
    expect(((await api.get(`/stakeholders/${other.id}${q}`)).body as Row).name).toBe('Pušis UAB');
  });

  it('lets exactly one of two concurrent creates of the same code through', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'mdrace');
    const q = `?company_id=${companyId}`;
    const [a, b] = await Promise.all([
      api.post(`/stakeholder${q}`, { type: 'supplier', name: 'First Racer', code: 'RACE-1' }),
      api.post(`/stakeholder${q}`, { type: 'supplier', name: 'Second Racer', code: 'RACE-1' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 422]);
    const loser = a.status === 422 ? a : b;
    expect((loser.body as ErrorBody).details).toEqual([
      { path: ['name'], message: 'This supplier already exists' },
      { path: ['code'], message: 'This supplier already exists' },
    ]);
    const list = (await api.get(`/stakeholders${q}&type=supplier`)).body as PageBody;
    expect(list.items).toHaveLength(1);
  });

  it('links a category of the same company only, and shows it as {id, name}', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'mdcat');
    const other = await registeredUser(t.stack, 'mdcatother');
    const q = `?company_id=${companyId}`;
    const cat = (await api.post(`/category${q}`, { name: 'Fuel', category_code: 'F1' })).body as Row & { id: string };
    const foreign = (await other.api.post(`/category?company_id=${other.companyId}`, { name: 'Theirs' })).body as Row & { id: string };

    const refused = await api.post(`/stakeholder${q}`, { type: 'supplier', name: 'Linked UAB', code: 'L1', category_id: foreign.id });
    expect(refused.status).toBe(422);
    expect((refused.body as ErrorBody).details).toEqual([{ path: ['category_id'], message: 'Choose a category of this company' }]);

    const created = await api.post(`/stakeholder${q}`, { type: 'supplier', name: 'Linked UAB', code: 'L1', category_id: cat.id });
    expect(created.status).toBe(201);
    const s = created.body as Row & { id: string };
    expect(s).toMatchObject({ category: { id: cat.id, name: 'Fuel' }, category_id: cat.id });
    const listed = (await api.get(`/stakeholders${q}&type=supplier`)).body as PageBody;
    expect(listed.items[0]).toMatchObject({ category: { id: cat.id, name: 'Fuel' } });

    const cleared = await api.put(`/stakeholder${q}`, { id: s.id, category_id: null });
    expect(cleared.body).toMatchObject({ category: null, category_id: null });
    const moved = await api.put(`/stakeholder${q}`, { id: s.id, category_id: foreign.id });
    expect(moved.status).toBe(422);
  });

  it('keeps categories: create, duplicates, unchanged edit, rename, delete, sorted by name case-insensitively', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'mdcats');
    const q = `?company_id=${companyId}`;
    for (const [name, code] of [['banking', 'B'], ['Travel', ''], ['accommodation', 'A'], ['Čekiai', '']]) {
      expect((await api.post(`/category${q}`, { name, category_code: code })).status).toBe(201);
    }
    const dupName = await api.post(`/category${q}`, { name: 'TRAVEL' });
    expect(dupName.status).toBe(422);
    expect((dupName.body as ErrorBody).details).toEqual([{ path: ['name'], message: 'This category already exists' }]);
    const dupCode = await api.post(`/category${q}`, { name: 'Bank fees', category_code: 'b' });
    // Under the name (rules.md 8), and under the code that collides.
    expect((dupCode.body as ErrorBody).details).toEqual([
      { path: ['name'], message: 'This category already exists' },
      { path: ['category_code'], message: 'This category already exists' },
    ]);
    // Empty codes never collide.
    expect((await api.post(`/category${q}`, { name: 'Office', category_code: '' })).status).toBe(201);
    expect((await api.post(`/category${q}`, { name: 'X' })).status).toBe(422);

    const list = (await api.get(`/categories${q}`)).body as PageBody;
    expect(list.items.map((c) => c.name)).toEqual(['accommodation', 'banking', 'Čekiai', 'Office', 'Travel']);
    expect(list.next).toBeNull();
    const travel = list.items.find((c) => c.name === 'Travel')! as Row & { id: string; updated_at: string };

    const unchanged = await api.put(`/category${q}`, { id: travel.id, name: 'Travel', category_code: '' });
    expect(unchanged.status).toBe(200);
    expect(unchanged.body).toEqual(travel);
    const renamed = await api.put(`/category${q}`, { id: travel.id, name: 'Trips', category_code: 'T' });
    expect(renamed.body).toMatchObject({ id: travel.id, name: 'Trips', category_code: 'T' });
    expect((await api.post(`/category${q}`, { name: 'Travel' })).status).toBe(201);
    const clash = await api.put(`/category${q}`, { id: travel.id, name: 'Banking' });
    expect((clash.body as ErrorBody).details).toEqual([{ path: ['name'], message: 'This category already exists' }]);
    // GET categories/{id}: the category as stored
    const one = await api.get(`/categories/${travel.id}${q}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: travel.id, name: 'Trips', category_code: 'T', company_id: companyId });
    // An edit made on a name someone else changed since (before) is refused, and nothing is written
    const stale = await api.put(`/category${q}`, { id: travel.id, name: 'Journeys', category_code: 'J', before: { name: 'Travel', category_code: 'T' } });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message: 'This category was changed by someone else meanwhile',
      details: [{ path: ['name'], message: 'Changed by someone else meanwhile to "Trips": Save again to keep yours' }],
    });
    expect((await api.get(`/categories/${travel.id}${q}`)).body).toMatchObject({ name: 'Trips', category_code: 'T' });
    expect((await api.put(`/category${q}`, { id: travel.id, name: 'Journeys', category_code: 'J', before: { name: 'Trips', category_code: 'T' } })).body).toMatchObject({
      name: 'Journeys',
      category_code: 'J',
    });

    expect((await api.delete(`/category${q}&id=${travel.id}`)).body).toEqual({ deleted: true, id: travel.id });
    expect((await api.get(`/categories/${travel.id}${q}`)).status).toBe(404);
    expect((await api.delete(`/category${q}&id=${travel.id}`)).status).toBe(404);
    expect((await api.put(`/category${q}`, { id: travel.id, name: 'Again' })).status).toBe(404);
  });

  it('keeps items: blank words dropped, duplicates, add a word, rename, delete by name', async () => {
    const { api, companyId, user } = await registeredUser(t.stack, 'mditems');
    const q = `?company_id=${companyId}`;
    const created = await api.post(`/item${q}`, { name: 'Coffee Beans', words: ['coffee', '  ', 'kava ', ''] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name_id: 'coffee beans', name: 'Coffee Beans', words: ['coffee', 'kava'], company_name: user.company });
    const dup = await api.post(`/item${q}`, { name: 'COFFEE  beans' });
    expect(dup.status).toBe(422);
    expect((dup.body as ErrorBody).details).toEqual([{ path: ['name'], message: 'This item already exists' }]);

    const word = await api.post(`/item/word${q}`, { key: 'coffee beans', value: 'Arabica' });
    expect(word.status).toBe(201);
    expect(word.body).toMatchObject({ words: ['coffee', 'kava', 'Arabica'] });
    expect((await api.post(`/item/word${q}`, { key: 'no such item', value: 'x' })).status).toBe(404);
    expect((await api.post(`/item/word${q}`, { key: 'coffee beans', value: ' ' })).status).toBe(422);

    const renamed = await api.put(`/item${q}`, { name_id: 'coffee beans', name: 'Coffee Grains', words: ['coffee', ''] });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name_id: 'coffee grains', name: 'Coffee Grains', words: ['coffee'] });
    expect((await api.post(`/item${q}`, { name: 'Tea' })).status).toBe(201);
    const clash = await api.put(`/item${q}`, { name_id: 'tea', name: 'coffee grains' });
    expect(clash.status).toBe(422);

    const list = (await api.get(`/items${q}`)).body as PageBody;
    expect(list.items.map((i) => i.name)).toEqual(['Coffee Grains', 'Tea']);
    // a search finds an item by its words too (the line items' words it matches), before the names, each once
    expect((await api.post(`/item${q}`, { name: 'Diesel', words: ['dyzelinas', 'DK fuel'] })).status).toBe(201);
    expect((await api.post(`/item${q}`, { name: 'Dyzelinas premium' })).status).toBe(201);
    const search = async (text: string) => ((await api.get(`/items${q}&search_name=${encodeURIComponent(text)}`)).body as PageBody).items.map((i) => i.name);
    expect(await search('dyzelinas')).toEqual(['Diesel', 'Dyzelinas premium']);
    expect(await search('Fuel DK')).toEqual(['Diesel']);
    expect(await search('diesel')).toEqual(['Diesel']);
    expect(await search('coffee')).toEqual(['Coffee Grains']);
    expect(await search('dyzelinas benzinas')).toEqual([]);
    for (const name of ['diesel', 'dyzelinas premium']) expect((await api.delete(`/item${q}&name=${encodeURIComponent(name)}`)).status).toBe(200);
    // an item added here is the company's own, not imported (no DB mark)
    expect(list.items.map((i) => i.external)).toEqual([false, false]);
    const del = await api.delete(`/item${q}&name=${encodeURIComponent('Coffee Grains')}`);
    expect(del.body).toEqual({ deleted: true, id: 'coffee grains' });
    expect((await api.delete(`/item${q}&name=tea`)).status).toBe(200);
    expect((await api.delete(`/item${q}&name=tea`)).status).toBe(404);
    expect(((await api.get(`/items${q}`)).body as PageBody).items).toEqual([]);
  });

  it('answers isNewStakeholder by code first, then name, then the name without legal form', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'mdisnew');
    const q = `?company_id=${companyId}`;
    const s = (await api.post(`/stakeholder${q}`, { type: 'supplier', name: 'Maxima LT, UAB', code: '123456789' })).body as Row & { id: string };
    const ask = (type: string, name: string, code: string) =>
      api.get(`/isNewStakeholder${q}&type=${type}&name=${encodeURIComponent(name)}&code=${encodeURIComponent(code)}`);

    const byCode = await ask('supplier', 'Whatever', '123 456 789');
    expect(byCode.status).toBe(200);
    expect(byCode.body).toMatchObject({ isNewStakeholder: false, stakeholder: { id: s.id, name: 'Maxima LT, UAB' } });
    expect((await ask('supplier', 'maxima lt, uab', '')).body).toMatchObject({ isNewStakeholder: false, stakeholder: { id: s.id } });
    expect((await ask('supplier', 'MAXIMA LT', '')).body).toMatchObject({ isNewStakeholder: false, stakeholder: { id: s.id } });
    expect((await ask('supplier', 'Rimi Lietuva', '999')).body).toEqual({ isNewStakeholder: true, stakeholder: null });
    expect((await ask('customer', 'Maxima LT, UAB', '123456789')).body).toEqual({ isNewStakeholder: true, stakeholder: null });
    expect((await ask('supplier', '', '')).body).toEqual({ isNewStakeholder: false, stakeholder: null });
    expect((await ask('nobody', 'x', '')).status).toBe(422);
  });

  it('finds a stakeholder by the start of any word of its name, and pages search results', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'mdsearch');
    const q = `?company_id=${companyId}`;
    const names = ['Baltic Trade Group', 'Tradewinds Ltd', 'Green Trees', 'Alpha Alps', 'Nord Trading Alpha'];
    for (const [i, name] of names.entries()) expect((await api.post(`/stakeholder${q}`, { type: 'supplier', name, code: `S${i}` })).status).toBe(201);
    const search = async (text: string) =>
      ((await api.get(`/stakeholders${q}&type=supplier&search_name=${encodeURIComponent(text)}`)).body as PageBody).items.map((r) => r.name);

    expect(await search('tra')).toEqual(['Baltic Trade Group', 'Tradewinds Ltd', 'Nord Trading Alpha']);
    expect(await search('GROUP')).toEqual(['Baltic Trade Group']);
    expect(await search('bal tr')).toEqual(['Baltic Trade Group']);
    expect(await search('alp')).toEqual(['Alpha Alps', 'Nord Trading Alpha']);
    expect(await search('xyz')).toEqual([]);
    expect(await search('')).toHaveLength(5);
    // Customers are another list.
    expect(((await api.get(`/stakeholders${q}&type=customer&search_name=tra`)).body as PageBody).items).toEqual([]);

    // Paged: one result a page, each record once.
    const { rows, pages } = await walk(api, `/stakeholders${q}&type=supplier&search_name=alp&limit=1`);
    expect(rows.map((r) => r.name)).toEqual(['Alpha Alps', 'Nord Trading Alpha']);
    expect(pages.length).toBeGreaterThanOrEqual(2);
    // A search cursor pointing outside its word's range is refused, not sent to the database.
    const outside = Buffer.from(JSON.stringify({ a: 'alp\u00ff#x', w: 'alp' })).toString('base64url');
    expect((await api.get(`/stakeholders${q}&type=supplier&search_name=alp&next=${outside}`)).status).toBe(400);
  });

  it('pages a list of more than 50 by next, sorted by name case-insensitively, and refuses a tampered cursor', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'mdpaging');
    const q = `?company_id=${companyId}`;
    const names = Array.from({ length: 55 }, (_, i) => `${i % 2 ? 'item' : 'Item'} ${String(i).padStart(2, '0')}`);
    for (let i = 0; i < names.length; i += 11) {
      const batch = names.slice(i, i + 11);
      const results = await Promise.all(batch.map((name) => api.post(`/item${q}`, { name })));
      expect(results.map((r) => r.status)).toEqual(batch.map(() => 201));
    }
    const { pages, rows } = await walk(api, `/items${q}`);
    expect(pages.map((p) => p.items.length)).toEqual([50, 5]);
    expect(pages[0]!.next_company).toBeNull();
    expect(rows.map((r) => r.name)).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));

    const next = pages[0]!.next!;
    for (const bad of ['not-a-cursor', `${next}x`, Buffer.from('{"a":1,"w":""}').toString('base64url'), Buffer.from('[]').toString('base64url'), '%%%']) {
      const res = await api.get(`/items${q}&next=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, message: 'Invalid next cursor' });
    }
    // A cursor of a plain list is not a cursor of a search.
    expect((await api.get(`/items${q}&search_name=item&next=${encodeURIComponent(next)}`)).status).toBe(400);
    expect((await api.get(`/items${q}&limit=0`)).status).toBe(422);
    expect((await api.get(`/items${q}&next=${'a'.repeat(3000)}`)).status).toBe(400);
  });

  it('lists all the caller’s companies with next and next_company, each row with its company name', async () => {
    const { api, companyId, user } = await registeredUser(t.stack, 'mdall');
    const second = (await api.post('/company', { company_name: 'Second Books', code: '2' })).body as { company_id: string };
    for (const name of ['Rent', 'Fuel', 'Meals']) await api.post(`/category?company_id=${companyId}`, { name });
    for (const name of ['Software', 'Hardware']) await api.post(`/category?company_id=${second.company_id}`, { name });

    const { pages, rows } = await walk(api, `/categories?selected=ALL&limit=2`);
    expect(rows).toHaveLength(5);
    const order = [companyId, second.company_id].sort();
    const expected = order.flatMap((id) => (id === companyId ? ['Fuel', 'Meals', 'Rent'] : ['Hardware', 'Software']));
    expect(rows.map((r) => r.name)).toEqual(expected);
    for (const r of rows) expect(r.company_name).toBe(r.company_id === companyId ? user.company : 'Second Books');
    expect(pages.slice(0, -1).every((p) => p.next_company !== null)).toBe(true);
    expect(pages.at(-1)!.next).toBeNull();

    // next_company alone starts at that company.
    const fromSecond = (await api.get(`/categories?selected=ALL&next_company=${order[1]}`)).body as PageBody;
    expect(fromSecond.items.every((r) => r.company_id === order[1])).toBe(true);
    expect((await api.get(`/categories?selected=ALL&next_company=01NOTMINE`)).status).toBe(400);
    // Suppliers and items span companies the same way.
    await api.post(`/stakeholder?company_id=${second.company_id}`, { type: 'supplier', name: 'Far Supplier', code: 'F' });
    await api.post(`/item?company_id=${companyId}`, { name: 'Near item' });
    const suppliers = (await api.get('/stakeholders?selected=ALL&type=supplier')).body as PageBody;
    expect(suppliers.items.map((r) => [r.name, r.company_name])).toEqual([['Far Supplier', 'Second Books']]);
    const items = (await api.get('/items?selected=ALL')).body as PageBody;
    expect(items.items.map((r) => [r.name, r.company_name])).toEqual([['Near item', user.company]]);
    // Without company and without ALL there is nothing to list.
    expect((await api.get('/categories')).status).toBe(400);
  });

  it('shows imported records by with_external_data, and only them when the company says so', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'mdext');
    const q = `?company_id=${companyId}`;
    await api.post(`/stakeholder${q}`, { type: 'supplier', name: 'Own Supplier', code: 'O1' });
    await api.post(`/category${q}`, { name: 'Own Category' });
    const deps = { ids: testIds, clock };
    await ddbMasterDataStore.putStakeholder(newStakeholderRecord(deps, companyId, 'supplier', { name: 'Imported Supplier', code: 'I1' }, { external: true, external_ref: 'R-1' }));
    await ddbMasterDataStore.putCategory(newCategoryRecord(deps, companyId, { name: 'Imported Category', category_code: 'IC' }, { external: true }));

    const names = async (path: string) => ((await api.get(path)).body as PageBody).items.map((r) => r.name);
    expect(await names(`/stakeholders${q}&type=supplier&with_external_data=1`)).toEqual(['Imported Supplier', 'Own Supplier']);
    expect(await names(`/stakeholders${q}&type=supplier&with_external_data=0`)).toEqual(['Own Supplier']);
    expect(await names(`/stakeholders${q}&type=supplier`)).toEqual(['Own Supplier']);
    expect(await names(`/categories${q}&with_external_data=true`)).toEqual(['Imported Category', 'Own Category']);
    expect(await names(`/stakeholders${q}&type=supplier&with_external_data=1&search_name=sup`)).toEqual(['Imported Supplier', 'Own Supplier']);
    const imported = ((await api.get(`/stakeholders${q}&type=supplier&with_external_data=1`)).body as PageBody).items[0]!;
    expect(imported.external).toBe(true);

    await setFlag(companyId, 'display_imported_stakeholders', true);
    expect(await names(`/stakeholders${q}&type=supplier&with_external_data=1`)).toEqual(['Imported Supplier']);
    expect(await names(`/stakeholders${q}&type=supplier&with_external_data=1&search_name=sup`)).toEqual(['Imported Supplier']);
    expect(await names(`/categories${q}&with_external_data=1`)).toEqual(['Imported Category', 'Own Category']);
    await setFlag(companyId, 'display_imported_categories', true);
    expect(await names(`/categories${q}&with_external_data=1`)).toEqual(['Imported Category']);
  });

  it('tells open screens of the company about master-data changes', async () => {
    const { api, token, companyId } = await registeredUser(t.stack, 'mdlive');
    const live = await openLiveChannel(t.stack.wsUrl, token, companyId);
    const created = (await api.post(`/stakeholder?company_id=${companyId}`, { type: 'customer', name: 'Live Customer', code: 'LC' })).body as Row & { id: string };
    const event = await live.waitFor('master-data');
    expect(event.payload).toEqual({ kind: 'stakeholder', type: 'customer', id: created.id });
    live.close();
  });

  it('keeps tenants apart on every master-data call, and refuses anonymous callers', async () => {
    const owner = await registeredUser(t.stack, 'mdowner');
    const stranger = await registeredUser(t.stack, 'mdstranger');
    const oq = `?company_id=${owner.companyId}`;
    const sq = `?company_id=${stranger.companyId}`;
    const s = (await owner.api.post(`/stakeholder${oq}`, { type: 'supplier', name: 'Secret Supplier', code: 'SEC' })).body as Row & { id: string };
    const c = (await owner.api.post(`/category${oq}`, { name: 'Secret Category' })).body as Row & { id: string };
    await owner.api.post(`/item${oq}`, { name: 'Secret Item', words: ['secret'] });

    // With the owner's company: not a member → 403 on every call.
    const withOwnerCompany: [string, string, unknown?][] = [
      ['GET', `/categories${oq}`],
      ['POST', `/category${oq}`, { name: 'Intruder' }],
      ['PUT', `/category${oq}`, { id: c.id, name: 'Intruder' }],
      ['DELETE', `/category${oq}&id=${c.id}`],
      ['GET', `/categories/${c.id}${oq}`],
      ['GET', `/stakeholders${oq}`],
      ['GET', `/stakeholders/${s.id}${oq}`],
      ['POST', `/stakeholder${oq}`, { type: 'supplier', name: 'Intruder', code: 'I' }],
      ['PUT', `/stakeholder${oq}`, { id: s.id, name: 'Intruder' }],
      ['DELETE', `/stakeholder${oq}&id=${s.id}`],
      ['GET', `/isNewStakeholder${oq}&type=supplier&name=Secret%20Supplier&code=`],
      ['GET', `/items${oq}`],
      ['POST', `/item${oq}`, { name: 'Intruder' }],
      ['POST', `/item/word${oq}`, { key: 'secret item', value: 'x' }],
      ['PUT', `/item${oq}`, { name_id: 'secret item', name: 'Intruder' }],
      ['DELETE', `/item${oq}&name=secret%20item`],
    ];
    const call = (api: Api, method: string, path: string, body?: unknown) =>
      method === 'GET' ? api.get(path) : method === 'POST' ? api.post(path, body) : method === 'PUT' ? api.put(path, body) : api.delete(path);
    for (const [method, path, body] of withOwnerCompany) {
      const res = await call(stranger.api, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    // With their own company and the owner's ids: not found, and nothing of the owner shows.
    const withOwnIds: [string, string, unknown?][] = [
      ['PUT', `/category${sq}`, { id: c.id, name: 'Intruder' }],
      ['DELETE', `/category${sq}&id=${c.id}`],
      ['GET', `/categories/${c.id}${sq}`],
      ['GET', `/stakeholders/${s.id}${sq}`],
      ['PUT', `/stakeholder${sq}`, { id: s.id, name: 'Intruder' }],
      ['DELETE', `/stakeholder${sq}&id=${s.id}`],
      ['POST', `/item/word${sq}`, { key: 'secret item', value: 'x' }],
      ['PUT', `/item${sq}`, { name_id: 'secret item', name: 'Intruder' }],
      ['DELETE', `/item${sq}&name=secret%20item`],
    ];
    for (const [method, path, body] of withOwnIds) {
      const res = await call(stranger.api, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect(((await stranger.api.get(`/stakeholders${sq}`)).body as PageBody).items).toEqual([]);
    expect(((await stranger.api.get(`/categories${sq}`)).body as PageBody).items).toEqual([]);
    expect(((await stranger.api.get(`/items${sq}`)).body as PageBody).items).toEqual([]);
    expect(((await stranger.api.get(`/stakeholders?selected=ALL`)).body as PageBody).items).toEqual([]);
    expect((await stranger.api.get(`/isNewStakeholder${sq}&type=supplier&name=Secret%20Supplier&code=SEC`)).body).toEqual({ isNewStakeholder: true, stakeholder: null });
    // A forged all-companies cursor naming the owner's company is refused.
    const forged = Buffer.from(JSON.stringify({ c: owner.companyId, n: null })).toString('base64url');
    expect((await stranger.api.get(`/categories?selected=ALL&next=${forged}`)).status).toBe(400);
    // The owner's records are untouched.
    expect((await owner.api.get(`/stakeholders/${s.id}${oq}`)).body).toMatchObject({ name: 'Secret Supplier' });
    expect(((await owner.api.get(`/items${oq}`)).body as PageBody).items.map((i) => i.name)).toEqual(['Secret Item']);

    // Anonymous: 401 everywhere.
    const anonymous = apiClient(t.stack.apiUrl);
    for (const [method, path, body] of withOwnerCompany) {
      const res = await call(anonymous, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });
});
