import { describe, expect, it } from 'vitest';
import { clearDrafts, draftsKey, draftsToRestore, loadDrafts, retryDelay, storeDrafts } from '../../../web/src/features/edit-receipt/lib/drafts-storage';

function memory() {
  const m = new Map<string, string>();
  return {
    map: m,
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
    removeItem: (k: string) => void m.delete(k),
  };
}

const ann = { userId: 'sub-ann', companyId: 'C1', receiptId: 'R1' };

describe('edit-screen drafts in the tab', () => {
  it('keeps the drafts per user, company and document, and removes them once none is left', () => {
    const store = memory();
    storeDrafts(ann, { values: { document_id: 'PP-1' }, base: { document_id: 'PP-0', other: 'x' }, version: 4, at: 10 }, store);
    expect(loadDrafts(ann, store)).toEqual({ values: { document_id: 'PP-1' }, base: { document_id: 'PP-0' }, version: 4, at: 10 });
    // Another user on this tab, another company or document: nothing
    expect(loadDrafts({ ...ann, userId: 'sub-bob' }, store)).toBeNull();
    expect(loadDrafts({ ...ann, companyId: 'C2' }, store)).toBeNull();
    expect(loadDrafts({ ...ann, receiptId: 'R2' }, store)).toBeNull();
    // Everything saved: the entry goes
    storeDrafts(ann, { values: {}, base: {}, version: 5 }, store);
    expect(store.map.size).toBe(0);
    storeDrafts(ann, { values: { a: '1' }, base: {}, version: 5 }, store);
    clearDrafts(ann, store);
    expect(store.map.size).toBe(0);
  });

  it('keeps nothing without a signed-in user, and reads a damaged entry as none', () => {
    const store = memory();
    storeDrafts({ ...ann, userId: '' }, { values: { a: '1' }, base: {}, version: 1 }, store);
    expect(store.map.size).toBe(0);
    store.setItem(draftsKey(ann), '{not json');
    expect(loadDrafts(ann, store)).toBeNull();
    store.setItem(draftsKey(ann), JSON.stringify({ values: { a: 1 }, version: 1 }));
    expect(loadDrafts(ann, store)).toBeNull();
  });

  it('never throws when the storage refuses', () => {
    const broken = { getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('quota'); }, removeItem: () => { throw new Error('denied'); } };
    expect(() => storeDrafts(ann, { values: { a: '1' }, base: {}, version: 1 }, broken)).not.toThrow();
    expect(() => clearDrafts(ann, broken)).not.toThrow();
    expect(loadDrafts(ann, broken)).toBeNull();
  });

  it('puts back only values of fields the document still has that differ from what is stored now', () => {
    const stored = { values: { document_id: 'PP-1', amount_total: '10.00', gone: 'x' }, base: { document_id: 'PP-0' }, version: 3, at: 1 };
    const server: Record<string, string> = { document_id: 'PP-0', amount_total: '10.00', issue_date: '' };
    const back = draftsToRestore(stored, (id) => server[id]);
    expect(back).toEqual({ values: { document_id: 'PP-1' }, base: { document_id: 'PP-0' }, version: 3, at: 1 });
    expect(draftsToRestore(stored, (id) => (id === 'document_id' ? 'PP-1' : server[id]))).toBeNull();
    expect(draftsToRestore(null, () => '')).toBeNull();
  });

  it('tries a failed save again after 2 s, doubling up to 30 s', () => {
    expect([1, 2, 3, 4, 5, 9].map((n) => retryDelay(n))).toEqual([2000, 4000, 8000, 16000, 30000, 30000]);
  });
});
