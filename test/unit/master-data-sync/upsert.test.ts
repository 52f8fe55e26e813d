import { describe, expect, it } from 'vitest';
import { upsertCategory, upsertItem, upsertStakeholder, cellText } from '../../../lambdas/core/master-data/sync/upsert';
import { FakeMasterDataStore } from '../../support/fake-master-data-store';

function setup() {
  const masterData = new FakeMasterDataStore();
  let n = 0;
  let t = Date.parse('2026-03-01T10:00:00Z');
  return { masterData, clock: { now: () => new Date((t += 1000)) }, ids: { newId: () => `id${++n}` } };
}

describe('master-data imports: upserts', () => {
  it('creates by code marked external, leaves an unchanged row alone and updates a changed one', async () => {
    const deps = setup();
    const row = { code: 'S1', name: 'Baltic Trade UAB', vat_id: 'LT1001', city: 'Vilnius', country: 'lt' };
    expect(await upsertStakeholder(deps, 'c1', 'supplier', row)).toEqual({ outcome: 'created' });
    const created = await deps.masterData.findStakeholder('c1', 'supplier', 'code', 'S1');
    expect(created).toMatchObject({ name: 'Baltic Trade UAB', external: true, external_ref: 'S1', country: 'LT', version: 1 });
    expect(await upsertStakeholder(deps, 'c1', 'supplier', row)).toEqual({ outcome: 'unchanged' });
    expect(await upsertStakeholder(deps, 'c1', 'supplier', { ...row, city: 'Kaunas' })).toEqual({ outcome: 'updated' });
    expect(await deps.masterData.findStakeholder('c1', 'supplier', 'code', 'S1')).toMatchObject({ city: 'Kaunas', version: 2 });
    // Another company's code is another record.
    expect(await upsertStakeholder(deps, 'c2', 'supplier', row)).toEqual({ outcome: 'created' });
  });

  it('marks a product-own record with the same code external and keeps its own fields', async () => {
    const deps = setup();
    const now = '2026-03-01T09:00:00.000Z';
    await deps.masterData.putStakeholder({
      id: 'own1', type: 'customer', name: 'Own Customer', code: 'C7', vat_id: '', street: '', city: '', zipcode: '', country: '', email: '',
      delivery: 'Gate 3', category_id: 'cat1', selected_date_format: 'DD/MM/YYYY', recognise_details: true,
      company_id: 'c1', external: false, created_at: now, updated_at: now, version: 1,
    });
    expect(await upsertStakeholder(deps, 'c1', 'customer', { code: 'C7', name: 'Own Customer' })).toEqual({ outcome: 'updated' });
    expect(await deps.masterData.getStakeholder('c1', 'own1')).toMatchObject({ external: true, delivery: 'Gate 3', category_id: 'cat1', recognise_details: true });
  });

  it('writes only the fields the mapping imports: unmapped columns and a country the list does not know keep what is stored', async () => {
    const deps = setup();
    const now = '2026-03-01T09:00:00.000Z';
    await deps.masterData.putStakeholder({
      id: 'own2', type: 'supplier', name: 'Kept UAB', code: 'K1', vat_id: 'LT100001', street: 'Gedimino pr. 1', city: 'Vilnius', zipcode: 'LT-01103', country: 'LT', email: 'kept@example.com',
      delivery: '', category_id: null, selected_date_format: null, recognise_details: false,
      company_id: 'c1', external: false, created_at: now, updated_at: now, version: 1,
    });
    // A mapping of code, name and city only, and a source that writes its country as a name
    expect(await upsertStakeholder(deps, 'c1', 'supplier', { code: 'K1', name: 'Kept UAB', city: 'Kaunas', country: 'Lietuva' })).toEqual({ outcome: 'updated' });
    expect(await deps.masterData.getStakeholder('c1', 'own2')).toMatchObject({
      city: 'Kaunas', vat_id: 'LT100001', street: 'Gedimino pr. 1', zipcode: 'LT-01103', country: 'LT', email: 'kept@example.com', external: true,
    });
    // A new record gets empty fields for what the mapping does not import
    expect(await upsertStakeholder(deps, 'c1', 'supplier', { code: 'N1', name: 'New UAB' })).toEqual({ outcome: 'created' });
    expect(await deps.masterData.findStakeholder('c1', 'supplier', 'code', 'N1')).toMatchObject({ vat_id: '', street: '', city: '', zipcode: '', country: '', email: '' });
  });

  it('skips rows without a code or with a too short name; a taken name is a skipped row, not a failure', async () => {
    const deps = setup();
    expect(await upsertStakeholder(deps, 'c1', 'supplier', { code: '', name: 'No Code' })).toMatchObject({ outcome: 'rejected', reason: 'no code' });
    expect(await upsertCategory(deps, 'c1', { code: 'X', name: 'A' })).toMatchObject({ outcome: 'rejected' });
    expect(await upsertStakeholder(deps, 'c1', 'supplier', { code: 'A1', name: 'Same Name UAB' })).toEqual({ outcome: 'created' });
    const dup = await upsertStakeholder(deps, 'c1', 'supplier', { code: 'A2', name: 'Same Name UAB' });
    expect(dup).toEqual({ outcome: 'rejected', reason: 'A2: another record has the same name' });
  });

  it('categories by code, items by name', async () => {
    const deps = setup();
    expect(await upsertCategory(deps, 'c1', { code: 'FUEL', name: 'Fuel' })).toEqual({ outcome: 'created' });
    expect(await upsertCategory(deps, 'c1', { code: 'FUEL', name: 'Fuel and oil' })).toEqual({ outcome: 'updated' });
    expect(await deps.masterData.findCategory('c1', 'code', 'FUEL')).toMatchObject({ name: 'Fuel and oil', external: true });
    expect(await upsertItem(deps, 'c1', { code: 'P1', name: 'Paper A4' })).toEqual({ outcome: 'created' });
    expect(await upsertItem(deps, 'c1', { code: 'P1', name: 'Paper A4' })).toEqual({ outcome: 'unchanged' });
    expect(await deps.masterData.getItem('c1', 'paper a4')).toMatchObject({ external: true, external_ref: 'P1', words: [] });
  });

  it('keeps two source suppliers whose codes differ only in dashes apart: the second is rejected, the first keeps its data', async () => {
    const deps = setup();
    const first = { code: 'AB-12', name: 'First distinct supplier' };
    const second = { code: 'AB12', name: 'Second distinct supplier' };
    expect(await upsertStakeholder(deps, 'c1', 'supplier', first)).toEqual({ outcome: 'created' });
    const clash = {
      outcome: 'rejected',
      reason: 'AB12: same code as AB-12 (First distinct supplier) in the product; codes are compared without spaces, dashes and case',
    };
    expect(await upsertStakeholder(deps, 'c1', 'supplier', second)).toEqual(clash);
    // The next run: nothing changed, nothing is updated, the clash is listed again.
    expect(await upsertStakeholder(deps, 'c1', 'supplier', first)).toEqual({ outcome: 'unchanged' });
    expect(await upsertStakeholder(deps, 'c1', 'supplier', second)).toEqual(clash);
    expect(await deps.masterData.findStakeholder('c1', 'supplier', 'code', 'AB12')).toMatchObject({ name: 'First distinct supplier', code: 'AB-12', external_ref: 'AB-12', version: 1 });
    // Categories likewise.
    expect(await upsertCategory(deps, 'c1', { code: 'fuel', name: 'Fuel' })).toEqual({ outcome: 'created' });
    expect(await upsertCategory(deps, 'c1', { code: 'FUEL', name: 'Fuel and oil' })).toMatchObject({ outcome: 'rejected', reason: expect.stringMatching(/^FUEL: same code as fuel \(Fuel\)/) });
  });

  it('keeps two source items whose names differ only in case or accents apart', async () => {
    const deps = setup();
    expect(await upsertItem(deps, 'c1', { code: 'K1', name: 'Kava' })).toEqual({ outcome: 'created' });
    expect(await upsertItem(deps, 'c1', { code: 'Z1', name: 'Žuvis' })).toEqual({ outcome: 'created' });
    const kava = { outcome: 'rejected', reason: 'K2: same name as Kava (K1) in the product; item names are compared without case and accents' };
    const zuvis = { outcome: 'rejected', reason: 'Z2: same name as Žuvis (Z1) in the product; item names are compared without case and accents' };
    for (let run = 0; run < 2; run++) {
      if (run > 0) expect(await upsertItem(deps, 'c1', { code: 'K1', name: 'Kava' })).toEqual({ outcome: 'unchanged' });
      expect(await upsertItem(deps, 'c1', { code: 'K2', name: 'KAVA' })).toEqual(kava);
      expect(await upsertItem(deps, 'c1', { code: 'Z2', name: 'Zuvis' })).toEqual(zuvis);
    }
    expect(await deps.masterData.getItem('c1', 'kava')).toMatchObject({ name: 'Kava', external_ref: 'K1', version: 1 });
    expect(await deps.masterData.getItem('c1', 'zuvis')).toMatchObject({ name: 'Žuvis', external_ref: 'Z1', version: 1 });
  });

  it('takes over a product-own record or one imported before codes were kept, as before', async () => {
    const deps = setup();
    const now = '2026-03-01T09:00:00.000Z';
    await deps.masterData.putItem({ name_id: 'arbata', name: 'Arbata', words: ['tea'], company_id: 'c1', external: false, created_at: now, updated_at: now, version: 1 });
    expect(await upsertItem(deps, 'c1', { code: 'A1', name: 'ARBATA' })).toEqual({ outcome: 'updated' });
    expect(await upsertItem(deps, 'c1', { code: 'A1', name: 'ARBATA' })).toEqual({ outcome: 'unchanged' });
    await deps.masterData.putStakeholder({
      id: 'old1', type: 'supplier', name: 'Old Import UAB', code: 'OLD 1', vat_id: '', street: '', city: '', zipcode: '', country: '', email: '',
      delivery: '', category_id: null, selected_date_format: null, recognise_details: false,
      company_id: 'c1', external: true, created_at: now, updated_at: now, version: 1,
    });
    expect(await upsertStakeholder(deps, 'c1', 'supplier', { code: 'OLD-1', name: 'Old Import UAB' })).toEqual({ outcome: 'updated' });
    expect(await deps.masterData.getStakeholder('c1', 'old1')).toMatchObject({ code: 'OLD-1', external_ref: 'OLD-1' });
  });

  it('reads source cells as bounded text', () => {
    expect(cellText(null)).toBe('');
    expect(cellText(42)).toBe('42');
    expect(cellText('  a \n b ')).toBe('a b');
    expect(cellText(new Date('2026-01-02T00:00:00Z'))).toBe('2026-01-02');
    expect(cellText('x'.repeat(1000))).toHaveLength(255);
    expect(cellText({ a: 1 })).toBe('');
  });
});
