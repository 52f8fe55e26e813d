import { describe, expect, it } from 'vitest';
import type { CompanyRecord } from '../../../lambdas/core/accounts/types';
import { createCategory, listCategories, updateCategory } from '../../../lambdas/core/master-data/categories';
import { addItemWord, cleanWords, createItem, updateItem } from '../../../lambdas/core/master-data/items';
import type { MasterDataDeps } from '../../../lambdas/core/master-data/lists';
import { DuplicateKeyError } from '../../../lambdas/core/master-data/ports';
import {
  createStakeholder,
  ensureStakeholder,
  isNewStakeholder,
  listStakeholders,
  setStakeholderCategory,
  stakeholderChanges,
  updateStakeholder,
} from '../../../lambdas/core/master-data/stakeholders';
import type { AccountsStore, LiveEventName } from '../../../lambdas/core/ports';
import type { StakeholdersQuery } from '../../../shared/schemas/master-data';
import { FakeMasterDataStore } from '../../support/fake-master-data-store';

function company(id: string, name: string, flags: Partial<CompanyRecord['integrations']> = {}): CompanyRecord {
  return { company_id: id, name, integrations: { display_imported_stakeholders: false, display_imported_categories: false, ...flags } } as CompanyRecord;
}

function setup(companies: CompanyRecord[] = [company('c1', 'First UAB'), company('c2', 'Second UAB')]) {
  const md = new FakeMasterDataStore();
  const events: { companyId: string; event: LiveEventName; payload: unknown }[] = [];
  let n = 0;
  let t = Date.UTC(2026, 0, 1);
  const store = {
    getCompanies: async (ids: string[]) => companies.filter((c) => ids.includes(c.company_id)),
    listMembershipsOfUser: async () => companies.map((c) => ({ user_id: 'u1', company_id: c.company_id, role: 'basic' as const, joined_at: '' })),
  } as unknown as AccountsStore;
  const deps: MasterDataDeps = {
    masterData: md,
    store,
    clock: { now: () => new Date((t += 1000)) },
    ids: { newId: () => `ID${String(++n).padStart(3, '0')}` },
    live: {
      publish: async (companyId, event, payload) => void events.push({ companyId, event, payload }),
      publishToUser: async () => undefined,
    },
  };
  return { md, deps, events, caller: { userId: 'u1', companyId: 'c1' } };
}

const supplierInput = (name: string, code: string) => ({ type: 'supplier' as const, name, code });

describe('master data rules: stakeholders', () => {
  it('creates with defaults, publishes the change and answers the view with company name and category', async () => {
    const { deps, caller, events } = setup();
    const cat = await createCategory(deps, caller, 'c1', { name: 'Fuel', category_code: '' });
    const s = await createStakeholder(deps, caller, 'c1', { ...supplierInput('Shell LT', 'S1'), category_id: cat.id });
    expect(s).toMatchObject({ name: 'Shell LT', code: 'S1', vat_id: '', company_name: 'First UAB', category: { id: cat.id, name: 'Fuel' }, recognise_details: false, external: false });
    expect(events.at(-1)).toEqual({ companyId: 'c1', event: 'master-data', payload: { kind: 'stakeholder', type: 'supplier', id: s.id } });
  });

  it('refuses a category of another company under category_id', async () => {
    const { deps, caller } = setup();
    const foreign = await createCategory(deps, { userId: 'u1', companyId: 'c2' }, 'c2', { name: 'Theirs', category_code: '' });
    await expect(createStakeholder(deps, caller, 'c1', { ...supplierInput('Shell LT', 'S1'), category_id: foreign.id })).rejects.toMatchObject({
      kind: 'ValidationFailed',
      details: [{ path: ['category_id'], message: 'Choose a category of this company' }],
    });
  });

  it('turns duplicates into the spec texts under the field', async () => {
    const { deps, caller } = setup();
    await createStakeholder(deps, caller, 'c1', supplierInput('Shell LT', 'S-1'));
    await expect(createStakeholder(deps, caller, 'c1', supplierInput('SHELL lt', 'S2'))).rejects.toMatchObject({
      kind: 'ValidationFailed',
      message: 'This supplier already exists',
      details: [{ path: ['name'], message: 'This supplier already exists' }],
    });
    await expect(createStakeholder(deps, caller, 'c1', { type: 'customer', name: 'Other', code: 'C' })).resolves.toBeDefined();
    await expect(createStakeholder(deps, caller, 'c1', { type: 'customer', name: 'Another', code: 'c' })).rejects.toMatchObject({
      details: [
        { path: ['name'], message: 'This customer already exists' },
        { path: ['code'], message: 'This customer already exists' },
      ],
    });
  });

  it('stores only changed fields, and writes nothing when nothing changed', async () => {
    const { deps, caller, md } = setup();
    const s = await createStakeholder(deps, caller, 'c1', { ...supplierInput('Shell LT', 'S1'), city: 'Vilnius' });
    const writes = md.writes;
    const same = await updateStakeholder(deps, caller, 'c1', { id: s.id, city: ' Vilnius ', name: 'Shell LT' });
    expect(md.writes).toBe(writes);
    expect(same).toEqual(s);
    const changed = await updateStakeholder(deps, caller, 'c1', { id: s.id, street: 'Laisvės 1' });
    expect(changed).toMatchObject({ street: 'Laisvės 1', city: 'Vilnius', name: 'Shell LT' });
    expect(md.stakeholders.get(`c1|${s.id}`)!.version).toBe(2);
    const record = md.stakeholders.get(`c1|${s.id}`)!;
    expect(stakeholderChanges(record, { city: 'Kaunas', code: 'S1', category_id: null })).toEqual({ city: 'Kaunas' });
    await expect(updateStakeholder(deps, caller, 'c1', { id: 'nope', city: 'x' })).rejects.toMatchObject({ kind: 'NotFound' });
    await expect(updateStakeholder(deps, { userId: 'u1', companyId: 'c2' }, 'c2', { id: s.id, city: 'x' })).rejects.toMatchObject({ kind: 'NotFound' });
  });

  it('refuses a change made on a value someone else changed since (before), saying what it is now; writes nothing', async () => {
    const { deps, caller, md } = setup();
    const s = await createStakeholder(deps, caller, 'c1', { ...supplierInput('Shell LT', 'S1'), city: 'Vilnius', street: 'Gedimino 1' });
    await updateStakeholder(deps, caller, 'c1', { id: s.id, street: '', category_id: null, before: { street: 'Gedimino 1' } });
    const writes = md.writes;
    await expect(
      updateStakeholder(deps, caller, 'c1', { id: s.id, street: 'Laisvės 1', name: 'Shell Lietuva', before: { street: 'Gedimino 1', name: ' Shell LT ' } }),
    ).rejects.toMatchObject({
      kind: 'Conflict',
      message: 'This supplier was changed by someone else meanwhile',
      details: [{ path: ['street'], message: 'Emptied by someone else meanwhile: Save again to keep yours' }],
    });
    expect(md.writes).toBe(writes);
    // a reference says only that it changed
    const cat = await createCategory(deps, caller, 'c1', { name: 'Fuel', category_code: '' });
    await updateStakeholder(deps, caller, 'c1', { id: s.id, category_id: cat.id });
    await expect(updateStakeholder(deps, caller, 'c1', { id: s.id, category_id: null, before: { category_id: null } })).rejects.toMatchObject({
      details: [{ path: ['category_id'], message: 'Changed by someone else meanwhile: Save again to keep yours' }],
    });
  });

  it('isNewStakeholder: code first, then name key, then the name without legal form; empty asks nothing', async () => {
    const { deps, caller } = setup();
    const a = await createStakeholder(deps, caller, 'c1', supplierInput('Alpha UAB', '111'));
    const b = await createStakeholder(deps, caller, 'c1', supplierInput('Beta UAB', '222'));
    expect(await isNewStakeholder(deps, caller, { type: 'supplier', name: 'Alpha UAB', code: '222' })).toMatchObject({ isNewStakeholder: false, stakeholder: { id: b.id } });
    expect(await isNewStakeholder(deps, caller, { type: 'supplier', name: 'ALPHA uab', code: '' })).toMatchObject({ isNewStakeholder: false, stakeholder: { id: a.id } });
    expect(await isNewStakeholder(deps, caller, { type: 'supplier', name: 'Alpha', code: '' })).toMatchObject({ isNewStakeholder: false, stakeholder: { id: a.id } });
    // A name of the register with another company's code is another company: it would be created on confirm.
    expect(await isNewStakeholder(deps, caller, { type: 'supplier', name: 'Alpha', code: '999' })).toEqual({ isNewStakeholder: true, stakeholder: null });
    expect(await isNewStakeholder(deps, caller, { type: 'supplier', name: 'Gamma', code: '' })).toEqual({ isNewStakeholder: true, stakeholder: null });
    expect(await isNewStakeholder(deps, caller, { type: 'customer', name: 'Alpha UAB', code: '' })).toEqual({ isNewStakeholder: true, stakeholder: null });
    expect(await isNewStakeholder(deps, caller, { type: 'supplier', name: ' ', code: '' })).toEqual({ isNewStakeholder: false, stakeholder: null });
  });

  it('ensureStakeholder answers the existing one, creates a new one, and survives a concurrent creation', async () => {
    const { deps, caller, md } = setup();
    const a = await createStakeholder(deps, caller, 'c1', { ...supplierInput('Alpha UAB', '111'), vat_id: 'LT100000001' });
    expect(await ensureStakeholder(deps, 'c1', 'supplier', { name: 'Something else', vat_id: 'lt 1000 00001' })).toMatchObject({ created: false, stakeholder: { id: a.id } });
    const made = await ensureStakeholder(deps, 'c1', 'supplier', { name: 'New Supplier', code: '', vat_id: 'LT200', category_id: 'missing' });
    expect(made).toMatchObject({ created: true, stakeholder: { name: 'New Supplier', vat_id: 'LT200', category_id: null, code: '' } });
    expect(await ensureStakeholder(deps, 'c1', 'supplier', { name: 'x' })).toBeUndefined();

    // Another writer creates the same supplier between the look-up and the write.
    const racing = md.putStakeholder.bind(md);
    let first = true;
    md.putStakeholder = async (next, previous) => {
      if (first) {
        first = false;
        await racing({ ...next, id: 'RACER' });
        throw new DuplicateKeyError('name');
      }
      return racing(next, previous);
    };
    expect(await ensureStakeholder(deps, 'c1', 'supplier', { name: 'Raced UAB' })).toMatchObject({ created: false, stakeholder: { id: 'RACER' } });
  });

  it('ensureStakeholder never answers another company of the same name: its VAT ID or code differs', async () => {
    const { deps, caller } = setup();
    const a = await createStakeholder(deps, caller, 'c1', { ...supplierInput('MR. D.I.Y. SDN BHD', '704427-T'), vat_id: '001092886528' });
    // Same name without legal form, its own numbers: a new supplier.
    const other = await ensureStakeholder(deps, 'c1', 'supplier', { name: 'MR. D.I.Y. (M) SDN BHD', code: '860671-D', vat_id: '000306020352' });
    expect(other).toMatchObject({ created: true, stakeholder: { name: 'MR. D.I.Y. (M) SDN BHD', code: '860671-D' } });
    expect(other!.stakeholder.id).not.toBe(a.id);
    // The very same name with another code cannot be kept under the register's name (its guard), nor linked to it.
    expect(await ensureStakeholder(deps, 'c1', 'supplier', { name: 'MR. D.I.Y. SDN BHD', code: '111111-A' })).toBeUndefined();
    // No numbers printed: the name links it — the one written so, where several normalise alike.
    expect(await ensureStakeholder(deps, 'c1', 'supplier', { name: 'Mr. D.I.Y. Sdn. Bhd.' })).toMatchObject({ created: false, stakeholder: { id: a.id } });
    expect(await ensureStakeholder(deps, 'c1', 'supplier', { name: 'MR. D.I.Y. (M) SDN. BHD.' })).toMatchObject({ created: false, stakeholder: { id: other!.stakeholder.id } });
  });

  it('ensureStakeholder finds a VAT group member by its code, and a VAT ID printed without its country letters', async () => {
    const { deps, caller } = setup();
    const older = await createStakeholder(deps, caller, 'c1', { ...supplierInput('Alfa Trade UAB', '111111111'), vat_id: 'LT999999999' });
    const member = await createStakeholder(deps, caller, 'c1', { ...supplierInput('Alfa Trade Logistika UAB', '222222222'), vat_id: 'LT999999999' });
    // The document names the second member by its code: not the oldest of the VAT group.
    expect(await ensureStakeholder(deps, 'c1', 'supplier', { name: 'Alfa Trade Logistika', code: '222222222', vat_id: 'LT999999999' })).toMatchObject({ created: false, stakeholder: { id: member.id } });
    // No code: the one written as named, else the oldest.
    expect(await ensureStakeholder(deps, 'c1', 'supplier', { name: 'Alfa Trade Logistika UAB', vat_id: 'LT999999999' })).toMatchObject({ created: false, stakeholder: { id: member.id } });
    expect(await ensureStakeholder(deps, 'c1', 'supplier', { name: 'Alfa', vat_id: 'LT999999999' })).toMatchObject({ created: false, stakeholder: { id: older.id } });
    // Printed without LT, stored with it.
    expect(await ensureStakeholder(deps, 'c1', 'supplier', { name: 'Alfa Trade UAB', code: '111111111', vat_id: '999999999' })).toMatchObject({ created: false, stakeholder: { id: older.id } });
  });

  it('setStakeholderCategory writes only the category, conditioned on the version; never another company\'s category', async () => {
    const { deps, caller, md, events } = setup();
    const fuel = await createCategory(deps, caller, 'c1', { name: 'Fuel', category_code: '' });
    const foreign = await createCategory(deps, { userId: 'u1', companyId: 'c2' }, 'c2', { name: 'Theirs', category_code: '' });
    const view = await createStakeholder(deps, caller, 'c1', { ...supplierInput('Shell LT', 'S1'), selected_date_format: 'DD/MM/YYYY' });
    const s = (await md.getStakeholder('c1', view.id))!;
    // Another company's category (or an unknown one) writes nothing.
    expect(await setStakeholderCategory(deps, s, foreign.id)).toBe(s);
    expect(await setStakeholderCategory(deps, s, 'missing')).toBe(s);
    expect(await md.getStakeholder('c1', s.id)).toEqual(s);
    const written = await setStakeholderCategory(deps, s, fuel.id);
    expect(written).toEqual({ ...s, category_id: fuel.id, updated_at: expect.any(String), version: s.version + 1 });
    expect(await md.getStakeholder('c1', s.id)).toEqual(written);
    expect(events.at(-1)).toEqual({ companyId: 'c1', event: 'master-data', payload: { kind: 'stakeholder', type: 'supplier', id: s.id } });
    // The same category writes nothing; a write from a stale read is refused.
    expect(await setStakeholderCategory(deps, written, fuel.id)).toBe(written);
    const drinks = await createCategory(deps, caller, 'c1', { name: 'Drinks', category_code: '' });
    await expect(setStakeholderCategory(deps, s, drinks.id)).rejects.toThrow();
    expect((await md.getStakeholder('c1', s.id))!.category_id).toBe(fuel.id);
  });

  it('lists all companies in id order with next_company, and the imported-only flag per company', async () => {
    const { deps, caller, md } = setup([company('c2', 'Second UAB', { display_imported_stakeholders: true }), company('c1', 'First UAB')]);
    for (const name of ['Aa', 'Bb', 'Cc']) await createStakeholder(deps, caller, 'c1', supplierInput(name, name));
    await createStakeholder(deps, { userId: 'u1', companyId: 'c2' }, 'c2', supplierInput('Own of second', 'X'));
    const imported = await createStakeholder(deps, { userId: 'u1', companyId: 'c2' }, 'c2', supplierInput('Imported of second', 'Y'));
    md.stakeholders.get(`c2|${imported.id}`)!.external = true;

    const all = { selected: 'ALL' as const, type: 'supplier' as const, with_external_data: true, limit: 2 };
    const p1 = await listStakeholders(deps, { userId: 'u1' }, all);
    expect(p1.items.map((s) => [s.name, s.company_name])).toEqual([
      ['Aa', 'First UAB'],
      ['Bb', 'First UAB'],
    ]);
    expect(p1.next_company).toBe('c1');
    const p2 = await listStakeholders(deps, { userId: 'u1' }, { ...all, next: p1.next! });
    expect(p2.items.map((s) => s.name)).toEqual(['Cc', 'Imported of second']);
    expect(p2).toMatchObject({ next: null, next_company: null });
    await expect(listStakeholders(deps, { userId: 'u1' }, { ...all, next: 'bogus' })).rejects.toMatchObject({ kind: 'BadRequest' });
    await expect(listStakeholders(deps, { userId: 'u1' }, { type: 'supplier', with_external_data: true })).rejects.toMatchObject({ kind: 'BadRequest' });
  });
});

describe('master data rules: a search finds a code or a VAT ID', () => {
  it('lists the suppliers whose code or VAT ID is the typed text first, then the names, each once and in the list shown', async () => {
    const { deps, caller, md } = setup();
    await createStakeholder(deps, caller, 'c1', { ...supplierInput('Northwind Office Supplies Ltd', '304567891'), vat_id: 'LT123456715' });
    await createStakeholder(deps, caller, 'c1', { ...supplierInput('Baltic 304567891 Trade', 'BT-1') });
    await createStakeholder(deps, caller, 'c1', { ...supplierInput('Same VAT Branch', 'SV-2'), vat_id: 'lt 1234-56715' });
    await createStakeholder(deps, caller, 'c1', { type: 'customer', name: 'Customer with the code', code: '304567891' });
    const imported = await createStakeholder(deps, caller, 'c1', { ...supplierInput('Imported by code', 'IMP-7') });
    md.stakeholders.get(`c1|${imported.id}`)!.external = true;
    const search = async (search_name: string, extra: Partial<StakeholdersQuery> = {}) =>
      (await listStakeholders(deps, caller, { type: 'supplier', with_external_data: true, search_name, ...extra })).items.map((s) => s.name);

    // The code: its supplier first, then the names holding the typed word (not the customer: another list)
    expect(await search('304 567 891')).toEqual(['Northwind Office Supplies Ltd']);
    expect(await search('304567891')).toEqual(['Northwind Office Supplies Ltd', 'Baltic 304567891 Trade']);
    // The VAT ID, however it is spaced: both suppliers that have it, by name
    expect(await search('LT123456715')).toEqual(['Northwind Office Supplies Ltd', 'Same VAT Branch']);
    // Without a type: suppliers and customers alike
    expect(await search('304567891', { type: undefined })).toEqual(['Customer with the code', 'Northwind Office Supplies Ltd', 'Baltic 304567891 Trade']);
    // Own records only: the imported one's code finds nothing
    expect(await search('IMP-7', { with_external_data: false })).toEqual([]);
    expect(await search('imp 7')).toEqual(['Imported by code']);
    // A word without a digit is a name search only
    expect(await search('northwind')).toEqual(['Northwind Office Supplies Ltd']);
  });

  it('pages the names after the exact hits without listing a hit again', async () => {
    const { deps, caller } = setup();
    await createStakeholder(deps, caller, 'c1', supplierInput('Zeta 4455', '4455'));
    for (const n of ['A', 'B', 'C']) await createStakeholder(deps, caller, 'c1', supplierInput(`${n} 4455`, `${n}-1`));
    const query = { type: 'supplier' as const, with_external_data: true, search_name: '4455', limit: 2 };
    const p1 = await listStakeholders(deps, caller, query);
    expect(p1.items.map((s) => s.name)).toEqual(['Zeta 4455', 'A 4455']);
    const p2 = await listStakeholders(deps, caller, { ...query, next: p1.next! });
    const rest = [...p2.items.map((s) => s.name)];
    let next = p2.next;
    while (next) {
      const p = await listStakeholders(deps, caller, { ...query, next });
      rest.push(...p.items.map((s) => s.name));
      next = p.next;
    }
    expect(rest).toEqual(['B 4455', 'C 4455']);
  });

  it("finds a category by its code", async () => {
    const { deps, caller } = setup();
    await createCategory(deps, caller, 'c1', { name: 'Office supplies', category_code: '6110' });
    await createCategory(deps, caller, 'c1', { name: 'Fuel', category_code: '6420' });
    expect((await listCategories(deps, caller, { with_external_data: true, search_name: '6110' })).items.map((c) => c.name)).toEqual(['Office supplies']);
    expect((await listCategories(deps, caller, { with_external_data: true, search_name: 'fuel' })).items.map((c) => c.name)).toEqual(['Fuel']);
  });
});

describe('master data rules: categories and items', () => {
  it('a category edit with no change does nothing', async () => {
    const { deps, caller, md } = setup();
    const c = await createCategory(deps, caller, 'c1', { name: 'Fuel', category_code: 'F' });
    const writes = md.writes;
    expect(await updateCategory(deps, caller, 'c1', { id: c.id, name: 'Fuel ', category_code: 'F' })).toEqual(c);
    expect(md.writes).toBe(writes);
    await expect(createCategory(deps, caller, 'c1', { name: 'Other', category_code: 'f' })).rejects.toMatchObject({
      details: [
        { path: ['name'], message: 'This category already exists' },
        { path: ['category_code'], message: 'This category already exists' },
      ],
    });
  });

  it('refuses a category edit made on a name or code someone else changed since (before); writes nothing', async () => {
    const { deps, caller, md } = setup();
    const c = await createCategory(deps, caller, 'c1', { name: 'Fuel', category_code: 'F' });
    await updateCategory(deps, caller, 'c1', { id: c.id, name: 'Fuel and oil', before: { name: 'Fuel' } });
    const writes = md.writes;
    await expect(updateCategory(deps, caller, 'c1', { id: c.id, name: 'Petrol', category_code: '', before: { name: ' Fuel ', category_code: 'F' } })).rejects.toMatchObject({
      kind: 'Conflict',
      message: 'This category was changed by someone else meanwhile',
      details: [{ path: ['name'], message: 'Changed by someone else meanwhile to "Fuel and oil": Save again to keep yours' }],
    });
    expect(md.writes).toBe(writes);
    // the untouched code goes through on its own; the same value as stored is no conflict
    expect(await updateCategory(deps, caller, 'c1', { id: c.id, category_code: '', before: { category_code: 'F' } })).toMatchObject({ name: 'Fuel and oil', category_code: '' });
    expect(await updateCategory(deps, caller, 'c1', { id: c.id, name: 'Fuel and oil', before: { name: 'Fuel' } })).toMatchObject({ name: 'Fuel and oil' });
    await expect(updateCategory(deps, caller, 'c1', { id: c.id, category_code: 'X', before: { category_code: 'F' } })).rejects.toMatchObject({
      details: [{ path: ['category_code'], message: 'Emptied by someone else meanwhile: Save again to keep yours' }],
    });
  });

  it('drops blank and repeated words, renames to a new name_id, caps words', async () => {
    const { deps, caller } = setup();
    expect(cleanWords([' kava', '', 'KAVA', 'Kavà', 'coffee '])).toEqual(['kava', 'coffee']);
    const item = await createItem(deps, caller, 'c1', { name: 'Coffee Beans', words: ['kava', ' '] });
    expect(item).toMatchObject({ name_id: 'coffee beans', words: ['kava'], company_name: 'First UAB' });
    const renamed = await updateItem(deps, caller, 'c1', { name_id: 'coffee beans', name: 'Coffee Grains' });
    expect(renamed.name_id).toBe('coffee grains');
    await createItem(deps, caller, 'c1', { name: 'Tea', words: [] });
    await expect(updateItem(deps, caller, 'c1', { name_id: 'tea', name: 'COFFEE grains' })).rejects.toMatchObject({ message: 'This item already exists' });
    const full = await createItem(deps, caller, 'c1', { name: 'Many', words: Array.from({ length: 50 }, (_, i) => `w${i}`) });
    await expect(addItemWord(deps, caller, 'c1', { key: full.name_id, value: 'one more' })).rejects.toMatchObject({ details: [{ path: ['value'], message: 'At most 50 words' }] });
    expect((await addItemWord(deps, caller, 'c1', { key: full.name_id, value: 'W1' })).words).toHaveLength(50);
  });
});
