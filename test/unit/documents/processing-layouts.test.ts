/** The processing job applies the layouts its company learnt, with in-memory ports (see processing.test.ts). */
import { PDFDocument } from 'pdf-lib';
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { newCompanyRecord } from '../../../lambdas/core/accounts/companies';
import { handleObjectCreated } from '../../../lambdas/core/documents/intake';
import type { ProcessingDeps } from '../../../lambdas/core/documents/processing';
import { requestUpload } from '../../../lambdas/core/documents/upload';
import { blocksToDocument, toAnalyzeExpenseResult } from '../../../lambdas/core/recognition/expense';
import { extractDocument } from '../../../lambdas/core/recognition/extract/index';
import { learnLayout } from '../../../lambdas/core/recognition/learn';
import { supplierKeys } from '../../../lambdas/core/recognition/layout-keys';
import type { AnalyzeExpenseResult } from '../../../lambdas/core/recognition/types';
import { uploadDocumentQuerySchema } from '../../../shared/schemas/receipts';
import { textDocument } from '../recognition/helpers';
import { fakeRenderer, liveRecorder, memoryAccounts, MemoryDocuments, MemoryFiles, memoryLayouts, noOfficeConverter, scriptedRecogniser } from './fakes';
import { FakeMasterDataStore } from '../../support/fake-master-data-store';

/** A supplier that prints its number after "Our ref" and its dates month first. */
const FIRST = ['ACME TRADING UAB', 'VAT ID: LT119511515', '', 'Order No.: PO-1        Date: 03/04/2024', 'Our ref: HF-100', '', 'TOTAL                  99.10'];
const NEXT = ['ACME TRADING UAB', 'VAT ID: LT119511515', '', 'Order No.: PO-2        Date: 05/07/2024', 'Our ref: HF-200', '', 'TOTAL                  15.00'];

function answer(lines: string[]): AnalyzeExpenseResult {
  const doc = textDocument(lines);
  return toAnalyzeExpenseResult(doc, extractDocument(doc));
}

const learnt = () => {
  const words = blocksToDocument(answer(FIRST)).pages.flatMap((p) => p.lines.flatMap((l) => l.words));
  return learnLayout({ supplier_name: 'ACME TRADING UAB', supplier_vat_id: 'LT119511515', document_id: 'HF-100', issue_date: '2024-03-04', amount_total: '99.10' }, words);
};

async function setup(opts: { failing?: boolean } = {}) {
  const clock = { now: () => new Date('2026-06-01T10:00:00Z') };
  const ids = { newId: () => ulid() };
  const company = { ...newCompanyRecord({ name: 'Mano', code: '300000001' }, { id: 'u1', name: 'Test', surname: 'User', email: 'u@x' }, ids, clock), available_documents: 10 };
  const documents = new MemoryDocuments();
  const files = new MemoryFiles();
  const live = liveRecorder();
  const store = memoryAccounts(company);
  const layouts = memoryLayouts(opts);
  const warnings: string[] = [];
  const deps: ProcessingDeps = {
    documents,
    files,
    store,
    live,
    clock,
    ids,
    layouts,
    masterData: new FakeMasterDataStore(),
    schemas: { getSchemaOverrides: async () => ({}) },
    renderer: fakeRenderer,
    office: noOfficeConverter,
    recogniser: async () => scriptedRecogniser(answer(NEXT)),
    log: { info: () => undefined, warn: (msg) => void warnings.push(msg) },
  };
  const pdf = await PDFDocument.create();
  pdf.addPage();
  const bytes = await pdf.save();
  const process = async (q: { company_id: string; receipt_type?: 'receipt' | 'invoice' }) => {
    const query = uploadDocumentQuerySchema.parse({ ...q, original_file_name: 'next.pdf', size: String(bytes.length) });
    const caller = { userId: 'u1', companyId: q.company_id === 'NONE' ? undefined : company.company_id, role: 'admin' as const };
    const res = await requestUpload({ documents, files, store, live, clock, ids }, caller, query);
    await files.put(res.key, bytes, 'application/pdf');
    await handleObjectCreated(deps, { key: res.key }, { final: true });
    const [doc] = [...documents.docs.values()];
    return doc!;
  };
  return { company, layouts, warnings, process };
}

describe('processing with learnt supplier layouts', () => {
  it('without a learnt layout the plain extraction stands (the order number, the date day first)', async () => {
    const s = await setup();
    const doc = await s.process({ company_id: s.company.company_id });
    expect(doc).toMatchObject({ status: 'review', document_number: 'PO-2', issue_date: '2024-07-05', total: '15.00' });
    // One look-up, by the recognised supplier and the VAT IDs printed on the page.
    expect(s.layouts.lookups).toEqual([{ companyId: s.company.company_id, keys: [{ kind: 'VAT', value: 'LT119511515' }, { kind: 'NAME', value: 'ACME TRADING' }] }]);
  });

  it('applies the layout its company learnt for the supplier', async () => {
    const s = await setup();
    await s.layouts.put(s.company.company_id, supplierKeys({ vat_id: 'LT119511515' }), { hint: learnt(), source_receipt_id: 'r0', learned_at: '2026-05-01T00:00:00Z', learned_by: 'u1' });
    const doc = await s.process({ company_id: s.company.company_id });
    expect(doc).toMatchObject({ document_number: 'HF-200', issue_date: '2024-05-07', total: '15.00', counterparty_name: 'ACME TRADING UAB' });
  });

  it('does not apply another company\'s layout', async () => {
    const s = await setup();
    await s.layouts.put('another-company', supplierKeys({ vat_id: 'LT119511515', name: 'ACME TRADING UAB' }), { hint: learnt(), source_receipt_id: 'r0', learned_at: '2026-05-01T00:00:00Z', learned_by: 'u9' });
    const doc = await s.process({ company_id: s.company.company_id });
    expect(doc).toMatchObject({ document_number: 'PO-2', issue_date: '2024-07-05' });
  });

  it('goes on without layouts when the look-up fails, and says so in the log', async () => {
    const s = await setup({ failing: true });
    const doc = await s.process({ company_id: s.company.company_id });
    // Recognised as without learnt layouts (not failed, not retried).
    expect(doc).toMatchObject({ status: 'review', document_number: 'PO-2', issue_date: '2024-07-05', total: '15.00' });
    expect(s.warnings).toEqual(['learnt layouts not applied']);
  });

  it.each([
    // An unassigned document is not read at all until a company is chosen (docs/decisions.md, "Upload").
    ['an unassigned document (no company)', { company_id: 'NONE' }, 'unassigned', ''],
    ['a sales invoice', { receipt_type: 'invoice' as const }, 'review', 'PO-2'],
  ])('looks nothing up for %s', async (_name, q, status, number) => {
    const s = await setup();
    await s.layouts.put(s.company.company_id, supplierKeys({ vat_id: 'LT119511515' }), { hint: learnt(), source_receipt_id: 'r0', learned_at: '2026-05-01T00:00:00Z', learned_by: 'u1' });
    const doc = await s.process({ company_id: s.company.company_id, ...q });
    expect(doc.status).toBe(status);
    expect(doc.document_number).toBe(number);
    expect(s.layouts.lookups).toEqual([]);
  });
});
