/**
 * A document written by someone else between the workflow's read and its write (the commit's version condition
 * fails): without a version from the client the change is made again from a fresh read, keeping the other write;
 * with the version the client saw, the call is refused with 409 and the current version; after three such races in a
 * row, too. Edits (the flag), deletions and combining share this rule.
 */
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { newCompanyRecord } from '../../../lambdas/core/accounts/companies';
import { companyScope, type DocumentChange, type DocumentRecord } from '../../../lambdas/core/documents/types';
import { combineDocuments, deleteDocument, setDocumentFields, setFlag, type DeleteDeps } from '../../../lambdas/core/documents/workflow';
import { seededDocument } from '../../support/document-records';
import { liveRecorder, memoryAccounts, MemoryDocuments, MemoryFiles, memoryLayouts, warningsLog } from './fakes';

/** A store where, before each of the next `races` commits, another writer changes the document the commit changes. */
class RacingDocuments extends MemoryDocuments {
  races = 0;
  /** What the other writer does to the document (by default it writes its notes). */
  other = (doc: DocumentRecord): DocumentRecord => ({ ...doc, notes: 'written by someone else' });
  override async commit(change: DocumentChange) {
    if (this.races > 0) {
      this.races -= 1;
      const id = change.updates[0]?.before.receipt_id ?? change.deletes[0]!.receipt_id;
      const doc = this.docs.get(id)!;
      this.docs.set(id, { ...this.other(doc), version: doc.version + 1 });
    }
    return super.commit(change);
  }
}

function setup() {
  const clock = { now: () => new Date('2024-06-01T10:00:00Z') };
  const ids = { newId: () => ulid() };
  const company = newCompanyRecord({ name: 'Acme', code: '1' }, { id: 'u1', name: 'Test', surname: 'User', email: 'u@x' }, ids, clock);
  const documents = new RacingDocuments();
  const deps: DeleteDeps = { documents, files: new MemoryFiles(), store: memoryAccounts(company), live: liveRecorder(), clock, ids, layouts: memoryLayouts(), log: warningsLog() };
  const add = (id: string) => documents.docs.set(id, seededDocument({ receipt_id: id, scope: companyScope(company.company_id), created_at: '2024-05-01T00:00:00.000Z' }));
  return { deps, documents, add, caller: { userId: 'u1', companyId: company.company_id } };
}

describe('documents written by someone else meanwhile', () => {
  it('an edit without a version is made again on the fresh document, keeping the other write', async () => {
    const { deps, documents, add, caller } = setup();
    add('d1');
    documents.races = 1;
    const summary = await setFlag(deps, caller, 'd1', true);
    expect(summary).toMatchObject({ flag: true, version: 3 });
    expect(documents.docs.get('d1')).toMatchObject({ flag: true, notes: 'written by someone else', version: 3 });
  });

  it("notes or a category written without a version that meet a colleague's Archive are refused as read-only, not written on the archived document", async () => {
    const { deps, documents, add, caller } = setup();
    add('d1');
    documents.other = (doc) => ({ ...doc, status: 'archive' });
    documents.races = 1;
    await expect(setDocumentFields(deps, caller, 'd1', { notes: 'typed just now' }, 'Notes changed')).rejects.toMatchObject({ statusCode: 409, message: 'Archived documents are read-only' });
    expect(documents.docs.get('d1')).toMatchObject({ status: 'archive', notes: '', version: 2 });
    documents.races = 0;
    await expect(setDocumentFields(deps, caller, 'd1', { category_id: 'c1', category: 'Fuel' }, 'Category: Fuel')).rejects.toMatchObject({ statusCode: 409 });
    expect(documents.docs.get('d1')!.category_id ?? null).toBeNull();
    expect(documents.docs.get('d1')!.version).toBe(2);
  });

  it('an edit with the version the client saw is refused with 409 and the current version; nothing of it is written', async () => {
    const { deps, documents, add, caller } = setup();
    add('d1');
    documents.races = 1;
    await expect(setFlag(deps, caller, 'd1', true, 1)).rejects.toMatchObject({ statusCode: 409, details: { version: 2 } });
    expect(documents.docs.get('d1')).toMatchObject({ flag: false, version: 2 });
  });

  it('gives up after three races in a row with 409 and the current version', async () => {
    const { deps, documents, add, caller } = setup();
    add('d1');
    documents.races = 3;
    await expect(setFlag(deps, caller, 'd1', true)).rejects.toMatchObject({ statusCode: 409, details: { version: 4 } });
    expect(documents.docs.get('d1')).toMatchObject({ flag: false, version: 4 });
  });

  it('a deletion and a combination are made again the same way', async () => {
    const { deps, documents, add, caller } = setup();
    add('d1');
    add('d2');
    add('d3');
    documents.races = 1;
    await expect(deleteDocument(deps, caller, 'd1')).resolves.toEqual({ deleted: true, receipt_id: 'd1' });
    expect(documents.docs.has('d1')).toBe(false);
    documents.races = 1;
    await expect(combineDocuments(deps, caller, 'd2', 'd3')).resolves.toMatchObject({ receipt_id: 'd2', version: 3 });
    expect(documents.docs.has('d3')).toBe(false);
    expect(documents.docs.get('d2')).toMatchObject({ notes: 'written by someone else', related_documents: [{ receipt_id: 'd3' }] });
    documents.races = 1;
    add('d4');
    await expect(deleteDocument(deps, caller, 'd4', 1)).rejects.toMatchObject({ statusCode: 409, details: { version: 2 } });
    expect(documents.docs.has('d4')).toBe(true);
  });
});
