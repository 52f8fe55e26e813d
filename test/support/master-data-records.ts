/**
 * Master-data records for unit tests, and the in-memory store with every port call counted (to check that
 * matching a document stays within a fixed number of look-ups).
 */
import { nameKey } from '../../lambdas/core/master-data/keys';
import type { MasterDataStore } from '../../lambdas/core/master-data/ports';
import type { CategoryRecord, ItemRecord, StakeholderRecord } from '../../lambdas/core/master-data/types';
import { FakeMasterDataStore } from './fake-master-data-store';

const NOW = '2026-01-01T00:00:00.000Z';

export function stakeholderRecord(companyId: string, partial: Partial<StakeholderRecord> & { id: string; name: string }): StakeholderRecord {
  return {
    company_id: companyId,
    type: 'supplier',
    code: '',
    vat_id: '',
    street: '',
    city: '',
    zipcode: '',
    country: '',
    email: '',
    delivery: '',
    category_id: null,
    selected_date_format: null,
    recognise_details: false,
    external: false,
    created_at: NOW,
    updated_at: NOW,
    version: 1,
    ...partial,
  };
}

export function categoryRecord(companyId: string, partial: Partial<CategoryRecord> & { id: string; name: string }): CategoryRecord {
  return { company_id: companyId, category_code: '', external: false, created_at: NOW, updated_at: NOW, version: 1, ...partial };
}

export function itemRecord(companyId: string, name: string, words: string[]): ItemRecord {
  return { company_id: companyId, name_id: nameKey(name), name, words, external: false, created_at: NOW, updated_at: NOW, version: 1 };
}

const PORT_METHODS = new Set<string>([
  'putStakeholder', 'deleteStakeholder', 'getStakeholder', 'listStakeholders', 'findStakeholder', 'sameNameStakeholders', 'sameVatStakeholders',
  'putCategory', 'deleteCategory', 'getCategory', 'getCategories', 'listCategories', 'findCategory',
  'putItem', 'deleteItem', 'getItem', 'listItems', 'findItemsByWords',
] satisfies (keyof MasterDataStore)[]);

export interface CountingStore extends FakeMasterDataStore {
  /** Port calls by method name since the last reset. */
  calls: Record<string, number>;
  totalCalls(): number;
}

/** The in-memory store counting its port calls; `calls = {}` resets the count. */
export function countingStore(): CountingStore {
  const store = Object.assign(new FakeMasterDataStore(), {
    calls: {} as Record<string, number>,
    totalCalls(this: { calls: Record<string, number> }) {
      return Object.values(this.calls).reduce((s, n) => s + n, 0);
    },
  });
  return new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof prop !== 'string' || !PORT_METHODS.has(prop) || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        target.calls[prop] = (target.calls[prop] ?? 0) + 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/** Puts records straight into the store (no uniqueness checks), as tests set up a register. */
export function seed(store: FakeMasterDataStore, records: { stakeholders?: StakeholderRecord[]; categories?: CategoryRecord[]; items?: ItemRecord[] }): void {
  for (const s of records.stakeholders ?? []) store.stakeholders.set(`${s.company_id}|${s.id}`, s);
  for (const c of records.categories ?? []) store.categories.set(`${c.company_id}|${c.id}`, c);
  for (const i of records.items ?? []) store.items.set(`${i.company_id}|${i.name_id}`, i);
}
