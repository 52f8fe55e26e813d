import { describe, expect, it, vi } from 'vitest';
import {
  createActiveCompanyStore,
  effectiveAllCompanies,
  parseStoredCompanyId,
  type KeyValueStorage,
} from '../../../web/src/lib/active-company-store';

function memoryStorage(initial: Record<string, string> = {}): KeyValueStorage & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
  };
}

describe('active company store', () => {
  it('starts empty without stored values', () => {
    const store = createActiveCompanyStore(memoryStorage());
    expect(store.getState()).toEqual({ companyId: null, allCompanies: false });
  });

  it('restores the stored choice (keys active_company and active_all_companies)', () => {
    const store = createActiveCompanyStore(memoryStorage({ active_company: 'c2', active_all_companies: 'true' }));
    expect(store.getState()).toEqual({ companyId: 'c2', allCompanies: true });
  });

  it('persists changes and notifies subscribers', () => {
    const storage = memoryStorage();
    const store = createActiveCompanyStore(storage);
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    store.setCompany('c1');
    store.setAllCompanies(true);
    expect(storage.data.get('active_company')).toBe('c1');
    expect(storage.data.get('active_all_companies')).toBe('true');
    expect(listener).toHaveBeenCalledTimes(2);
    store.setCompany('c1');
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
    store.setCompany('c3');
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('gives a new state object on change (for useSyncExternalStore)', () => {
    const store = createActiveCompanyStore(memoryStorage());
    const before = store.getState();
    expect(store.getState()).toBe(before);
    store.setCompany('c1');
    expect(store.getState()).not.toBe(before);
  });

  it('reconcile picks the first company when the stored one is gone, keeps a valid one', () => {
    const storage = memoryStorage({ active_company: 'gone' });
    const store = createActiveCompanyStore(storage);
    store.reconcile(['c1', 'c2']);
    expect(store.getState().companyId).toBe('c1');
    expect(storage.data.get('active_company')).toBe('c1');
    store.setCompany('c2');
    store.reconcile(['c1', 'c2']);
    expect(store.getState().companyId).toBe('c2');
    store.reconcile([]);
    expect(store.getState().companyId).toBeNull();
    expect(storage.data.has('active_company')).toBe(false);
  });

  it('the all-companies view is only effective with more than one company', () => {
    expect(effectiveAllCompanies({ companyId: 'c1', allCompanies: true }, 1)).toBe(false);
    expect(effectiveAllCompanies({ companyId: 'c1', allCompanies: true }, 2)).toBe(true);
    expect(effectiveAllCompanies({ companyId: 'c1', allCompanies: false }, 5)).toBe(false);
  });

  it('survives a storage that throws', () => {
    const broken: KeyValueStorage = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('full');
      },
      removeItem: () => {
        throw new Error('denied');
      },
    };
    const store = createActiveCompanyStore(broken);
    store.setCompany('c1');
    expect(store.getState().companyId).toBe('c1');
  });

  it("keeps a user's choices across visits, and drops another user's who signed in on the browser before", () => {
    const shared = memoryStorage({ active_company: 'c2', active_all_companies: 'true' });
    // choices stored before their user was kept are taken as the first user's
    const tess = createActiveCompanyStore(shared);
    tess.claim('tess');
    expect(tess.getState()).toEqual({ companyId: 'c2', allCompanies: true });
    expect(createActiveCompanyStore(shared).getState()).toEqual({ companyId: 'c2', allCompanies: true });
    // tess signs out; another user signs in on the same browser: no company of hers, no all-companies view
    const next = createActiveCompanyStore(shared);
    next.claim('uncf');
    expect(next.getState()).toEqual({ companyId: null, allCompanies: false });
    next.setCompany('u1');
    // a tab that still held tess's choices when uncf signed in elsewhere takes uncf's
    tess.claim('uncf');
    expect(tess.getState()).toEqual({ companyId: 'u1', allCompanies: false });
    const again = createActiveCompanyStore(shared);
    again.claim('uncf');
    expect(again.getState().companyId).toBe('u1');
  });

  it('parses stored ids leniently', () => {
    expect(parseStoredCompanyId('"c1"')).toBe('c1');
    expect(parseStoredCompanyId('null')).toBeNull();
    expect(parseStoredCompanyId('')).toBeNull();
    expect(parseStoredCompanyId('c9')).toBe('c9');
  });
});
