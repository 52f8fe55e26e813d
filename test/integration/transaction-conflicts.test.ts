/**
 * Real DynamoDB cancels overlapping transactions (TransactionConflict) where the local stand-in would wait:
 * here the stand-in answers conflicts as DynamoDB does, and uploads (request, document creation in the job,
 * recognition's status change) still succeed, because the conflicts are retried.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredUser, startTestStack, uploadDocument, type TestStack } from '../support/local-stack';

async function invoicePdf(number: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  ['UAB Conflict Supplies', `Invoice No. ${number}`, 'Date 2024-03-05', 'Total EUR 12.10'].forEach((line, i) =>
    page.drawText(line, { x: 50, y: 780 - i * 24, size: 14, font }),
  );
  return doc.save();
}

type Row = { receipt_id: string; status: string; original_file_name: string };

describe('transaction conflicts', () => {
  let t: TestStack;
  beforeAll(async () => {
    t = await startTestStack();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('an upload succeeds through TransactionConflict cancellations of its request and of its job', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'conflict');
    const before = t.stack.dynamo.conflicts.conflictsAnswered;
    // The reservation of the upload request is cancelled twice …
    t.stack.dynamo.conflicts.injectConflicts(2);
    const { request, put } = await uploadDocument(api, { company_id: companyId, original_file_name: 'c1.pdf', content_type: 'application/pdf' }, await invoicePdf('C-1'));
    expect(request.status).toBe(200);
    expect(t.stack.dynamo.conflicts.conflictsAnswered - before).toBe(2);
    // … and the job's creation of the document twice more (its first transactions after the PUT).
    t.stack.dynamo.conflicts.injectConflicts(2);
    expect(put!.status).toBe(200);
    await t.stack.jobs.idle();
    expect(t.stack.dynamo.conflicts.conflictsAnswered - before).toBe(4);
    expect(t.stack.jobs.deadLetters).toHaveLength(0);
    const rows = ((await api.get(`/receipts?company_id=${companyId}`)).body as { items: Row[] }).items;
    expect(rows.map((r) => [r.original_file_name, r.status])).toEqual([['c1.pdf', 'review']]);
  });

  it('three parallel uploads of one company all succeed while every overlapping transaction is cancelled', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'parallel');
    const files = await Promise.all(['P-1', 'P-2', 'P-3'].map(invoicePdf));
    t.stack.dynamo.conflicts.simulation.overlap = true;
    try {
      const results = await Promise.all(
        files.map((bytes, i) => uploadDocument(api, { company_id: companyId, original_file_name: `p${i + 1}.pdf`, content_type: 'application/pdf' }, bytes)),
      );
      expect(results.map((r) => [r.request.status, r.put?.status])).toEqual([
        [200, 200],
        [200, 200],
        [200, 200],
      ]);
      await t.stack.jobs.idle();
    } finally {
      t.stack.dynamo.conflicts.simulation.overlap = false;
    }
    const rows = ((await api.get(`/receipts?company_id=${companyId}`)).body as { items: Row[] }).items;
    expect(rows.map((r) => r.status).sort()).toEqual(['review', 'review', 'review']);
    const counts = (await api.get(`/receipts/total-documents?company_id=${companyId}`)).body as Record<'receipt', Record<string, number>>;
    expect(counts.receipt).toMatchObject({ processing: 0, review: 3 });
    const companies = (await api.get('/companies')).body as { items: { company_id: string; used_documents: number }[] };
    expect(companies.items.find((c) => c.company_id === companyId)!.used_documents).toBe(3);
  });
});
