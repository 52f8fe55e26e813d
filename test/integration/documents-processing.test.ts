/**
 * Upload → S3 object-created → processing job → final status, through the real local API, bucket,
 * queue and job (local recogniser).
 */
import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openLiveChannel,
  registeredUser,
  setAvailableDocuments,
  startTestStack,
  uploadDocument,
  type TestStack,
} from '../support/local-stack';
import { datasetPath } from '../support/datasets';
import { INVOICE_LT, officeFile, totals } from '../fixtures/recognition/data';
import { invoicePdf, SAMPLE_INVOICE } from './content-fixtures';
import { ddbDocumentsStore } from '../../lambdas/adapters/ddb/documents-store';
import { companyScope } from '../../lambdas/core/documents/types';

type Summary = { receipt_id: string; status: string; error: { message: string } | null; can_be_restarted: boolean; version: number; original_file_name: string; upload_id: string; duplicate_id: string | null; same_document?: true; page_count: number; supplierCustomerName: string };
type Counts = Record<'receipt' | 'invoice', Record<string, number>>;

const PHOTO = datasetPath('sroie-dev', 'images', '000.jpg');

async function textPdf(pages: string[][]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = doc.addPage([595, 842]);
    lines.forEach((line, i) => page.drawText(line, { x: 50, y: 780 - i * 24, size: 14, font }));
  }
  return doc.save();
}

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
/** A real decompression bomb: a ~100 KB PNG that decodes to 10240 × 10240 grayscale pixels (105 MP). */
function pngBomb(side = 10240): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // grayscale
  const raw = Buffer.alloc((side + 1) * side); // filter byte 0 + zero pixels per row
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

describe('documents: upload and processing', () => {
  let t: TestStack;
  beforeAll(async () => {
    t = await startTestStack();
  });
  afterAll(async () => {
    await t?.stop();
  });

  async function list(api: Awaited<ReturnType<typeof registeredUser>>['api'], query: string) {
    const res = await api.get(`/receipts?${query}`);
    expect(res.status).toBe(200);
    return res.body as { items: Summary[]; next: string | null; next_company: string | null };
  }
  async function counts(api: Awaited<ReturnType<typeof registeredUser>>['api'], companyId: string) {
    const res = await api.get(`/receipts/total-documents?company_id=${companyId}`);
    expect(res.status).toBe(200);
    return res.body as Counts;
  }

  it('recognises a receipt photo: processing → review, counts exact, live events on the channel', async () => {
    const { api, token, companyId } = await registeredUser(t.stack, 'photo');
    const live = await openLiveChannel(t.stack.wsUrl, token, companyId);
    const bytes = new Uint8Array(readFileSync(PHOTO));
    const { request, put, upload } = await uploadDocument(api, { company_id: companyId, original_file_name: '000.jpg', content_type: 'image/jpeg', notes: 'lunch' }, bytes);
    expect(request.status).toBe(200);
    expect(upload!.key).toMatch(new RegExp(`^uploads/${companyId}/[^/]+/${upload!.upload_id}/000\\.jpg$`));
    expect(put!.status).toBe(200);

    const created = await live.waitFor('receipt', 20_000);
    expect(created.payload).toMatchObject({ status: 'processing', original_file_name: '000.jpg', upload_id: upload!.upload_id, notes: 'lunch' });
    const id = (created.payload as Summary).receipt_id;
    await t.stack.jobs.idle();
    const updated = live.messages.filter((m) => m.event === 'receipt-update').map((m) => m.payload as Summary);
    expect(updated.at(-1)).toMatchObject({ receipt_id: id, status: 'review' });
    live.close();

    const detail = (await api.get(`/receipts/${id}?company_id=${companyId}`)).body as Summary & {
      pages: { url: string; status: string; width: number }[];
      content: { schema_id: string; children: { schema_id: string; content: { value: string } | null }[] }[];
      history: { name: string; user: { name: string } }[];
    };
    expect(detail.status).toBe('review');
    expect(detail.supplierCustomerName).toMatch(/BOOK TA/);
    expect(detail.pages).toHaveLength(1);
    expect(detail.pages[0]!.status).toBe('processed');
    const image = await fetch(detail.pages[0]!.url);
    expect(image.status).toBe(200);
    expect((await sharp(Buffer.from(await image.arrayBuffer())).metadata()).format).toBe('jpeg');
    const values = detail.content.flatMap((section) => section.children).filter((c) => c.content?.value).map((c) => c.schema_id);
    expect(values).toEqual(expect.arrayContaining(['supplier_name', 'amount_total', 'issue_date']));
    expect(detail.history.map((h) => h.name)).toEqual(['Uploaded', expect.stringMatching(/^Recognised: to review/)]);

    const c = await counts(api, companyId);
    expect(c.receipt).toMatchObject({ processing: 0, review: 1, ready: 0, failed: 0 });
    const companies = (await api.get('/companies')).body as { items: { company_id: string; used_documents: number }[] };
    expect(companies.items.find((x) => x.company_id === companyId)!.used_documents).toBe(1);
  });

  it('reads an uploaded docx: fields from its text; without LibreOffice no page image and the preview note', async () => {
    // No LibreOffice, also where one is installed: SOFFICE_PATH alone is used when set.
    const before = process.env.SOFFICE_PATH;
    process.env.SOFFICE_PATH = '/nonexistent/libreoffice/program/soffice';
    try {
      const { api, companyId } = await registeredUser(t.stack, 'docx');
      const file = officeFile(INVOICE_LT, 'docx');
      const bytes = new Uint8Array(readFileSync(new URL(`../fixtures/recognition/${file}`, import.meta.url)));
      const { request, put } = await uploadDocument(
        api,
        { company_id: companyId, original_file_name: file, content_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
        bytes,
      );
      expect([request.status, put!.status]).toEqual([200, 200]);
      await t.stack.jobs.idle();
      const [row] = (await list(api, `company_id=${companyId}`)).items;
      const detail = (await api.get(`/receipts/${row!.receipt_id}?company_id=${companyId}`)).body as Summary & {
        pages: { url: string | null; status: string }[];
        content: { schema_id: string; children: { schema_id: string; content: { value: string } | null }[] }[];
      };
      expect(detail).toMatchObject({ status: 'review', error: { message: 'Preview cannot be made for this file type' }, supplierCustomerName: INVOICE_LT.supplier.name });
      expect(detail.pages.map((pg) => pg.status)).toEqual(['not_processed']);
      const values = Object.fromEntries(detail.content.flatMap((section) => section.children).filter((c) => c.content?.value).map((c) => [c.schema_id, c.content!.value]));
      expect(values).toMatchObject({
        supplier_vat_id: INVOICE_LT.supplier.vatId,
        document_id: INVOICE_LT.documentId,
        issue_date: INVOICE_LT.issueDate,
        amount_total: totals(INVOICE_LT).total.toFixed(2),
      });
    } finally {
      if (before === undefined) delete process.env.SOFFICE_PATH;
      else process.env.SOFFICE_PATH = before;
    }
  });

  it('splits a multi-page PDF in mode multiple into one document per page', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'split');
    const bytes = await textPdf([
      ['ACME UAB', 'Invoice No. A-1', 'Date 2024-03-05', 'Total 10.00 EUR'],
      ['BETA UAB', 'Invoice No. B-2', 'Date 2024-03-06', 'Total 20.00 EUR'],
      ['GAMA UAB', 'Invoice No. C-3', 'Date 2024-03-07', 'Total 30.00 EUR'],
    ]);
    const { request } = await uploadDocument(api, { company_id: companyId, original_file_name: 'three pages.pdf', type: 'multiple', receipt_type: 'invoice' }, bytes);
    expect(request.status).toBe(200);
    await t.stack.jobs.idle();
    const page = await list(api, `company_id=${companyId}`);
    expect(page.items.map((d) => d.original_file_name)).toEqual(['three pages (page 1).pdf', 'three pages (page 2).pdf', 'three pages (page 3).pdf']);
    expect(page.items.every((d) => d.status === 'review' && d.page_count === 1)).toBe(true);
    const c = await counts(api, companyId);
    expect(c.invoice).toMatchObject({ review: 3, processing: 0 });
    const companies = (await api.get('/companies')).body as { items: { company_id: string; used_documents: number }[] };
    expect(companies.items[0]!.used_documents).toBe(3);
  });

  it('over the quota, a PDF of one document per page waits as one failed document per page; Try Again reads each page alone', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'splitquota');
    // One document left this month: the upload's reservation passes, its three pages do not
    await setAvailableDocuments(companyId, 1);
    const bytes = await textPdf([
      ['ACME UAB', 'Invoice No. A-1', 'Total 10.00 EUR'],
      ['BETA UAB', 'Invoice No. B-2', 'Total 20.00 EUR'],
      ['GAMA UAB', 'Invoice No. C-3', 'Total 30.00 EUR'],
    ]);
    const { request } = await uploadDocument(api, { company_id: companyId, original_file_name: 'over.pdf', type: 'multiple' }, bytes);
    expect(request.status).toBe(200);
    await t.stack.jobs.idle();
    const failed = (await list(api, `company_id=${companyId}`)).items;
    expect(failed.map((d) => d.original_file_name)).toEqual(['over (page 1).pdf', 'over (page 2).pdf', 'over (page 3).pdf']);
    for (const d of failed) expect(d).toMatchObject({ status: 'failed', can_be_restarted: true, error: { message: expect.stringMatching(/monthly document limit/) } });
    const usage = async () => ((await api.get('/companies')).body as { items: { used_documents: number }[] }).items[0]!.used_documents;
    expect(await usage()).toBe(0);

    // The quota raised: each page is tried again as its own document, one charge each
    await setAvailableDocuments(companyId, 10);
    for (const d of failed) expect((await api.post(`/receipts/${d.receipt_id}/restart?company_id=${companyId}`, {})).status).toBe(200);
    await t.stack.jobs.idle();
    const read = (await list(api, `company_id=${companyId}`)).items;
    expect(read.map((d) => [d.original_file_name, d.page_count, d.status])).toEqual([
      ['over (page 1).pdf', 1, 'review'],
      ['over (page 2).pdf', 1, 'review'],
      ['over (page 3).pdf', 1, 'review'],
    ]);
    expect(read.map((d) => d.supplierCustomerName)).toEqual(['ACME UAB', 'BETA UAB', 'GAMA UAB']);
    expect(await usage()).toBe(3);
  });

  it('keeps a copy of an invoice out of ready: the same file again, or another file of the same supplier, number and total', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'copies');
    const original = await invoicePdf();
    for (const [name, bytes] of [
      ['invoice.pdf', original],
      ['invoice again.pdf', original],
      ['invoice scanned.pdf', await invoicePdf({ ...SAMPLE_INVOICE, lines: SAMPLE_INVOICE.lines.map((l, i) => (i === 0 ? { ...l, description: 'Paper A4, 80 g' } : l)) })],
      ['next invoice.pdf', await invoicePdf({ ...SAMPLE_INVOICE, number: 'PP-00124' })],
    ] as const) {
      expect((await uploadDocument(api, { company_id: companyId, original_file_name: name, content_type: 'application/pdf' }, bytes)).request.status).toBe(200);
      await t.stack.jobs.idle();
    }
    const items = (await list(api, `company_id=${companyId}`)).items;
    const byName = new Map(items.map((d) => [d.original_file_name, d]));
    expect(Object.fromEntries(items.map((d) => [d.original_file_name, d.status]))).toEqual({
      'invoice.pdf': 'ready',
      'invoice again.pdf': 'review',
      'invoice scanned.pdf': 'review',
      'next invoice.pdf': 'ready',
    });
    // Each copy names the first among its duplicates, and its history says why it waits
    for (const copy of ['invoice again.pdf', 'invoice scanned.pdf']) {
      const id = byName.get(copy)!.receipt_id;
      const duplicates = (await api.get(`/receipts/${id}/duplicates?company_id=${companyId}`)).body as { items: { receipt_id: string }[] };
      expect(duplicates.items.map((d) => d.receipt_id)).toContain(byName.get('invoice.pdf')!.receipt_id);
      const history = (await api.get(`/receipts/${id}/history?company_id=${companyId}`)).body as { items: { name: string }[] };
      expect(history.items.map((h) => h.name)).toContain('Recognised: to review (possible duplicate of an earlier document)');
    }
  });

  /**
   * Runs `during` with the processing job's reads of key markers of one company held by `gate` (the job and this test
   * share the store object, so the job reads through the wrapper); the wrapper counts the reads it saw.
   */
  async function withKeyReads(companyId: string, gate: (n: number, read: () => Promise<string[]>) => Promise<string[]>, during: () => Promise<void>) {
    const markers = ddbDocumentsStore.markers;
    const scope = companyScope(companyId);
    let n = 0;
    ddbDocumentsStore.markers = async (kind, s, value) => (kind === 'key' && s === scope ? gate(++n, () => markers.call(ddbDocumentsStore, kind, s, value)) : markers.call(ddbDocumentsStore, kind, s, value));
    try {
      await during();
    } finally {
      ddbDocumentsStore.markers = markers;
    }
    return n;
  }
  /** Resolves once `open` is called, or after a while so a test that went wrong fails instead of hanging. */
  function latch() {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => {
      open = resolve;
      setTimeout(resolve, 30_000).unref();
    });
    return { open, opened };
  }
  const SCANNED = { ...SAMPLE_INVOICE, lines: SAMPLE_INVOICE.lines.map((l, i) => (i === 0 ? { ...l, description: 'Paper A4, 80 g' } : l)) };

  it('keeps two files of the same supplier, number and total read at the same moment from both reaching ready', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'keyrace');
    const [a, b] = [await invoicePdf(), await invoicePdf(SCANNED)];
    // Both jobs check for documents of the same key at once: the first waits for the second before reading.
    const second = latch();
    const reads = await withKeyReads(
      companyId,
      async (n, read) => {
        if (n === 1) await second.opened;
        else second.open();
        return read();
      },
      async () => {
        const uploads = await Promise.all([
          uploadDocument(api, { company_id: companyId, original_file_name: 'invoice.pdf', content_type: 'application/pdf' }, a),
          uploadDocument(api, { company_id: companyId, original_file_name: 'invoice scanned.pdf', content_type: 'application/pdf' }, b),
        ]);
        expect(uploads.map((u) => u.put?.status)).toEqual([200, 200]);
        await t.stack.jobs.idle();
      },
    );
    expect(reads).toBe(2);
    const items = (await list(api, `company_id=${companyId}`)).items;
    // Neither may be confirmed and exported unseen: both wait in review, each naming the other as the same document.
    expect(items.map((d) => d.status)).toEqual(['review', 'review']);
    for (const [doc, other] of [
      [items[0]!, items[1]!],
      [items[1]!, items[0]!],
    ]) {
      const history = (await api.get(`/receipts/${doc.receipt_id}/history?company_id=${companyId}`)).body as { items: { name: string }[] };
      expect(history.items.map((h) => h.name)).toContain('Recognised: to review (possible duplicate of an earlier document)');
      const duplicates = (await api.get(`/receipts/${doc.receipt_id}/duplicates?company_id=${companyId}`)).body as { items: { receipt_id: string; reason: string }[] };
      expect(duplicates.items).toEqual([expect.objectContaining({ receipt_id: other.receipt_id, reason: 'same_document' })]);
    }
    expect((await counts(api, companyId)).receipt).toMatchObject({ processing: 0, review: 2, ready: 0 });
  });

  it("the list's Duplicates shows a later file of the same supplier, number and total, and lets it go once that is no longer so", async () => {
    const { api, companyId } = await registeredUser(t.stack, 'samedoclist');
    const q = `company_id=${companyId}`;
    const up = async (bytes: Uint8Array, name: string) => {
      const { put } = await uploadDocument(api, { company_id: companyId, original_file_name: name, content_type: 'application/pdf' }, bytes);
      expect(put?.status).toBe(200);
      await t.stack.jobs.idle();
    };
    // Two files (not the same bytes) of one invoice: the later one is its copy, as a same-file copy would be
    const first = await invoicePdf();
    await up(first, 'invoice.pdf');
    await up(await invoicePdf(SCANNED), 'invoice scanned.pdf');
    const duplicates = async () => (await list(api, `${q}&duplicate_id=true`)).items.map((d) => d.original_file_name);
    expect(await duplicates()).toEqual(['invoice scanned.pdf']);
    const all = (await list(api, q)).items;
    const [copy, original] = [all.find((d) => d.original_file_name === 'invoice scanned.pdf')!, all.find((d) => d.original_file_name === 'invoice.pdf')!];
    expect(copy.duplicate_id).toBeNull();
    // marked where the document is shown: the list, its detail; the earlier one is the original
    expect(copy.same_document).toBe(true);
    expect(original.same_document).toBeUndefined();
    expect(((await api.get(`/receipts/${copy.receipt_id}?${q}`)).body as Summary).same_document).toBe(true);
    // Its number corrected: no longer the same document; typed back: again
    const setNumber = async (value: string) => {
      const content = (await api.get(`/receipts/${copy.receipt_id}/content?${q}`)).body as { version: number };
      expect((await api.put(`/receipts/${copy.receipt_id}/content?${q}`, { version: content.version, items: [{ id: 'document_id', value }] })).status).toBe(200);
    };
    await setNumber('PP-99999');
    expect(await duplicates()).toEqual([]);
    await setNumber(SAMPLE_INVOICE.number);
    expect(await duplicates()).toEqual(['invoice scanned.pdf']);
    // The first file uploaded again: a copy of the same file (and of the same document)
    await up(first, 'invoice again.pdf');
    expect(await duplicates()).toEqual(['invoice again.pdf', 'invoice scanned.pdf']);
    const again = (await list(api, q)).items.find((d) => d.original_file_name === 'invoice again.pdf')!;
    expect(again.duplicate_id).toBe(original.receipt_id);
    // The earliest deleted: the scan, uploaded second, is the earliest of the document now and no copy; the file
    // uploaded third is no copy of a file any more, but still a later one of the same document
    expect((await api.delete(`/receipt/${original.receipt_id}?${q}`)).status).toBe(200);
    expect(await duplicates()).toEqual(['invoice again.pdf']);
    expect(((await api.get(`/receipts/${copy.receipt_id}?${q}`)).body as Summary).same_document).toBeUndefined();
    // The last one left of its key is no copy of anything
    expect((await api.delete(`/receipt/${copy.receipt_id}?${q}`)).status).toBe(200);
    expect(await duplicates()).toEqual([]);
    expect((await list(api, q)).items.map((d) => [d.original_file_name, d.duplicate_id, d.same_document])).toEqual([['invoice again.pdf', null, undefined]]);
  });

  it('keeps the first of two files of the same key ready and sends the later one to review when both are read before either is saved', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'keyfirst');
    // The first job checks, then waits until the second has checked too; the second saves nothing before the first checked.
    const firstChecked = latch();
    const secondChecked = latch();
    const commit = ddbDocumentsStore.commit;
    let firstId: string | undefined;
    ddbDocumentsStore.commit = async (change) => {
      const updated = change.updates[0]?.after;
      if (updated?.company_id === companyId && updated.receipt_id !== firstId && updated.status !== 'failed') {
        firstId ??= updated.receipt_id;
        if (updated.receipt_id !== firstId) await firstChecked.opened;
      }
      return commit.call(ddbDocumentsStore, change);
    };
    let reads: number;
    try {
      reads = await withKeyReads(
        companyId,
        async (n, read) => {
          const found = await read();
          if (n === 1) {
            firstChecked.open();
            await secondChecked.opened;
          } else secondChecked.open();
          return found;
        },
        async () => {
          await Promise.all([
            uploadDocument(api, { company_id: companyId, original_file_name: 'invoice.pdf', content_type: 'application/pdf' }, await invoicePdf()),
            uploadDocument(api, { company_id: companyId, original_file_name: 'invoice scanned.pdf', content_type: 'application/pdf' }, await invoicePdf(SCANNED)),
          ]);
          await t.stack.jobs.idle();
        },
      );
    } finally {
      ddbDocumentsStore.commit = commit;
    }
    expect(reads).toBe(2);
    const items = (await list(api, `company_id=${companyId}`)).items;
    expect(items.map((d) => d.status).sort()).toEqual(['ready', 'review']);
    const later = items.find((d) => d.status === 'review')!;
    const history = (await api.get(`/receipts/${later.receipt_id}/history?company_id=${companyId}`)).body as { items: { name: string }[] };
    expect(history.items.map((h) => h.name)).toContain('Recognised: to review (possible duplicate of an earlier document)');
  });

  it('creates one document when the same object-created event arrives twice', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'twice');
    const bytes = await textPdf([['ACME UAB', 'Invoice No. T-1', 'Total 5.00 EUR']]);
    const { upload } = await uploadDocument(api, { company_id: companyId, original_file_name: 'twice.pdf' }, bytes);
    await t.stack.jobs.idle();
    const record = {
      eventName: 'ObjectCreated:Put',
      s3: { bucket: { name: 'documents' }, object: { key: upload!.key, size: bytes.length } },
    };
    t.stack.jobs.deliver(record);
    t.stack.jobs.deliver(record);
    await t.stack.jobs.idle();
    const page = await list(api, `company_id=${companyId}`);
    expect(page.items).toHaveLength(1);
    expect(page.items[0]!.version).toBe(2);
    expect((await counts(api, companyId)).receipt).toMatchObject({ review: 1, processing: 0 });
    const companies = (await api.get('/companies')).body as { items: { used_documents: number }[] };
    expect(companies.items[0]!.used_documents).toBe(1);
  });

  it('ends broken, empty, bomb and tiny files in failed with a readable message', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'broken');
    const tiny = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#ffffff' } }).png().toBuffer();
    const corrupt = Buffer.concat([Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog'), Buffer.alloc(3000, 0x41)]);
    const cases: [string, Uint8Array, string, ('single' | 'multiple')?][] = [
      ['corrupt.pdf', corrupt, 'The PDF file is damaged and cannot be read'],
      ['corrupt-per-page.pdf', corrupt, 'The PDF file is damaged and cannot be read', 'multiple'],
      ['bomb.png', pngBomb(), 'The image is too large to be processed (more than 100 megapixels)'],
      ['tiny.png', tiny, 'Resolution of the image is too low to be processed'],
      ['text-as.pdf', new TextEncoder().encode('this is not a pdf at all'), 'This file type is not allowed'],
    ];
    for (const [name, bytes, _message, type] of cases) {
      const { request, put } = await uploadDocument(api, { company_id: companyId, original_file_name: name, type }, bytes);
      expect(request.status, name).toBe(200);
      expect(put!.status, name).toBe(200);
    }
    // An empty body never reaches the job: the URL carries the declared length (at least 1 byte), so the store refuses it.
    const empty = await uploadDocument(api, { company_id: companyId, original_file_name: 'empty.pdf' }, new Uint8Array());
    expect(empty.request.status).toBe(200);
    expect(empty.put!.status).toBe(403);
    await t.stack.jobs.idle();
    const page = await list(api, `company_id=${companyId}&receipt_status=failed`);
    const byName = new Map(page.items.map((d) => [d.original_file_name, d]));
    for (const [name, , message] of cases) {
      expect(byName.get(name), name).toMatchObject({ status: 'failed', error: { message }, can_be_restarted: true });
    }
    const c = await counts(api, companyId);
    expect(c.receipt).toMatchObject({ failed: cases.length, processing: 0 });
    expect((await list(api, `company_id=${companyId}&receipt_status=processing`)).items).toEqual([]);
  });

  it('answers 429 over the monthly quota and loses nothing; an expired reservation is given back', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'quota');
    await setAvailableDocuments(companyId, 2);
    const a = await uploadDocument(api, { company_id: companyId, original_file_name: 'a.pdf' }, await textPdf([['A UAB', 'Total 1.00']]));
    const b = await uploadDocument(api, { company_id: companyId, original_file_name: 'b.pdf' }, await textPdf([['B UAB', 'Total 2.00']]));
    expect([a.request.status, b.request.status]).toEqual([200, 200]);
    const over = await api.get(`/upload/document?company_id=${companyId}&original_file_name=c.pdf&size=100`);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ statusCode: 429, error: 'QuotaExceeded', message: expect.stringMatching(/monthly document limit.*\(2 documents a month\)/) });
    await t.stack.jobs.idle();
    const page = await list(api, `company_id=${companyId}`);
    expect(page.items.map((d) => d.original_file_name).sort()).toEqual(['a.pdf', 'b.pdf']);
    expect((await counts(api, companyId)).receipt).toMatchObject({ review: 2 });

    // A reservation whose file never arrives is released once it expires.
    await setAvailableDocuments(companyId, 3);
    const pending = await api.get(`/upload/document?company_id=${companyId}&original_file_name=never.pdf&size=100`);
    expect(pending.status).toBe(200);
    expect((await api.get(`/upload/document?company_id=${companyId}&original_file_name=d.pdf&size=100`)).status).toBe(429);
    await expireUpload((pending.body as { upload_id: string }).upload_id);
    expect((await api.get(`/upload/document?company_id=${companyId}&original_file_name=d.pdf&size=100`)).status).toBe(200);
  });

  it('refuses wrong types, sizes and modes up front with the spec messages', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'upfront');
    const ask = (q: string) => api.get(`/upload/document?company_id=${companyId}&${q}`);
    expect((await ask('original_file_name=a.exe&size=10')).body).toMatchObject({ statusCode: 422, message: 'This file type is not allowed', details: { code: 1 } });
    expect((await ask('original_file_name=a.png&size=10485761')).body).toMatchObject({ statusCode: 422, message: 'Image size limits 10MB' });
    expect((await ask('original_file_name=a.pdf&size=31457281')).body).toMatchObject({ statusCode: 422, message: 'File size limits 30MB' });
    expect((await ask('original_file_name=a.jpg&size=10&type=multiple')).body).toMatchObject({ statusCode: 422, message: 'One document per page applies only to PDF files' });
    expect((await ask('original_file_name=a.pdf&size=31457280&type=multiple')).status).toBe(200);
  });
});

/** Moves a pending upload's reservation expiry into the past (instead of waiting an hour). */
async function expireUpload(uploadId: string) {
  const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
  const { ddb } = await import('../../lambdas/adapters/ddb/client');
  const { keys } = await import('../../lambdas/adapters/ddb/keys');
  const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
  const item = (await ddb().send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: keys.upload(uploadId) }))).Item!;
  const past = new Date(Date.now() - 1000).toISOString();
  await ddb().send(
    new UpdateCommand({
      TableName: process.env.TABLE_NAME,
      Key: keys.upload(uploadId),
      UpdateExpression: 'SET expires_at = :p, gsi1sk = :sk',
      ExpressionAttributeValues: { ':p': past, ':sk': keys.pendingUploadIndex(String(item.company_id), past, uploadId).gsi1sk },
    }),
  );
}
