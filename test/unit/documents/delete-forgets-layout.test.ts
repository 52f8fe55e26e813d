/**
 * Deleting a confirmed cost document forgets the supplier layout learnt from it, under every key it was stored (the
 * printed name too); a layout a later confirm of the supplier stored stays, as do other companies' and a sales
 * invoice's neighbours.
 */
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { newCompanyRecord } from '../../../lambdas/core/accounts/companies';
import { companyScope, type DocumentRecord } from '../../../lambdas/core/documents/types';
import { deleteDocument, type DeleteDeps } from '../../../lambdas/core/documents/workflow';
import { supplierKeys } from '../../../lambdas/core/recognition/layout-keys';
import type { StoredSupplierLayout } from '../../../lambdas/core/recognition/ports';
import { seededDocument } from '../../support/document-records';
import { liveRecorder, memoryAccounts, MemoryDocuments, MemoryFiles, memoryLayouts } from './fakes';

const SUPPLIER = { vat_id: 'LT100001919017', code: '300001919', name: 'UAB Kita', printed_name: 'KITA UAB PARDUOTUVE' };

function setup() {
  const clock = { now: () => new Date('2024-06-01T10:00:00Z') };
  const ids = { newId: () => ulid() };
  const company = newCompanyRecord({ name: 'Acme', code: '1' }, { id: 'u1', name: 'Test', surname: 'User', email: 'u@x' }, ids, clock);
  const documents = new MemoryDocuments();
  const layouts = memoryLayouts();
  const deps: DeleteDeps = { documents, files: new MemoryFiles(), store: memoryAccounts(company), live: liveRecorder(), clock, ids, layouts };
  const companyId = company.company_id;
  const add = (id: string, over: Partial<DocumentRecord> = {}) =>
    documents.docs.set(
      id,
      seededDocument({
        receipt_id: id,
        scope: companyScope(companyId),
        created_at: '2024-05-01T00:00:00.000Z',
        status: 'archive',
        counterparty_name: SUPPLIER.name,
        counterparty_code: SUPPLIER.code,
        counterparty_vat_id: SUPPLIER.vat_id,
        ...over,
      }),
    );
  const layout = (source: string, learnedAt: string): StoredSupplierLayout => ({
    hint: { supplier: { ...SUPPLIER }, fields: [{ field: 'document_id', page: 1, box: { left: 0.6, top: 0.1, width: 0.1, height: 0.01 }, labelWords: ['ref'], kind: 'code' }] },
    source_receipt_id: source,
    learned_at: learnedAt,
    learned_by: 'u1',
  });
  return { deps, layouts, add, layout, companyId, caller: { userId: 'u1', companyId } };
}

describe('a deleted document forgets the layout it taught', () => {
  it('every key of its layout, the printed name included, is emptied', async () => {
    const { deps, layouts, add, layout, companyId, caller } = setup();
    add('taught');
    const keys = supplierKeys(SUPPLIER);
    expect(keys).toHaveLength(4);
    await layouts.put(companyId, keys, layout('taught', '2024-05-01T00:00:00.000Z'));
    await layouts.put('other-company', keys, layout('taught', '2024-05-01T00:00:00.000Z'));
    await deleteDocument(deps, caller, 'taught');
    expect(await layouts.find(companyId, keys)).toEqual([]);
    // Another company's table items are never touched.
    expect(await layouts.find('other-company', keys)).toHaveLength(1);
  });

  it("a layout a later confirm stored stays; a document that taught nothing, or a sales invoice, forgets nothing", async () => {
    const { deps, layouts, add, layout, companyId, caller } = setup();
    add('older');
    add('newer');
    add('sale', { receipt_type: 'invoice' });
    const keys = supplierKeys(SUPPLIER);
    await layouts.put(companyId, keys, layout('older', '2024-05-01T00:00:00.000Z'));
    await layouts.put(companyId, keys, layout('newer', '2024-05-02T00:00:00.000Z'));
    await deleteDocument(deps, caller, 'older');
    expect((await layouts.find(companyId, keys)).map((l) => l.source_receipt_id)).toEqual(['newer']);
    await deleteDocument(deps, caller, 'sale');
    expect((await layouts.find(companyId, keys)).map((l) => l.source_receipt_id)).toEqual(['newer']);
    await deleteDocument(deps, caller, 'newer');
    expect(await layouts.find(companyId, keys)).toEqual([]);
  });
});
