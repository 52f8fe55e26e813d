/**
 * What a delete leaves (lambdas/core/documents/leftovers.ts). Deleting a confirmed cost document forgets the supplier
 * layout learnt from it, under every key it was stored (the printed name too); a layout a later confirm of the
 * supplier stored stays, as do other companies' and a sales invoice's neighbours. A removal that fails after the
 * delete committed does not make the delete fail: it stays written down and the sweeper finishes it.
 */
import { ulid } from 'ulid';
import { describe, expect, it, vi } from 'vitest';
import { newCompanyRecord } from '../../../lambdas/core/accounts/companies';
import { documentKeys, processTicketKey } from '../../../lambdas/core/documents/files';
import { LEFTOVERS_GRACE_MS, sweepLeftovers } from '../../../lambdas/core/documents/leftovers';
import { companyScope, userScope, type DocumentRecord } from '../../../lambdas/core/documents/types';
import { combineDocuments, deleteDocument, selectCompany, type DeleteDeps } from '../../../lambdas/core/documents/workflow';
import { supplierKeys } from '../../../lambdas/core/recognition/layout-keys';
import type { StoredSupplierLayout } from '../../../lambdas/core/recognition/ports';
import { seededDocument } from '../../support/document-records';
import { liveRecorder, memoryAccounts, MemoryDocuments, MemoryFiles, memoryLayouts, warningsLog } from './fakes';

const SUPPLIER = { vat_id: 'LT100001919017', code: '300001919', name: 'UAB Kita', printed_name: 'KITA UAB PARDUOTUVE' };

function setup() {
  const clock = { now: () => new Date('2024-06-01T10:00:00Z') };
  const ids = { newId: () => ulid() };
  const company = newCompanyRecord({ name: 'Acme', code: '1' }, { id: 'u1', name: 'Test', surname: 'User', email: 'u@x' }, ids, clock);
  const documents = new MemoryDocuments();
  const layouts = memoryLayouts();
  const files = new MemoryFiles();
  const log = warningsLog();
  const deps: DeleteDeps = { documents, files, store: memoryAccounts(company), live: liveRecorder(), clock, ids, layouts, log };
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
  const file = (key: string) => files.objects.set(key, { bytes: new Uint8Array([1]), etag: key });
  /** The sweeper's run at `minutes` after the delete's time. */
  const sweepAt = (minutes: number) =>
    sweepLeftovers({ documents, files, layouts, log, clock: { now: () => new Date(clock.now().getTime() + minutes * 60_000) } });
  return { deps, documents, files, log, layouts, add, file, layout, sweepAt, companyId, caller: { userId: 'u1', companyId } };
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

describe('a deleted document forgets the layout it taught, whatever supplier it names now', () => {
  it('a document whose supplier was changed after its confirm (unarchived, not confirmed again) forgets the first supplier\'s layout', async () => {
    const { deps, layouts, add, layout, companyId, caller } = setup();
    add('moved', { counterparty_name: 'UAB Trecias', counterparty_code: undefined, counterparty_vat_id: undefined });
    await layouts.put(companyId, supplierKeys(SUPPLIER), layout('moved', '2024-05-01T00:00:00.000Z'));
    await layouts.put(companyId, [{ kind: 'NAME', value: 'TRECIAS' }], layout('another', '2024-05-02T00:00:00.000Z'));
    await deleteDocument(deps, caller, 'moved');
    expect(await layouts.find(companyId, supplierKeys(SUPPLIER))).toEqual([]);
    expect((await layouts.find(companyId, [{ kind: 'NAME', value: 'TRECIAS' }])).map((l) => l.source_receipt_id)).toEqual(['another']);
  });
});

describe('a delete whose cleanup fails still answers that the document is deleted', () => {
  const graceMinutes = LEFTOVERS_GRACE_MS / 60_000;

  it('a clean delete removes history, files and layout at once and leaves nothing written down', async () => {
    const { deps, documents, files, layouts, add, file, layout, companyId, caller } = setup();
    add('d1', { content_key: 'documents/d1/content-1.json', source: { key: 'uploads/c/u1', mime: 'application/pdf', size: 1, sha256: 'h', file_hash: 'h', etag: 'e', kind: 'pdf' } });
    ['documents/d1/content-1.json', 'documents/d1/page-1.png', 'uploads/c/u1', 'documents/d2/page-1.png'].forEach(file);
    documents.historyItems.push({ receipt_id: 'd1', id: 'h1', date: '2024-05-01T00:00:00.000Z', name: 'Uploaded', user: { name: 'T', surname: 'U' }, user_id: 'u1' });
    await layouts.put(companyId, supplierKeys(SUPPLIER), layout('d1', '2024-05-01T00:00:00.000Z'));
    await expect(deleteDocument(deps, caller, 'd1')).resolves.toEqual({ deleted: true, receipt_id: 'd1' });
    expect([...files.objects.keys()]).toEqual(['documents/d2/page-1.png']);
    expect(await documents.history('d1')).toEqual([]);
    expect(documents.exportMarkersDeleted).toEqual(['d1']);
    expect(await layouts.find(companyId, supplierKeys(SUPPLIER))).toEqual([]);
    expect(documents.leftoverItems.size).toBe(0);
  });

  it('files the storage refused stay written down, the rest goes at once, and the sweeper removes them after the grace', async () => {
    const { deps, documents, files, log, add, file, sweepAt, caller } = setup();
    add('d1');
    file('documents/d1/page-1.png');
    documents.historyItems.push({ receipt_id: 'd1', id: 'h1', date: '2024-05-01T00:00:00.000Z', name: 'Uploaded', user: { name: 'T', surname: 'U' }, user_id: 'u1' });
    vi.spyOn(files, 'deletePrefix').mockRejectedValueOnce(new Error('SlowDown'));
    await expect(deleteDocument(deps, caller, 'd1')).resolves.toEqual({ deleted: true, receipt_id: 'd1' });
    expect(documents.docs.has('d1')).toBe(false);
    expect(await documents.history('d1')).toEqual([]);
    expect(files.objects.has('documents/d1/page-1.png')).toBe(true);
    expect(documents.leftoverItems.get('d1')).toMatchObject({ receipt_id: 'd1', prefixes: [documentKeys.prefix('d1')], deleted_at: '2024-06-01T10:00:00.000Z' });
    expect(log.warnings).toEqual([expect.objectContaining({ data: expect.objectContaining({ receipt_id: 'd1', what: 'files', error: 'Error: SlowDown' }) })]);
    // A delete this recent is the request's to finish.
    await expect(sweepAt(graceMinutes - 1)).resolves.toEqual({ cleared: 0, left: 0 });
    expect(files.objects.has('documents/d1/page-1.png')).toBe(true);
    await expect(sweepAt(graceMinutes + 1)).resolves.toEqual({ cleared: 1, left: 0 });
    expect(files.objects.size).toBe(0);
    expect(documents.leftoverItems.size).toBe(0);
  });

  it('live events that fail after the commit do not keep the leftovers from being removed', async () => {
    const { deps, documents, files, add, file, caller } = setup();
    add('d1');
    file('documents/d1/page-1.png');
    vi.spyOn(deps.live, 'publish').mockRejectedValueOnce(new Error('GoneException'));
    await expect(deleteDocument(deps, caller, 'd1')).rejects.toThrow('GoneException');
    expect(documents.docs.has('d1')).toBe(false);
    expect(files.objects.size).toBe(0);
    expect(documents.leftoverItems.size).toBe(0);
  });

  it('a layout the store failed to forget is forgotten by the sweeper; a sweep that fails again keeps it for the next run', async () => {
    const { deps, documents, layouts, add, layout, sweepAt, companyId, caller } = setup();
    add('d1');
    const keys = supplierKeys(SUPPLIER);
    await layouts.put(companyId, keys, layout('d1', '2024-05-01T00:00:00.000Z'));
    const forget = vi.spyOn(layouts, 'forget').mockRejectedValueOnce(new Error('ProvisionedThroughputExceeded')).mockRejectedValueOnce(new Error('ProvisionedThroughputExceeded'));
    await deleteDocument(deps, caller, 'd1');
    expect(await layouts.find(companyId, keys)).toHaveLength(1);
    await expect(sweepAt(graceMinutes + 1)).resolves.toEqual({ cleared: 0, left: 1 });
    expect(documents.leftoverItems.get('d1')).toMatchObject({
      taught: { receipt_id: 'd1', company_id: companyId, counterparty_vat_id: SUPPLIER.vat_id },
      // put behind the others: due again a grace after that sweep
      retry_at: '2024-06-01T10:11:00.000Z',
      attempts: 1,
    });
    await expect(sweepAt(graceMinutes + 5)).resolves.toEqual({ cleared: 0, left: 0 });
    await expect(sweepAt(graceMinutes + 31)).resolves.toEqual({ cleared: 1, left: 0 });
    expect(forget).toHaveBeenCalledTimes(3);
    expect(await layouts.find(companyId, keys)).toEqual([]);
  });

  it('a combine writes down the other document\'s unused files, not its pages, and forgets what it taught', async () => {
    const { deps, documents, files, layouts, add, file, layout, companyId, caller } = setup();
    const page = (receipt: string) => ({ page: 1, document: 'file.pdf', image_key: `documents/${receipt}/page-1.png`, status: 'processed' as const, width: 100, height: 100 });
    add('keep', { status: 'review', pages: [page('keep')] });
    add('other', { status: 'review', pages: [page('other')], content_key: 'documents/other/content-1.json' });
    ['documents/keep/page-1.png', 'documents/other/page-1.png', 'documents/other/content-1.json'].forEach(file);
    await layouts.put(companyId, supplierKeys(SUPPLIER), layout('other', '2024-05-01T00:00:00.000Z'));
    vi.spyOn(files, 'delete').mockRejectedValueOnce(new Error('InternalError'));
    await expect(combineDocuments(deps, caller, 'keep', 'other')).resolves.toMatchObject({ receipt_id: 'keep' });
    expect(documents.leftoverItems.get('other')).toMatchObject({ receipt_id: 'other', deleted_at: '2024-06-01T10:00:00.000Z', files: ['documents/other/content-1.json'], prefixes: [], taught: { receipt_id: 'other' } });
    expect(files.objects.has('documents/other/page-1.png')).toBe(true);
    expect(await layouts.find(companyId, supplierKeys(SUPPLIER))).toEqual([]);
  });
});

describe('an unassigned document given a company moves its history after the commit', () => {
  const graceMinutes = LEFTOVERS_GRACE_MS / 60_000;
  const uploaded = { receipt_id: 'u-doc', id: 'h1', date: '2024-05-01T00:00:00.000Z', name: 'Uploaded', user: { name: 'T', surname: 'U' }, user_id: 'u1' };

  function unassigned() {
    const s = setup();
    s.add('u-doc', { scope: userScope('u1'), company_id: null, status: 'unassigned', counterparty_name: '', counterparty_code: '', counterparty_vat_id: '' });
    s.documents.historyItems.push(uploaded);
    /** The new document and whether its reading was started (its processing ticket written). */
    const started = (id: string) => {
      const doc = s.documents.docs.get(id)!;
      return { status: doc.status, ticket: s.files.objects.has(processTicketKey(id, doc.processing_run)) };
    };
    return { ...s, started };
  }

  it('the history is under the new id at once and nothing is written down', async () => {
    const { deps, documents, started, companyId, caller } = unassigned();
    const { receipt_id: newId } = await selectCompany(deps, caller, 'u-doc', companyId);
    expect((await documents.history(newId)).map((h) => h.name).sort()).toEqual(['Company selected: Acme', 'Uploaded']);
    expect(await documents.history('u-doc')).toEqual([]);
    expect(documents.exportMarkersDeleted).toEqual(['u-doc']);
    expect(documents.leftoverItems.size).toBe(0);
    expect(started(newId)).toEqual({ status: 'processing', ticket: true });
  });

  it('a history the table refused to copy stays under the old id, the document is still read, and the sweeper moves it', async () => {
    const { deps, documents, log, started, sweepAt, companyId, caller } = unassigned();
    vi.spyOn(documents, 'copyHistory').mockRejectedValueOnce(new Error('ProvisionedThroughputExceeded'));
    const { receipt_id: newId } = await selectCompany(deps, caller, 'u-doc', companyId);
    expect(started(newId)).toEqual({ status: 'processing', ticket: true });
    // Nothing was deleted that was not copied.
    expect(await documents.history('u-doc')).toEqual([uploaded]);
    expect(documents.leftoverItems.get('u-doc')).toMatchObject({ receipt_id: 'u-doc', history_to: newId, files: [], prefixes: [] });
    expect(documents.leftoverItems.get('u-doc')?.taught).toBeUndefined();
    expect(log.warnings).toEqual([expect.objectContaining({ data: expect.objectContaining({ receipt_id: 'u-doc', what: 'history' }) })]);
    await expect(sweepAt(graceMinutes + 1)).resolves.toEqual({ cleared: 1, left: 0 });
    expect((await documents.history(newId)).map((h) => h.name).sort()).toEqual(['Company selected: Acme', 'Uploaded']);
    expect(await documents.history('u-doc')).toEqual([]);
    expect(documents.leftoverItems.size).toBe(0);
  });

  it('a history copied but not deleted is copied again without doubles by the sweeper', async () => {
    const { deps, documents, sweepAt, companyId, caller } = unassigned();
    vi.spyOn(documents, 'deleteHistory').mockRejectedValueOnce(new Error('InternalServerError'));
    const { receipt_id: newId } = await selectCompany(deps, caller, 'u-doc', companyId);
    expect(await documents.history('u-doc')).toEqual([uploaded]);
    await expect(sweepAt(graceMinutes + 1)).resolves.toEqual({ cleared: 1, left: 0 });
    expect((await documents.history(newId)).map((h) => h.name).sort()).toEqual(['Company selected: Acme', 'Uploaded']);
    expect(await documents.history('u-doc')).toEqual([]);
  });
});
