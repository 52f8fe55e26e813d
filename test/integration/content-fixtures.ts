/**
 * Documents for the content tests: a one-page invoice PDF with a text layer (read exactly by the local
 * recogniser), uploaded through the real upload path (GET /upload/document, PUT to the presigned URL) and
 * processed by the real processing job.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb } from 'pdf-lib';
import type { LocalStack } from '../../scripts/local/stack';
import type { apiClient } from '../support/local-stack';

export interface InvoiceSpec {
  supplier: string;
  supplierCode: string;
  number: string;
  date: string;
  lines: { description: string; qty: string; price: string; total: string }[];
  subtotal: string;
  vatRate?: string;
  vat: string;
  total: string;
}

export const SAMPLE_INVOICE: InvoiceSpec = {
  supplier: 'UAB Popierius',
  supplierCode: '302222222',
  number: 'PP-00123',
  date: '2025-03-04',
  lines: [
    { description: 'Paper A4', qty: '2', price: '5.00', total: '10.00' },
    { description: 'Pens blue', qty: '10', price: '1.20', total: '12.00' },
    { description: 'Stapler', qty: '1', price: '78.00', total: '78.00' },
  ],
  subtotal: '100.00',
  vat: '21.00',
  total: '121.00',
};

/** Where the table is drawn, in fractions of the page (top-left origin), for grid tests. */
export const TABLE = { top: 0.4, rowHeight: 0.03, left: 0.08, right: 0.92, columns: { description: 0.14, qty: 0.55, price: 0.68, total: 0.8 } };

export async function invoicePdf(spec: InvoiceSpec = SAMPLE_INVOICE): Promise<Uint8Array> {
  const require = createRequire(import.meta.url);
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fontkit);
  const font = await pdf.embedFont(readFileSync(require.resolve('pdfjs-dist/standard_fonts/LiberationSans-Regular.ttf')));
  const bold = await pdf.embedFont(readFileSync(require.resolve('pdfjs-dist/standard_fonts/LiberationSans-Bold.ttf')));
  const W = 595;
  const H = 842;
  const page = pdf.addPage([W, H]);
  const text = (s: string, fx: number, fy: number, size = 11, f = font) => page.drawText(s, { x: fx * W, y: H - fy * H - size * 0.8, size, font: f, color: rgb(0, 0, 0) });
  text(spec.supplier, 0.08, 0.06, 18, bold);
  text(`Company code ${spec.supplierCode}`, 0.08, 0.1);
  text('VAT code LT100002222222', 0.08, 0.12);
  text('Gedimino pr. 1, Vilnius, Lithuania', 0.08, 0.14);
  text('INVOICE', 0.6, 0.06, 18, bold);
  text(`Invoice No. ${spec.number}`, 0.6, 0.1);
  text(`Date ${spec.date}`, 0.6, 0.12);
  text('Bill to: Test Customer UAB', 0.08, 0.22);
  const c = TABLE.columns;
  const headerY = TABLE.top - TABLE.rowHeight;
  text('Description', c.description, headerY, 10, bold);
  text('Qty', c.qty, headerY, 10, bold);
  text('Price', c.price, headerY, 10, bold);
  text('Amount', c.total, headerY, 10, bold);
  spec.lines.forEach((l, i) => {
    const y = TABLE.top + i * TABLE.rowHeight + 0.006;
    text(String(i + 1), TABLE.left + 0.01, y, 10);
    text(l.description, c.description, y, 10);
    text(l.qty, c.qty, y, 10);
    text(l.price, c.price, y, 10);
    text(l.total, c.total, y, 10);
  });
  text('Subtotal', 0.6, 0.6);
  text(spec.subtotal, 0.8, 0.6);
  text(`VAT ${spec.vatRate ?? '21'}%`, 0.6, 0.63);
  text(spec.vat, 0.8, 0.63);
  text('Total', 0.6, 0.66, 12, bold);
  text(spec.total, 0.8, 0.66, 12, bold);
  return pdf.save();
}

type Api = ReturnType<typeof apiClient>;

/** Uploads a file as a cost receipt and waits for processing; returns the receipt id. */
export async function uploadDocument(stack: LocalStack, api: Api, companyId: string, bytes: Uint8Array, fileName: string, receiptType: 'receipt' | 'invoice' = 'receipt'): Promise<string> {
  const q = new URLSearchParams({ company_id: companyId, receipt_type: receiptType, original_file_name: fileName, size: String(bytes.length), content_type: 'application/pdf' });
  const res = await api.get(`/upload/document?${q}`);
  if (res.status !== 200) throw new Error(`upload URL refused: ${res.status} ${JSON.stringify(res.body)}`);
  const { uploadURL, headers, upload_id } = res.body as { uploadURL: string; headers: Record<string, string>; upload_id: string };
  const put = await fetch(uploadURL, { method: 'PUT', headers, body: Buffer.from(bytes) });
  if (!put.ok) throw new Error(`PUT failed: ${put.status} ${await put.text()} ${uploadURL}`);
  await stack.jobs.idle(60_000);
  for (let i = 0; i < 100; i++) {
    const list = (await api.get(`/receipts?company_id=${companyId}&limit=50`)).body as { items: { receipt_id: string; original_file_name: string; status: string }[] };
    const doc = list.items.find((d) => d.original_file_name === fileName);
    if (doc && doc.status !== 'processing') return doc.receipt_id;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`document ${fileName} (${upload_id}) was not processed`);
}
