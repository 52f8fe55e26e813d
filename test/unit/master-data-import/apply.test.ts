/**
 * Applying import rows when another writer wins a uniqueness race (a second import of the same file, a colleague):
 * a row whose record appeared since its look-up is an update of that record; a name that is another record's stays
 * a rejection.
 */
import { describe, expect, it } from 'vitest';
import { applyRow, CategoryResolver } from '../../../lambdas/core/master-data/import/apply';
import type { ParsedRow } from '../../../lambdas/core/master-data/import/rows';
import type { CategoryRecord, StakeholderRecord } from '../../../lambdas/core/master-data/types';
import { FakeMasterDataStore } from '../../support/fake-master-data-store';
import { categoryRecord, stakeholderRecord } from '../../support/master-data-records';

const C = 'company-1';

/**
 * The fake store where another writer stores `rival` between the row's look-up and its first write: the row's look-up
 * missed, and its create fails the guards the rival now holds (the name first, as the DynamoDB adapter reports).
 */
class RacingStore extends FakeMasterDataStore {
  rivalStakeholder?: StakeholderRecord;
  rivalCategory?: CategoryRecord;
  override async putStakeholder(next: StakeholderRecord, previous?: StakeholderRecord) {
    const rival = this.rivalStakeholder;
    this.rivalStakeholder = undefined;
    if (rival) await super.putStakeholder(rival);
    return super.putStakeholder(next, previous);
  }
  override async putCategory(next: CategoryRecord, previous?: CategoryRecord) {
    const rival = this.rivalCategory;
    this.rivalCategory = undefined;
    if (rival) await super.putCategory(rival);
    return super.putCategory(next, previous);
  }
}

function setup() {
  let n = 0;
  const store = new RacingStore();
  const deps = { masterData: store, clock: { now: () => new Date('2026-11-25T10:00:00Z') }, ids: { newId: () => `ID${++n}` } };
  const apply = (parsed: ParsedRow, type: 'suppliers' | 'categories' = 'suppliers') => applyRow(deps, C, type, parsed, new CategoryResolver(store, C));
  return { store, apply };
}

const supplierRow = (input: { name: string; code: string; city?: string }): ParsedRow => ({ ok: true, kind: 'stakeholder', row: 2, input, category: '' });

describe('import rows that lose a uniqueness race', () => {
  it('a supplier row whose code was created by another import since its look-up updates that record with its values', async () => {
    const { store, apply } = setup();
    store.rivalStakeholder = stakeholderRecord(C, { id: 'rival', name: 'Antras 1 Šilas', code: '900000001', city: 'Kaunas' });
    const outcome = await apply(supplierRow({ name: 'Antras 1 Šilas', code: '900000001', city: 'Vilnius' }));
    expect(outcome).toEqual({ row: 2, outcome: 'updated' });
    const stored = await store.findStakeholder(C, 'supplier', 'code', '900000001');
    expect(stored).toMatchObject({ id: 'rival', name: 'Antras 1 Šilas', city: 'Vilnius', version: 2 });
    expect(store.stakeholders.size).toBe(1);
  });

  it('a supplier row whose name is another record of another code stays rejected with the message', async () => {
    const { store, apply } = setup();
    store.rivalStakeholder = stakeholderRecord(C, { id: 'rival', name: 'Antras 1 Šilas', code: '900000099' });
    expect(await apply(supplierRow({ name: 'Antras 1 Šilas', code: '900000001' }))).toEqual({ row: 2, outcome: 'rejected', reason: 'Name: This supplier already exists' });
    // Also when the record was there before the look-up.
    expect(await apply(supplierRow({ name: 'ANTRAS 1 ŠILAS', code: '900000002' }))).toEqual({ row: 2, outcome: 'rejected', reason: 'Name: This supplier already exists' });
    expect([...store.stakeholders.values()].map((s) => s.code)).toEqual(['900000099']);
  });

  it('a category row whose code was created by another import since its look-up updates that category', async () => {
    const { store, apply } = setup();
    store.rivalCategory = categoryRecord(C, { id: 'rival', name: 'KURAS', category_code: 'K1' });
    const outcome = await apply({ ok: true, kind: 'category', row: 3, input: { name: 'Kuras', category_code: 'K1' } }, 'categories');
    expect(outcome).toEqual({ row: 3, outcome: 'updated' });
    expect(await store.findCategory(C, 'code', 'K1')).toMatchObject({ id: 'rival', name: 'Kuras' });
    expect(store.categories.size).toBe(1);
  });
});
