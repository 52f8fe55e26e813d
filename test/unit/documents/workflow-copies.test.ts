/**
 * Copies of the same file (`duplicate_id` = the original) when their original goes away: a delete and a combine
 * both make the oldest copy the original and the other copies its copies, in the same commit, and each copy's
 * history says so. A flag that is already as asked writes nothing.
 */
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { newCompanyRecord } from '../../../lambdas/core/accounts/companies';
import { companyScope, type DocumentRecord } from '../../../lambdas/core/documents/types';
import { combineDocuments, deleteDocument, hashMarker, setFlag, type DeleteDeps } from '../../../lambdas/core/documents/workflow';
import { seededDocument } from '../../support/document-records';
import { liveRecorder, memoryAccounts, MemoryDocuments, MemoryFiles, memoryLayouts, warningsLog } from './fakes';

function setup() {
  const clock = { now: () => new Date('2024-06-01T10:00:00Z') };
  const ids = { newId: () => ulid() };
  const company = newCompanyRecord({ name: 'Acme', code: '1' }, { id: 'u1', name: 'Test', surname: 'User', email: 'u@x' }, ids, clock);
  const documents = new MemoryDocuments();
  const live = liveRecorder();
  const deps: DeleteDeps = { documents, files: new MemoryFiles(), store: memoryAccounts(company), live, clock, ids, layouts: memoryLayouts(), log: warningsLog() };
  const scope = companyScope(company.company_id);
  /** A document of file `hash` (a hash marker like the upload writes), uploaded on day `day` of May. */
  const add = (id: string, day: number, over: Partial<DocumentRecord> = {}) => {
    const doc = seededDocument({
      receipt_id: id,
      scope,
      created_at: `2024-05-${String(day).padStart(2, '0')}T00:00:00.000Z`,
      original_file_name: `${id}.pdf`,
      source: { key: `uploads/${id}.pdf`, file_hash: 'same-file' } as DocumentRecord['source'],
      ...over,
    });
    documents.docs.set(id, doc);
    const m = hashMarker(doc);
    if (m) {
      const key = `${m.kind}|${m.scope}|${m.value}`;
      if (!documents.markerItems.has(key)) documents.markerItems.set(key, new Set());
      documents.markerItems.get(key)!.add(id);
    }
  };
  const historyOf = (id: string) => documents.historyItems.filter((h) => h.receipt_id === id).map((h) => h.name);
  return { deps, documents, live, add, historyOf, caller: { userId: 'u1', companyId: company.company_id } };
}

describe('the copies of an original that goes away', () => {
  it('deleting an original records it in the copy history', async () => {
    const { deps, documents, add, historyOf, caller } = setup();
    add('orig', 1);
    add('copy1', 2, { duplicate_id: 'orig' });
    add('copy2', 3, { duplicate_id: 'orig' });
    await deleteDocument(deps, caller, 'orig');
    expect(documents.docs.get('copy1')).toMatchObject({ duplicate_id: null, version: 2 });
    expect(documents.docs.get('copy2')).toMatchObject({ duplicate_id: 'copy1', version: 2 });
    expect(historyOf('copy1')).toEqual(['Original deleted: this document is no longer a copy']);
    expect(historyOf('copy2')).toEqual(['Original deleted: now a copy of copy1.pdf']);
    expect(documents.historyItems.find((h) => h.receipt_id === 'copy1')).toMatchObject({ user_id: 'u1', user: { name: 'Test', surname: 'User' } });
  });

  it('combining an original into another document promotes its oldest copy in the same commit', async () => {
    const { deps, documents, live, add, historyOf, caller } = setup();
    add('orig', 1);
    add('copy1', 2, { duplicate_id: 'orig' });
    add('copy2', 3, { duplicate_id: 'orig' });
    add('target', 4, { source: null });
    const commits = documents.commits;
    await combineDocuments(deps, caller, 'target', 'orig');
    expect(documents.commits).toBe(commits + 1);
    expect(documents.docs.has('orig')).toBe(false);
    expect(documents.docs.get('copy1')).toMatchObject({ duplicate_id: null, version: 2 });
    expect(documents.docs.get('copy2')).toMatchObject({ duplicate_id: 'copy1', version: 2 });
    expect(historyOf('copy1')).toEqual(['Original combined into target.pdf: this document is no longer a copy']);
    expect(historyOf('copy2')).toEqual(['Original combined into target.pdf: now a copy of copy1.pdf']);
    expect(historyOf('target')).toEqual(['Combined with orig.pdf']);
    // The copies' lists learn of it as of any other edit.
    const updated = live.events.filter((e) => e.event === 'receipt-update').map((e) => (e.payload as { receipt_id: string }).receipt_id);
    expect(updated).toEqual(expect.arrayContaining(['copy1', 'copy2', 'target']));
  });

  it('combining an original into its own copy leaves the target an original, written once', async () => {
    const { deps, documents, add, historyOf, caller } = setup();
    add('orig', 1);
    add('copy1', 2, { duplicate_id: 'orig' });
    add('copy2', 3, { duplicate_id: 'orig' });
    await expect(combineDocuments(deps, caller, 'copy1', 'orig', 1)).resolves.toMatchObject({ receipt_id: 'copy1', version: 2, duplicate_id: null });
    expect(documents.docs.get('copy1')).toMatchObject({ duplicate_id: null, version: 2, related_documents: [{ receipt_id: 'orig' }] });
    expect(documents.docs.get('copy2')).toMatchObject({ duplicate_id: 'copy1', version: 2 });
    expect(historyOf('copy1')).toEqual(['Combined with orig.pdf']);
  });

  it('combining an original into a copy that is not the oldest points the target at the oldest copy', async () => {
    const { deps, documents, add, caller } = setup();
    add('orig', 1);
    add('copy1', 2, { duplicate_id: 'orig' });
    add('copy2', 3, { duplicate_id: 'orig' });
    await combineDocuments(deps, caller, 'copy2', 'orig');
    expect(documents.docs.get('copy1')).toMatchObject({ duplicate_id: null, version: 2 });
    expect(documents.docs.get('copy2')).toMatchObject({ duplicate_id: 'copy1', version: 2 });
  });
});

describe('a flag that is already as asked', () => {
  it.each([
    ['flagging a flagged document', true],
    ['unflagging an unflagged document', false],
  ])('%s keeps its version and history', async (_name, flag) => {
    const { deps, documents, live, add, historyOf, caller } = setup();
    add('d1', 1, { flag });
    const commits = documents.commits;
    await expect(setFlag(deps, caller, 'd1', flag, 1)).resolves.toMatchObject({ receipt_id: 'd1', flag, version: 1 });
    await expect(setFlag(deps, caller, 'd1', flag)).resolves.toMatchObject({ flag, version: 1 });
    expect(documents.commits).toBe(commits);
    expect(historyOf('d1')).toEqual([]);
    expect(live.events).toEqual([]);
  });

  it('a stale version or an archived document is still refused', async () => {
    const { deps, add, caller } = setup();
    add('d1', 1, { flag: true, version: 4 });
    add('d2', 2, { flag: true, status: 'archive' });
    await expect(setFlag(deps, caller, 'd1', true, 3)).rejects.toMatchObject({ statusCode: 409, details: { version: 4 } });
    await expect(setFlag(deps, caller, 'd2', true)).rejects.toMatchObject({ statusCode: 409, message: 'Archived documents are read-only' });
  });
});
