import type { TextractClient } from '@aws-sdk/client-textract';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { TextractRecogniser, TEXTRACT_PROBLEM_MSG } from '../../../lambdas/adapters/textract';
import { newCompanyRecord } from '../../../lambdas/core/accounts/companies';
import type { OfficeConverter } from '../../../lambdas/core/documents/ports';
import { handleObjectCreated } from '../../../lambdas/core/documents/intake';
import { failDocument, FAILED_MESSAGE, MAX_RECOGNISED_PAGES, pagesCappedMessage, POSSIBLE_DUPLICATE, READ_MAX_BYTES, REPLACED_MESSAGE, type ProcessingDeps } from '../../../lambdas/core/documents/processing';
import { requestUpload } from '../../../lambdas/core/documents/upload';
import { deleteDocument, restartDocument } from '../../../lambdas/core/documents/workflow';
import { companyScope } from '../../../lambdas/core/documents/types';
import { UNSUPPORTED_MESSAGE } from '../../../lambdas/core/recognition/file-type';
import type { AnalyzeExpenseResult, Recogniser, RecogniserInput } from '../../../lambdas/core/recognition/types';
import { uploadDocumentQuerySchema } from '../../../shared/schemas/receipts';
import { INVOICE_EN, officeFile, totals } from '../../fixtures/recognition/data';
import { fakeRenderer, liveRecorder, memoryAccounts, MemoryDocuments, MemoryFiles, memoryLayouts, noOfficeConverter, pdfOfficeConverter, scriptedRecogniser } from './fakes';
import { FakeMasterDataStore } from '../../support/fake-master-data-store';
import { seededDocument } from '../../support/document-records';
import type { SchemaOverrides } from '../../../lambdas/core/content/schema';

const RESULT: AnalyzeExpenseResult = {
  DocumentMetadata: { Pages: 1 },
  ExpenseDocuments: [
    {
      SummaryFields: [
        { Type: { Text: 'VENDOR_NAME', Confidence: 99 }, ValueDetection: { Text: 'ACME UAB', Confidence: 99 }, PageNumber: 1 },
        { Type: { Text: 'INVOICE_RECEIPT_ID', Confidence: 99 }, ValueDetection: { Text: 'INV-7', Confidence: 99 }, PageNumber: 1 },
        { Type: { Text: 'INVOICE_RECEIPT_DATE', Confidence: 99 }, ValueDetection: { Text: '2024-03-05', Confidence: 99 }, PageNumber: 1 },
        { Type: { Text: 'SUBTOTAL', Confidence: 99 }, ValueDetection: { Text: '100.00', Confidence: 99 }, PageNumber: 1 },
        { Type: { Text: 'TAX', Confidence: 99 }, ValueDetection: { Text: '21.00', Confidence: 99 }, PageNumber: 1 },
        { Type: { Text: 'TOTAL', Confidence: 99 }, ValueDetection: { Text: '121.00', Confidence: 99 }, PageNumber: 1 },
      ],
    },
  ],
};

/** RESULT with another document number. */
function numbered(number: string): AnalyzeExpenseResult {
  const [doc] = RESULT.ExpenseDocuments!;
  const fields = doc!.SummaryFields!.map((f) => (f.Type?.Text === 'INVOICE_RECEIPT_ID' ? { ...f, ValueDetection: { ...f.ValueDetection!, Text: number } } : f));
  return { ...RESULT, ExpenseDocuments: [{ ...doc!, SummaryFields: fields }] };
}

/** RESULT with another issue date. */
function dated(date: string): AnalyzeExpenseResult {
  const [doc] = RESULT.ExpenseDocuments!;
  const fields = doc!.SummaryFields!.map((f) => (f.Type?.Text === 'INVOICE_RECEIPT_DATE' ? { ...f, ValueDetection: { ...f.ValueDetection!, Text: date } } : f));
  return { ...RESULT, ExpenseDocuments: [{ ...doc!, SummaryFields: fields }] };
}

/** Reads INV-1, INV-2, … in turn: documents that are not copies of one another. */
function numberingRecogniser(): Recogniser {
  let n = 0;
  return { analyzeExpense: async () => numbered(`INV-${++n}`) };
}

async function pdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) doc.addPage().drawText(`Page ${i + 1}`, { x: 50, y: 700, size: 12, font });
  return doc.save();
}

async function setup(opts: { failures?: number; available?: number; recogniser?: Recogniser; office?: OfficeConverter; overrides?: SchemaOverrides; now?: string } = {}) {
  const clock = { now: () => new Date(opts.now ?? '2024-06-01T10:00:00Z') };
  const ids = { newId: () => ulid() };
  const company = { ...newCompanyRecord({ name: 'Acme', code: '1' }, { id: 'u1', name: 'Test', surname: 'User', email: 'u@x' }, ids, clock), available_documents: opts.available ?? 10 };
  const documents = new MemoryDocuments();
  const files = new MemoryFiles();
  const live = liveRecorder();
  const store = memoryAccounts(company);
  const rec = scriptedRecogniser(RESULT, opts.failures ?? 0);
  const deps: ProcessingDeps = {
    documents,
    files,
    store,
    live,
    clock,
    ids,
    layouts: memoryLayouts(),
    masterData: new FakeMasterDataStore(),
    schemas: { getSchemaOverrides: async (companyId) => (companyId === company.company_id ? (opts.overrides ?? {}) : {}) },
    renderer: fakeRenderer,
    office: opts.office ?? noOfficeConverter,
    recogniser: async () => opts.recogniser ?? rec,
    log: { info: () => undefined, warn: () => undefined },
  };
  const upload = async (name: string, bytes: Uint8Array, mode: 'single' | 'multiple' = 'single') => {
    const query = uploadDocumentQuerySchema.parse({ company_id: company.company_id, original_file_name: name, size: String(bytes.length || 1), type: mode });
    const res = await requestUpload({ documents, files, store, live, clock, ids }, { userId: 'u1', companyId: company.company_id, role: 'admin' }, query);
    await files.put(res.key, bytes, 'application/pdf');
    return res.key;
  };
  return { deps, documents, files, live, rec, company, upload, month: '2024-06' };
}

describe('processing job (core, with in-memory ports)', () => {
  it('turns one object into one document even when the event comes twice, also at the same time', async () => {
    const s = await setup();
    const key = await s.upload('inv.pdf', await pdf(1));
    await Promise.all([handleObjectCreated(s.deps, { key }, { final: false }), handleObjectCreated(s.deps, { key }, { final: false })]);
    await handleObjectCreated(s.deps, { key }, { final: false });
    const docs = [...s.documents.docs.values()];
    expect(docs).toHaveLength(1);
    expect(docs[0]).toMatchObject({ status: 'ready', counterparty_name: 'ACME UAB', document_number: 'INV-7', total: '121.00' });
    const counts = await s.documents.counts(companyScope(s.company.company_id));
    expect(counts.receipt).toMatchObject({ processing: 0, ready: 1 });
    expect(await s.documents.usage(s.company.company_id, s.month)).toEqual({ used_documents: 1, reserved_documents: 0, quota_taken: 1 });
    expect(s.live.events.filter((e) => e.event === 'receipt')).toHaveLength(1);
  });

  it('keeps a document out of ready while a field the company made required is empty, and names it', async () => {
    // Prepare: the company requires the bank code and the due date, and hides the IBAN (a hidden field is never required)
    const s = await setup({ overrides: { bank_code: { required: true }, due_date: { required: true }, iban: { hidden: true } } });
    // Act
    await handleObjectCreated(s.deps, { key: await s.upload('inv.pdf', await pdf(1)) }, { final: true });
    // Assess
    const [doc] = [...s.documents.docs.values()];
    expect(doc!.status).toBe('review');
    expect((await s.documents.history(doc!.receipt_id)).map((h) => h.name)).toContain('Recognised: to review (Due date missing (required by the company); Bank code missing (required by the company))');
    expect((await s.documents.counts(companyScope(s.company.company_id))).receipt).toMatchObject({ review: 1, ready: 0 });
  });

  it('a field the company only hides or makes optional leaves the ready rule as it is', async () => {
    const s = await setup({ overrides: { iban: { hidden: true }, currency: { required: false } } });
    await handleObjectCreated(s.deps, { key: await s.upload('inv.pdf', await pdf(1)) }, { final: true });
    expect([...s.documents.docs.values()].map((d) => d.status)).toEqual(['ready']);
  });

  it('takes a document dated today anywhere on earth as not in the future: only a date after today at UTC+14 is', async () => {
    // 23:30 UTC on 1 March is 01:30 on 2 March in Vilnius: a receipt of that night is dated 2 March.
    const now = '2026-03-01T23:30:00Z';
    const today = await setup({ now, recogniser: { analyzeExpense: async () => dated('2026-03-02') } });
    await handleObjectCreated(today.deps, { key: await today.upload('inv.pdf', await pdf(1)) }, { final: true });
    expect([...today.documents.docs.values()].map((d) => [d.issue_date, d.status])).toEqual([['2026-03-02', 'ready']]);
    // 3 March has not begun anywhere yet (13:30 on 2 March at UTC+14).
    const tomorrow = await setup({ now, recogniser: { analyzeExpense: async () => dated('2026-03-03') } });
    await handleObjectCreated(tomorrow.deps, { key: await tomorrow.upload('inv.pdf', await pdf(1)) }, { final: true });
    const [doc] = [...tomorrow.documents.docs.values()];
    expect([doc!.issue_date, doc!.status]).toEqual(['2026-03-03', 'review']);
    expect((await tomorrow.documents.history(doc!.receipt_id)).map((h) => h.name).join('\n')).toMatch(/issue date is in the future/i);
  });

  it('retries after a crash in the middle and then finishes', async () => {
    const s = await setup({ failures: 1 });
    const key = await s.upload('inv.pdf', await pdf(1));
    await expect(handleObjectCreated(s.deps, { key }, { final: false })).rejects.toThrow(/recogniser crashed/);
    const [stuck] = [...s.documents.docs.values()];
    expect(stuck!.status).toBe('processing');
    await handleObjectCreated(s.deps, { key }, { final: false });
    expect([...s.documents.docs.values()].map((d) => d.status)).toEqual(['ready']);
    expect((await s.documents.counts(companyScope(s.company.company_id))).receipt).toMatchObject({ processing: 0, ready: 1 });
  });

  it('ends in failed on the last delivery when the crash does not go away', async () => {
    const s = await setup({ failures: 99 });
    const key = await s.upload('inv.pdf', await pdf(1));
    await expect(handleObjectCreated(s.deps, { key }, { final: false })).rejects.toThrow();
    await expect(handleObjectCreated(s.deps, { key }, { final: false })).rejects.toThrow();
    await handleObjectCreated(s.deps, { key }, { final: true });
    const [doc] = [...s.documents.docs.values()];
    expect(doc).toMatchObject({ status: 'failed', error_message: FAILED_MESSAGE, can_be_restarted: true });
    expect((await s.documents.counts(companyScope(s.company.company_id))).receipt).toMatchObject({ processing: 0, failed: 1 });
  });

  it('splits a PDF in mode multiple into one document per page, charged at once', async () => {
    const s = await setup({ recogniser: numberingRecogniser() });
    const key = await s.upload('pages.pdf', await pdf(3), 'multiple');
    await handleObjectCreated(s.deps, { key }, { final: false });
    await handleObjectCreated(s.deps, { key }, { final: false });
    const docs = [...s.documents.docs.values()].sort((a, b) => a.split_page! - b.split_page!);
    expect(docs.map((d) => [d.split_page, d.status])).toEqual([
      [1, 'processing'],
      [2, 'processing'],
      [3, 'processing'],
    ]);
    expect(await s.documents.usage(s.company.company_id, s.month)).toEqual({ used_documents: 3, reserved_documents: 0, quota_taken: 3 });
    // Each page is processed by its own job, started by a ticket object.
    const tickets = [...s.files.objects.keys()].filter((k) => k.startsWith('jobs/process/'));
    expect(tickets).toHaveLength(3);
    for (const t of tickets) await handleObjectCreated(s.deps, { key: t }, { final: false });
    expect([...s.documents.docs.values()].map((d) => d.status)).toEqual(['ready', 'ready', 'ready']);
  });

  it('keeps each page as a failed, uncharged document of its own when the pages do not fit in the quota', async () => {
    const s = await setup({ available: 2 });
    const key = await s.upload('pages.pdf', await pdf(3), 'multiple');
    await handleObjectCreated(s.deps, { key }, { final: false });
    const docs = [...s.documents.docs.values()].sort((a, b) => (a.split_page ?? 0) - (b.split_page ?? 0));
    expect(docs.map((d) => d.split_page)).toEqual([1, 2, 3]);
    for (const d of docs) {
      expect(d).toMatchObject({ status: 'failed', can_be_restarted: true, charged_month: null, source: { kind: 'pdf' } });
      expect(d.error_message).toMatch(/monthly document limit/);
    }
    expect(await s.documents.usage(s.company.company_id, s.month)).toEqual({ used_documents: 0, reserved_documents: 0, quota_taken: 0 });
  });
});

const fixtures = join(import.meta.dirname, '../../fixtures/recognition');
const DOCX = officeFile(INVOICE_EN, 'docx');

/** The Textract recogniser with a client that must not be called: office files are read without Textract. */
function officeRecogniser(): Recogniser & { inputs: RecogniserInput[] } {
  const client = { send: async () => Promise.reject(new Error('Textract must not be called for office files')) } as unknown as TextractClient;
  const textract = new TextractRecogniser({ client });
  const inputs: RecogniserInput[] = [];
  return {
    inputs,
    analyzeExpense: (input) => {
      inputs.push(input);
      return textract.analyzeExpense(input);
    },
  };
}

describe('processing office documents', () => {
  const expected = { counterparty_name: INVOICE_EN.supplier.name, document_number: INVOICE_EN.documentId, issue_date: INVOICE_EN.issueDate, total: totals(INVOICE_EN).total.toFixed(2) };

  it('recognises an uploaded docx from its text; without LibreOffice it has no page image and keeps the preview note', async () => {
    const recogniser = officeRecogniser();
    const s = await setup({ recogniser });
    const key = await s.upload(DOCX, new Uint8Array(readFileSync(join(fixtures, DOCX))));
    await handleObjectCreated(s.deps, { key }, { final: false });
    const [doc] = [...s.documents.docs.values()];
    expect(doc).toMatchObject({ status: 'review', error_message: UNSUPPORTED_MESSAGE, ...expected });
    expect(doc!.pages).toEqual([{ page: 1, document: DOCX, image_key: null, status: 'not_processed', width: null, height: null }]);
    expect(recogniser.inputs).toHaveLength(1);
    expect(recogniser.inputs[0]!.officePdf).toBeUndefined();
    const content = JSON.stringify(await s.files.getJson(doc!.content_key!));
    expect(content).toContain(INVOICE_EN.supplier.vatId);
    expect(await s.files.getJson(doc!.boxes_key!)).toBeTruthy();
    expect(s.documents.historyItems.map((h) => h.name)).toContain(`Recognised: to review (${UNSUPPORTED_MESSAGE})`);
  });

  it('with LibreOffice: page images from its PDF, the words from that PDF, no note', async () => {
    const recogniser = officeRecogniser();
    const pdf = new Uint8Array(readFileSync(join(fixtures, INVOICE_EN.file)));
    const office = pdfOfficeConverter(pdf);
    const s = await setup({ recogniser, office });
    const key = await s.upload(DOCX, new Uint8Array(readFileSync(join(fixtures, DOCX))));
    await handleObjectCreated(s.deps, { key }, { final: false });
    const [doc] = [...s.documents.docs.values()];
    expect(office.calls).toEqual([DOCX]);
    expect(doc).toMatchObject({ status: 'ready', error_message: null, ...expected });
    expect(doc!.pages).toEqual([{ page: 1, document: DOCX, image_key: expect.stringMatching(/pages\/1-1\.jpg$/), status: 'processed', width: 100, height: 140 }]);
    expect(recogniser.inputs[0]!.officePdf).toBe(pdf);
  });

  it('a conversion that fails leaves the document without images but with its fields', async () => {
    const office: OfficeConverter = { toPdf: async () => Promise.reject(new Error('soffice crashed')) };
    const s = await setup({ recogniser: officeRecogniser(), office });
    const key = await s.upload(DOCX, new Uint8Array(readFileSync(join(fixtures, DOCX))));
    await handleObjectCreated(s.deps, { key }, { final: false });
    expect([...s.documents.docs.values()][0]).toMatchObject({ status: 'review', error_message: UNSUPPORTED_MESSAGE, ...expected });
  });

  it('a damaged docx still becomes a document to review, with the note and no fields', async () => {
    const s = await setup({ recogniser: officeRecogniser() });
    const key = await s.upload('broken.docx', new Uint8Array(readFileSync(join(fixtures, DOCX))).subarray(0, 1200));
    await handleObjectCreated(s.deps, { key }, { final: false });
    expect([...s.documents.docs.values()][0]).toMatchObject({ status: 'review', error_message: UNSUPPORTED_MESSAGE, document_number: '', total: null });
  });
});

describe('permanent Textract errors', () => {
  /** The Textract recogniser whose client answers every call with the given AWS error. */
  function failingTextract(name: string): Recogniser & { calls: number } {
    const state = { calls: 0 };
    const client = {
      send: async () => {
        state.calls += 1;
        const e = new Error(`${name} from Textract`);
        e.name = name;
        throw e;
      },
    } as unknown as TextractClient;
    const textract = new TextractRecogniser({ client });
    return Object.assign(state, { analyzeExpense: (input: RecogniserInput) => textract.analyzeExpense(input) });
  }

  it('fail the document on the first delivery with a readable message, without a retry', async () => {
    const recogniser = failingTextract('UnsupportedDocumentException');
    const s = await setup({ recogniser });
    const key = await s.upload('inv.pdf', await pdf(1));
    await handleObjectCreated(s.deps, { key }, { final: false });
    const [doc] = [...s.documents.docs.values()];
    expect(doc).toMatchObject({ status: 'failed', error_message: TEXTRACT_PROBLEM_MSG.unsupported, can_be_restarted: true });
    // One delivery: the synchronous call of the one-page PDF, then the asynchronous one (it reads more kinds of PDF).
    expect(recogniser.calls).toBe(2);
  });

  it('transient ones are thrown for the queue to deliver again', async () => {
    const s = await setup({ recogniser: failingTextract('ThrottlingException') });
    const key = await s.upload('inv.pdf', await pdf(1));
    await expect(handleObjectCreated(s.deps, { key }, { final: false })).rejects.toThrow(/ThrottlingException/);
    expect([...s.documents.docs.values()][0]!.status).toBe('processing');
  });
});

describe('giving a charge back (failDocument with refund)', () => {
  it('never takes the month below 0: a charge the admin reset already wiped is failed without a give-back', async () => {
    const s = await setup();
    const doc = seededDocument({ receipt_id: 'RESETDOC', scope: companyScope(s.company.company_id), created_at: '2024-06-01T09:00:00.000Z', status: 'processing', charged_month: s.month });
    s.documents.docs.set(doc.receipt_id, doc);
    // The reset zeroed used and quota_taken after the charge (reservations of others kept).
    s.documents.usageItems.set(`${s.company.company_id}|${s.month}`, { used_documents: 0, quota_taken: 1, reserved_documents: 1, duplicated_documents: 0 });
    await failDocument(s.deps, doc.receipt_id, 1, UNSUPPORTED_MESSAGE, { refund: true });
    expect(s.documents.docs.get(doc.receipt_id)).toMatchObject({ status: 'failed', error_message: UNSUPPORTED_MESSAGE, can_be_restarted: true, charged_month: null, version: 2 });
    expect(await s.documents.usage(s.company.company_id, s.month)).toEqual({ used_documents: 0, reserved_documents: 1, quota_taken: 1 });
    expect(s.documents.historyItems.map((h) => h.name)).toEqual([`Processing failed: ${UNSUPPORTED_MESSAGE}`]);
  });
});

describe('processing job limits: replaced files, oversized objects, long PDFs', () => {
  it('refuses to process an object that is not the one its document was made from', async () => {
    const s = await setup({ failures: 1 });
    const key = await s.upload('inv.pdf', await pdf(1));
    await expect(handleObjectCreated(s.deps, { key }, { final: false })).rejects.toThrow(/recogniser crashed/);
    // The file under the upload's key is replaced before the retry.
    await s.files.put(key, await pdf(2), 'application/pdf');
    await handleObjectCreated(s.deps, { key }, { final: false });
    const docs = [...s.documents.docs.values()];
    expect(docs).toHaveLength(1);
    expect(docs[0]).toMatchObject({ status: 'failed', error_message: REPLACED_MESSAGE, counterparty_name: '' });
  });

  it('refuses an object over the largest upload from its size alone, without reading it', async () => {
    const s = await setup();
    const key = await s.upload('big.pdf', await pdf(1));
    const reads: string[] = [];
    const get = s.files.get.bind(s.files);
    s.files.get = async (k, opts) => (reads.push(k), get(k, opts));
    s.files.head = async () => ({ etag: 'huge', size: READ_MAX_BYTES + 1 });
    await handleObjectCreated(s.deps, { key }, { final: false });
    const docs = [...s.documents.docs.values()];
    expect(docs).toHaveLength(1);
    expect(docs[0]).toMatchObject({ status: 'failed', error_message: 'File size limits 30MB', can_be_restarted: true });
    expect(reads).not.toContain(key);
  });

  it('keeps a possible duplicate out of ready: the same file again, or another file of the same supplier, number and total', async () => {
    let calls = 0;
    const s = await setup({ recogniser: { analyzeExpense: async () => (++calls <= 3 ? RESULT : numbered('INV-8')) } });
    const bytes = await pdf(1);
    await handleObjectCreated(s.deps, { key: await s.upload('inv.pdf', bytes) }, { final: false });
    await handleObjectCreated(s.deps, { key: await s.upload('inv-again.pdf', bytes) }, { final: false });
    await handleObjectCreated(s.deps, { key: await s.upload('inv-scanned.pdf', await pdf(2)) }, { final: false });
    // the next invoice of the same supplier and total is no copy
    await handleObjectCreated(s.deps, { key: await s.upload('inv-8.pdf', await pdf(3)) }, { final: false });
    const docs = [...s.documents.docs.values()]; // in the order of their uploads
    expect(docs.map((d) => [d.original_file_name, d.status])).toEqual([
      ['inv.pdf', 'ready'],
      ['inv-again.pdf', 'review'],
      ['inv-scanned.pdf', 'review'],
      ['inv-8.pdf', 'ready'],
    ]);
    for (const d of docs.slice(1, 3)) {
      expect((await s.documents.history(d.receipt_id)).map((h) => h.name)).toContain(`Recognised: to review (${POSSIBLE_DUPLICATE})`);
    }
  });

  it('keeps both of two copies uploaded at the same moment out of ready: neither found the other when created', async () => {
    const s = await setup();
    const bytes = await pdf(1);
    const keys = [await s.upload('drop-1.pdf', bytes), await s.upload('drop-2.pdf', bytes)];
    await Promise.all(keys.map((key) => handleObjectCreated(s.deps, { key }, { final: false })));
    const docs = [...s.documents.docs.values()];
    expect(docs).toHaveLength(2);
    expect(docs.map((d) => d.status)).toEqual(['review', 'review']);
  });

  it('keeps two files of the same supplier, number and total read at the same moment from both reaching ready', async () => {
    const s = await setup();
    // The key markers are read by both runs at once: the first reader waits for the second before reading.
    const markers = s.documents.markers.bind(s.documents);
    let waiting: (() => void) | undefined;
    let keyReads = 0;
    s.documents.markers = async (kind, scope, value) => {
      if (kind !== 'key') return markers(kind, scope, value);
      keyReads += 1;
      if (keyReads === 1) await new Promise<void>((resolve) => (waiting = resolve));
      else waiting?.();
      return markers(kind, scope, value);
    };
    const keys = [await s.upload('first.pdf', await pdf(1)), await s.upload('second.pdf', await pdf(2))];
    await Promise.all(keys.map((key) => handleObjectCreated(s.deps, { key }, { final: false })));
    expect(keyReads).toBe(2);
    const docs = [...s.documents.docs.values()];
    expect(docs.map((d) => [d.original_file_name, d.status])).toEqual([
      ['first.pdf', 'review'],
      ['second.pdf', 'review'],
    ]);
    for (const d of docs) expect((await s.documents.history(d.receipt_id)).map((h) => h.name)).toContain(`Recognised: to review (${POSSIBLE_DUPLICATE})`);
    // One key marker each, of the key the record holds.
    expect(new Set(docs.map((d) => d.key_digest)).size).toBe(1);
    expect((await markers('key', docs[0]!.scope, docs[0]!.key_digest!)).sort()).toEqual(docs.map((d) => d.receipt_id).sort());
    expect((await s.documents.counts(companyScope(s.company.company_id))).receipt).toMatchObject({ processing: 0, review: 2, ready: 0 });
  });

  it('keeps the first of two documents of the same key ready and sends the later one to review when the first has not committed yet', async () => {
    // The second file is recognised only once the first has checked for duplicates, and the first commits only once
    // the second has checked too: the first saw no other document, the second must see the first.
    let firstChecked!: () => void;
    const firstCheck = new Promise<void>((resolve) => (firstChecked = resolve));
    const recogniser: Recogniser = {
      async analyzeExpense(input) {
        if (input.fileName === 'later.pdf') await firstCheck;
        return RESULT;
      },
    };
    const s = await setup({ recogniser });
    const markers = s.documents.markers.bind(s.documents);
    let secondChecked!: () => void;
    const secondCheck = new Promise<void>((resolve) => (secondChecked = resolve));
    let keyReads = 0;
    s.documents.markers = async (kind, scope, value) => {
      if (kind !== 'key') return markers(kind, scope, value);
      const read = await markers(kind, scope, value);
      keyReads += 1;
      if (keyReads === 1) {
        firstChecked();
        await secondCheck;
      } else secondChecked();
      return read;
    };
    const keys = [await s.upload('earlier.pdf', await pdf(1)), await s.upload('later.pdf', await pdf(2))];
    await Promise.all(keys.map((key) => handleObjectCreated(s.deps, { key }, { final: false })));
    expect(keyReads).toBe(2);
    const docs = [...s.documents.docs.values()];
    expect(docs.map((d) => [d.original_file_name, d.status])).toEqual([
      ['earlier.pdf', 'ready'],
      ['later.pdf', 'review'],
    ]);
    expect((await s.documents.history(docs[1]!.receipt_id)).map((h) => h.name)).toContain(`Recognised: to review (${POSSIBLE_DUPLICATE})`);
  });

  it('leaves no key marker of a result that lost to another run: markers follow the key the record holds', async () => {
    const s = await setup({ recogniser: numberingRecogniser() });
    const key = await s.upload('inv.pdf', await pdf(1));
    // Both deliveries of the event read the document before either saved a result.
    await Promise.all([handleObjectCreated(s.deps, { key }, { final: false }), handleObjectCreated(s.deps, { key }, { final: false })]);
    const [doc] = [...s.documents.docs.values()];
    expect(doc!.status).toBe('ready');
    const keyMarkers = [...s.documents.markerItems.entries()].filter(([k, ids]) => k.startsWith('key|') && ids.size > 0);
    expect(keyMarkers).toEqual([[`key|${doc!.scope}|${doc!.key_digest}`, new Set([doc!.receipt_id])]]);
  });

  it('keeps the key marker with the key the record holds when processing fails after reading, and moves it on Try Again', async () => {
    const s = await setup({ recogniser: numberingRecogniser() });
    // The result cannot be stored on the last delivery: the document fails after it was read as INV-1.
    const putJson = s.files.putJson.bind(s.files);
    let unavailable = true;
    s.files.putJson = async (key, value) => {
      if (unavailable && key.includes('/content')) throw new Error('bucket unavailable');
      return putJson(key, value);
    };
    await handleObjectCreated(s.deps, { key: await s.upload('inv.pdf', await pdf(1)) }, { final: true });
    const [failed] = [...s.documents.docs.values()];
    // It keeps the key it was read with, and the one marker of that key.
    expect(failed).toMatchObject({ status: 'failed', key_digest: expect.any(String) });
    const keyMarkers = () => [...s.documents.markerItems.entries()].filter(([k, ids]) => k.startsWith('key|') && ids.size > 0);
    expect(keyMarkers()).toEqual([[`key|${failed!.scope}|${failed!.key_digest}`, new Set([failed!.receipt_id])]]);
    unavailable = false;
    await restartDocument(s.deps, { userId: 'u1', companyId: s.company.company_id }, failed!.receipt_id);
    const ticket = [...s.files.objects.keys()].find((k) => k.startsWith('jobs/process/'))!;
    await handleObjectCreated(s.deps, { key: ticket }, { final: false });
    const again = s.documents.docs.get(failed!.receipt_id)!;
    expect(again).toMatchObject({ status: 'ready', document_number: 'INV-2' });
    expect(keyMarkers()).toEqual([[`key|${again.scope}|${again.key_digest}`, new Set([again.receipt_id])]]);
  });

  it('deleting an original makes its oldest copy the original and the other copies its copies', async () => {
    const s = await setup();
    const bytes = await pdf(1);
    for (const name of ['orig.pdf', 'copy-1.pdf', 'copy-2.pdf']) await handleObjectCreated(s.deps, { key: await s.upload(name, bytes) }, { final: false });
    const [orig, copy1, copy2] = [...s.documents.docs.values()];
    expect([copy1!.duplicate_id, copy2!.duplicate_id]).toEqual([orig!.receipt_id, orig!.receipt_id]);
    await deleteDocument(s.deps, { userId: 'u1', companyId: s.company.company_id }, orig!.receipt_id);
    // The test clock stands still: the oldest is the first by id.
    const [first, second] = [copy1!, copy2!].sort((a, b) => a.receipt_id.localeCompare(b.receipt_id));
    expect(s.documents.docs.get(first!.receipt_id)!.duplicate_id).toBeNull();
    expect(s.documents.docs.get(second!.receipt_id)!.duplicate_id).toBe(first!.receipt_id);
    expect(s.live.events.filter((e) => e.event === 'receipt-update').map((e) => (e.payload as { receipt_id: string }).receipt_id)).toEqual(
      expect.arrayContaining([copy1!.receipt_id, copy2!.receipt_id]),
    );
  });

  it(`recognises only the first ${MAX_RECOGNISED_PAGES} pages of a long PDF and says so in the history`, async () => {
    const seen: RecogniserInput[] = [];
    const recogniser: Recogniser = {
      async analyzeExpense(input) {
        seen.push(input);
        return RESULT;
      },
    };
    const s = await setup({ recogniser });
    const key = await s.upload('long.pdf', await pdf(MAX_RECOGNISED_PAGES + 7));
    await handleObjectCreated(s.deps, { key }, { final: false });
    const [doc] = [...s.documents.docs.values()];
    expect(doc!.status).toBe('ready');
    expect(doc!.pages).toHaveLength(MAX_RECOGNISED_PAGES);
    expect((await PDFDocument.load(seen[0]!.bytes)).getPageCount()).toBe(MAX_RECOGNISED_PAGES);
    // Textract reads the copy of the first pages from S3, not the whole file.
    expect(seen[0]!.s3Object!.key).not.toBe(key);
    expect((await PDFDocument.load((await s.files.get(seen[0]!.s3Object!.key)).bytes)).getPageCount()).toBe(MAX_RECOGNISED_PAGES);
    const history = (await s.documents.history(doc!.receipt_id)).map((h) => h.name);
    expect(history).toContain(pagesCappedMessage(MAX_RECOGNISED_PAGES + 7));
    expect(pagesCappedMessage(57)).toBe('Only the first 50 of 57 pages were recognised');
  });

  it('recognises a PDF within the cap whole, with no note', async () => {
    const seen: RecogniserInput[] = [];
    const s = await setup({ recogniser: { analyzeExpense: async (input) => (seen.push(input), RESULT) } });
    const key = await s.upload('short.pdf', await pdf(3));
    await handleObjectCreated(s.deps, { key }, { final: false });
    const [doc] = [...s.documents.docs.values()];
    expect(doc!.pages).toHaveLength(3);
    expect(seen[0]!.s3Object!.key).toBe(key);
    expect((await s.documents.history(doc!.receipt_id)).map((h) => h.name).join('\n')).not.toMatch(/Only the first/);
  });
});
