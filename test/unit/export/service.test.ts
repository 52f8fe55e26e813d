import { describe, expect, it } from 'vitest';
import type { ContentPorts, StoredContent } from '../../../lambdas/core/content/ports';
import type { DocumentRecord } from '../../../lambdas/core/documents/types';
import { canSee } from '../../../lambdas/core/documents/workflow';
import { exportReceipts } from '../../../lambdas/core/export/service';
import { notFound } from '../../../shared/errors';
import { seededDocument } from '../../support/document-records';
import { exportDoc } from '../integrations/fixtures';

function record(id: string, overrides: Partial<DocumentRecord> = {}): DocumentRecord {
  return seededDocument({
    receipt_id: id,
    scope: 'C#c1',
    created_at: '2025-05-01T10:00:00.000Z',
    company_name: 'Mano UAB',
    company_code: '300000001',
    user_id: 'u1',
    user: { name: 'Ona', surname: 'Onaitė' },
    original_file_name: `${id}.pdf`,
    currency: null,
    process_rows: false,
    ...overrides,
  });
}

/** Read-only ports with the access rules of the real ones (content-ports.ts): another company's or a missing document is not there. */
function fakePorts(records: DocumentRecord[], contents: Record<string, StoredContent> = {}): ContentPorts {
  const byId = new Map(records.map((r) => [r.receipt_id, r]));
  const unused = () => Promise.reject(new Error('not used by exports'));
  return {
    clock: { now: () => new Date('2026-02-01T12:00:00Z') },
    documents: {
      async load(caller, id) {
        const r = byId.get(id);
        if (!canSee(r, caller)) throw notFound('Document not found');
        return structuredClone(r);
      },
      // As a DynamoDB batch read: in no particular order (here the store's), the unseen ones left out.
      async loadMany(caller, ids) {
        return [...byId.values()].filter((r) => ids.includes(r.receipt_id) && canSee(r, caller)).map((r) => structuredClone(r));
      },
      saveContent: unused,
    },
    blobs: { readContent: async (key) => contents[key], writeContent: unused, readBoxes: async () => undefined, writeBoxes: unused },
    settings: { getSchemaOverrides: async () => ({}), readSchemaOverrides: unused, putSchemaOverrides: unused, getGridTemplate: async () => undefined, putGridTemplate: unused, getCompany: async () => undefined },
  };
}

const caller = { userId: 'u1', companyId: 'c1' };
const invoicesIn = (xml: string) => xml.match(/<Invoice>/g)?.length ?? 0;

/** The stored content of a document with an issue date, as i.SAF needs. */
const datedContent = { 'c/dated.json': { format: 'content/v1' as const, items: exportDoc({ fields: { issue_date: '2025-05-01' } }).content.items, seq: 1 } };
const dated = { content_key: 'c/dated.json' };

describe('export service: documents asked for', () => {
  const ports = fakePorts([record('r1', dated), record('r2', dated), record('r3', dated), record('theirs', { company_id: 'c2', scope: 'C#c2', ...dated })], datedContent);

  it('exports every document asked for, in the order asked', async () => {
    const file = await exportReceipts(ports, caller, 'r1', { type: 'isaf', receipt_ids: 'r3,r2' });
    expect(invoicesIn(Buffer.from(file.base64, 'base64').toString('utf8'))).toBe(3);
    const csv = Buffer.from((await exportReceipts(ports, caller, 'r1', { type: 'csv', receipt_ids: 'r3,r2', fields: 'file:File' })).base64, 'base64').toString('utf8');
    expect(csv.replace(/^\uFEFF/, '').split('\r\n')).toEqual(['FILE', 'r1.pdf', 'r3.pdf', 'r2.pdf', '']);
  });

  it('reads the documents asked for together: each record once, the company’s fields once', async () => {
    const counted = fakePorts([record('r1', dated), record('r2', dated), record('r3', dated)], datedContent);
    const calls = { load: 0, loadMany: 0, schema: 0, content: 0 };
    const { load, loadMany } = counted.documents;
    counted.documents.load = (c, id) => (calls.load++, load(c, id));
    counted.documents.loadMany = (c, ids) => (calls.loadMany++, loadMany(c, ids));
    counted.settings.getSchemaOverrides = async () => (calls.schema++, {});
    const readContent = counted.blobs.readContent;
    counted.blobs.readContent = (key) => (calls.content++, readContent(key));
    const file = await exportReceipts(counted, caller, 'r1', { type: 'isaf', receipt_ids: 'r3,r2' });
    expect(invoicesIn(Buffer.from(file.base64, 'base64').toString('utf8'))).toBe(3);
    // The first document as any single one (its 404 first), the others in one batch read; one read of the fields a
    // company, and each document's content once.
    expect(calls).toEqual({ load: 1, loadMany: 1, schema: 1, content: 3 });
  });

  it('names each document’s company as Settings has it now, read once per company; a company gone keeps the upload’s', async () => {
    const renamed = fakePorts([record('r1', dated), record('r2', dated)], datedContent);
    let companyReads = 0;
    renamed.settings.getCompany = async (id) => (companyReads++, id === 'c1' ? { name: 'Mano Grupė UAB', code: '300000009' } : undefined);
    const csv = await exportReceipts(renamed, caller, 'r1', { type: 'csv', receipt_ids: 'r2', fields: 'file:File,company:Company,company_code:Company code' });
    expect(Buffer.from(csv.base64, 'base64').toString('utf8').replace(/^\uFEFF/, '').split('\r\n')).toEqual([
      'FILE,COMPANY,COMPANY CODE',
      'r1.pdf,Mano Grupė UAB,300000009',
      'r2.pdf,Mano Grupė UAB,300000009',
      '',
    ]);
    expect(companyReads).toBe(1);
    // The i.SAF register's reporting company is the company's code now.
    const isaf = Buffer.from((await exportReceipts(renamed, caller, 'r1', { type: 'isaf' })).base64, 'base64').toString('utf8');
    expect(isaf).toContain('<RegistrationNumber>300000009</RegistrationNumber>');
    // A company no longer there (deleted): the name and code the document kept.
    renamed.settings.getCompany = async () => undefined;
    const kept = await exportReceipts(renamed, caller, 'r1', { type: 'csv', fields: 'company:Company,company_code:Company code' });
    expect(Buffer.from(kept.base64, 'base64').toString('utf8').replace(/^\uFEFF/, '').split('\r\n')[1]).toBe('Mano UAB,300000001');
  });

  it('answers 404 Document not found when any document asked for is missing or another company’s, first or later', async () => {
    const refused = { kind: 'NotFound', statusCode: 404, message: 'Document not found' };
    // A deleted (missing) or another company's document among the others: no file with the rest.
    await expect(exportReceipts(ports, caller, 'r1', { type: 'isaf', receipt_ids: 'r2,gone' })).rejects.toMatchObject(refused);
    await expect(exportReceipts(ports, caller, 'r1', { type: 'isaf', receipt_ids: 'theirs,r2' })).rejects.toMatchObject(refused);
    await expect(exportReceipts(ports, caller, 'r1', { type: 'csv', receipt_ids: 'r2,gone' })).rejects.toMatchObject(refused);
    // The same answer when it is the first one.
    await expect(exportReceipts(ports, caller, 'gone', { type: 'isaf', receipt_ids: 'r1,r2' })).rejects.toMatchObject(refused);
  });

  it('refuses an i.SAF file of a document in another currency with a 422 naming it', async () => {
    const usd = exportDoc({ fields: { document_id: 'US-1', issue_date: '2025-06-10', supplier_name: 'Seller Inc', amount_total: '121.00', amount_tax: '21.00', currency: 'USD' } });
    const withUsd = fakePorts([record('r1', dated), record('r2', { content_key: 'c/r2.json', original_file_name: 'seller-inc.pdf' })], {
      ...datedContent,
      'c/r2.json': { format: 'content/v1', items: usd.content.items, seq: 1 },
    });
    await expect(exportReceipts(withUsd, caller, 'r1', { type: 'isaf', receipt_ids: 'r2' })).rejects.toMatchObject({
      kind: 'ValidationFailed',
      statusCode: 422,
      message: 'i.SAF amounts are in EUR: seller-inc.pdf is in another currency',
    });
    // The other formats carry the currency as it is.
    await expect(exportReceipts(withUsd, caller, 'r1', { type: 'xml', receipt_ids: 'r2' })).resolves.toMatchObject({ mime: 'application/xml' });
  });

  it('refuses an i.SAF file of a document without an issue date with a 422 naming it; the other formats export it', async () => {
    const undated = exportDoc({ fields: { document_id: 'ND-1', supplier_name: 'Seller UAB', amount_total: '121.00', amount_tax: '21.00' } });
    const withUndated = fakePorts([record('r1', dated), record('r2', { content_key: 'c/r2.json', original_file_name: 'nd-1.pdf' })], {
      ...datedContent,
      'c/r2.json': { format: 'content/v1', items: undated.content.items, seq: 1 },
    });
    await expect(exportReceipts(withUndated, caller, 'r1', { type: 'isaf', receipt_ids: 'r2' })).rejects.toMatchObject({
      kind: 'ValidationFailed',
      statusCode: 422,
      message: 'i.SAF needs an issue date: nd-1.pdf has no issue date',
      details: [{ path: ['r2', 'issue_date'], message: 'The document has no issue date' }],
    });
    await expect(exportReceipts(withUndated, caller, 'r1', { type: 'csv', receipt_ids: 'r2' })).resolves.toMatchObject({ mime: 'text/csv' });
  });
});
