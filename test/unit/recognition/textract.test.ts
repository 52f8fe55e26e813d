import { AnalyzeExpenseCommand, GetExpenseAnalysisCommand, StartExpenseAnalysisCommand, TextractClient } from '@aws-sdk/client-textract';
import { mockClient } from 'aws-sdk-client-mock';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeEach, describe, expect, it } from 'vitest';
import { TextractJobError, TextractRecogniser } from '../../../lambdas/adapters/textract';
import { UNSUPPORTED_MESSAGE } from '../../../lambdas/core/recognition/file-type';
import { mapExpenseToFields } from '../../../lambdas/core/recognition/map-fields';
import type { AnalyzeExpenseResult } from '../../../lambdas/core/recognition/types';
import { FACTURX, INVOICE_LT, officeFile, totals, UBL } from '../../fixtures/recognition/data';

const dir = join(import.meta.dirname, '../../fixtures/recognition');
const recorded = JSON.parse(readFileSync(join(dir, 'textract-analyze-expense.json'), 'utf8')) as Required<AnalyzeExpenseResult>;
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46]);
const PDF = new Uint8Array(readFileSync(join(dir, 'invoice-en.pdf')));

const textract = mockClient(TextractClient);
const client = new TextractClient({ region: 'eu-west-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
const noSleep = async () => undefined;

beforeEach(() => textract.reset());

describe('Textract recogniser', { timeout: 60_000 }, () => {
  it('sends images to AnalyzeExpense as bytes and returns its response shape', async () => {
    textract.on(AnalyzeExpenseCommand).resolves({ ...recorded, $metadata: {} });
    const r = new TextractRecogniser({ client });
    const result = await r.analyzeExpense({ bytes: JPEG, mime: 'image/jpeg' });
    const calls = textract.commandCalls(AnalyzeExpenseCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input.Document?.Bytes).toEqual(JPEG);
    expect(result.DocumentMetadata).toEqual({ Pages: 1 });
    expect(result.ExpenseDocuments?.[0]?.SummaryFields).toHaveLength(recorded.ExpenseDocuments[0]!.SummaryFields!.length);
  });

  it('converts photo formats Textract does not read (WebP) to JPEG, and GIF to PNG', async () => {
    textract.on(AnalyzeExpenseCommand).resolves({ ...recorded, $metadata: {} });
    const webp = new Uint8Array(await sharp({ create: { width: 40, height: 20, channels: 3, background: '#ffffff' } }).webp().toBuffer());
    await new TextractRecogniser({ client }).analyzeExpense({ bytes: webp, mime: 'image/webp' });
    const sent = textract.commandCalls(AnalyzeExpenseCommand)[0]!.args[0].input.Document!.Bytes!;
    expect([...sent.slice(0, 2)]).toEqual([0xff, 0xd8]);
    const gif = new Uint8Array(await sharp({ create: { width: 40, height: 20, channels: 3, background: '#ffffff' } }).gif().toBuffer());
    await new TextractRecogniser({ client }).analyzeExpense({ bytes: gif, mime: 'image/gif' });
    const sentGif = textract.commandCalls(AnalyzeExpenseCommand)[1]!.args[0].input.Document!.Bytes!;
    expect([...sentGif.slice(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  });

  it('maps Textract fields to the product fields', async () => {
    const f = mapExpenseToFields(recorded);
    const header = Object.fromEntries(Object.entries(f).filter(([, v]) => !Array.isArray(v)).map(([k, v]) => [k, (v as { value: string }).value]));
    expect(header).toEqual({
      supplier_name: 'Northwind Office Supplies Ltd',
      supplier_address: '12 Harbour Street Klaipeda LT-91234',
      customer_name: 'Baltic Bytes UAB',
      document_id: 'INV-2024-0042',
      issue_date: '2018-12-25',
      due_date: '2019-01-15',
      supplier_vat_id: 'LT123456715',
      supplier_code: '304567891',
      iban: 'LT121000011101001000',
      bic_swift: 'HABALT22',
      amount_total_base: '1020.25',
      amount_total: '1234.50',
      amount_tax: '214.25',
      currency: 'USD',
    });
    expect(f.amount_total).toMatchObject({ page: 1, box: { left: 0.82, top: 0.72, width: 0.1, height: 0.02 }, confidence: 98.9 });
    expect(f.vat_lines.map((l) => [l.vat_rate?.value, l.amount_vat?.value])).toEqual([
      ['21', '201.60'],
      ['9', '12.65'],
    ]);
    expect(f.line_items.map((l) => [l.description?.value, l.product_code?.value, l.quantity?.value, l.price_per_unit?.value, l.total_price?.value])).toEqual([
      ['Copy paper A4, 500 sheets', 'PAP-A4-500', '10', '4.35', '43.50'],
      ['Toner cartridge HP 26A', undefined, '2', '488.38', '976.75'],
    ]);
  });

  it('analyses PDFs asynchronously from S3, polling until the job ends and following NextToken', async () => {
    const doc = recorded.ExpenseDocuments[0]!;
    const half = Math.ceil(doc.SummaryFields!.length / 2);
    textract.on(StartExpenseAnalysisCommand).resolves({ JobId: 'job-1' });
    textract
      .on(GetExpenseAnalysisCommand, { JobId: 'job-1' })
      .resolvesOnce({ JobStatus: 'IN_PROGRESS' })
      .resolvesOnce({ JobStatus: 'IN_PROGRESS' })
      .resolvesOnce({ JobStatus: 'SUCCEEDED', DocumentMetadata: { Pages: 1 }, NextToken: 't1', ExpenseDocuments: [{ ...doc, SummaryFields: doc.SummaryFields!.slice(0, half), LineItemGroups: [] }] });
    textract.on(GetExpenseAnalysisCommand, { JobId: 'job-1', NextToken: 't1' }).resolves({
      JobStatus: 'SUCCEEDED',
      ExpenseDocuments: [{ ExpenseIndex: 1, SummaryFields: doc.SummaryFields!.slice(half), LineItemGroups: doc.LineItemGroups!, Blocks: [] }],
    });
    const sleeps: number[] = [];
    const r = new TextractRecogniser({ client, pollIntervalMs: 5, sleep: async (ms) => void sleeps.push(ms) });
    const result = await r.analyzeExpense({ bytes: PDF, mime: 'application/pdf', s3Object: { bucket: 'docs', key: 'c1/d1.pdf', version: 'v3' } });
    expect(textract.commandCalls(StartExpenseAnalysisCommand)[0]!.args[0].input.DocumentLocation).toEqual({ S3Object: { Bucket: 'docs', Name: 'c1/d1.pdf', Version: 'v3' } });
    expect(textract.commandCalls(GetExpenseAnalysisCommand)).toHaveLength(4);
    expect(sleeps).toEqual([5, 5]);
    expect(result.ExpenseDocuments).toHaveLength(1);
    expect(result.ExpenseDocuments![0]!.SummaryFields).toHaveLength(doc.SummaryFields!.length);
    expect(mapExpenseToFields(result).amount_total?.value).toBe('1234.50');
    expect(mapExpenseToFields(result).line_items).toHaveLength(2);
  });

  it('reports a failed job with its status message', async () => {
    textract.on(StartExpenseAnalysisCommand).resolves({ JobId: 'job-2' });
    textract.on(GetExpenseAnalysisCommand).resolves({ JobStatus: 'FAILED', StatusMessage: 'INTERNAL_ERROR' });
    const r = new TextractRecogniser({ client, sleep: noSleep });
    const err = await r.analyzeExpense({ bytes: PDF, mime: 'application/pdf', s3Object: { bucket: 'docs', key: 'x.pdf' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TextractJobError);
    expect((err as Error).message).toBe('Textract job job-2 failed: INTERNAL_ERROR');
  });

  it('gives up on a job that does not finish in time', async () => {
    textract.on(StartExpenseAnalysisCommand).resolves({ JobId: 'job-3' });
    textract.on(GetExpenseAnalysisCommand).resolves({ JobStatus: 'IN_PROGRESS' });
    const r = new TextractRecogniser({ client, maxWaitMs: 0, sleep: noSleep });
    await expect(r.analyzeExpense({ bytes: PDF, mime: 'application/pdf', s3Object: { bucket: 'docs', key: 'x.pdf' } })).rejects.toThrow('did not finish in time');
  });

  it('needs the S3 object for a PDF and does not call Textract without it', async () => {
    const r = new TextractRecogniser({ client });
    await expect(r.analyzeExpense({ bytes: PDF, mime: 'application/pdf' })).rejects.toThrow('pass the document\'s s3Object');
    // Bytes pdfjs cannot parse still go to Textract (it may read what pdfjs cannot).
    const broken = new TextEncoder().encode('%PDF-1.7\ngarbage');
    await expect(r.analyzeExpense({ bytes: broken, mime: 'application/pdf' })).rejects.toThrow('pass the document\'s s3Object');
    expect(textract.calls()).toHaveLength(0);
  });

  it('reads UBL and Factur-X from their XML without calling Textract', async () => {
    const r = new TextractRecogniser({ client });
    const ubl = mapExpenseToFields(await r.analyzeExpense({ bytes: readFileSync(join(dir, UBL.file)), mime: 'application/xml' }));
    expect(ubl.document_id?.value).toBe(UBL.documentId);
    const fx = mapExpenseToFields(await r.analyzeExpense({ bytes: readFileSync(join(dir, FACTURX.file)), mime: 'application/pdf' }));
    expect(fx.document_id?.value).toBe(FACTURX.documentId);
    expect(textract.calls()).toHaveLength(0);
  });

  it('reads office files with the office text reader, without calling Textract', async () => {
    const r = new TextractRecogniser({ client });
    for (const format of ['docx', 'xlsx', 'odt', 'rtf'] as const) {
      const file = officeFile(INVOICE_LT, format);
      const f = mapExpenseToFields(await r.analyzeExpense({ bytes: readFileSync(join(dir, file)), mime: 'application/octet-stream', fileName: file, s3Object: { bucket: 'b', key: `k/${file}` } }));
      expect([f.document_id?.value, f.supplier_vat_id?.value, f.amount_total?.value], file).toEqual([INVOICE_LT.documentId, INVOICE_LT.supplier.vatId, totals(INVOICE_LT).total.toFixed(2)]);
    }
    expect(textract.calls()).toHaveLength(0);
  });

  it('refuses a damaged office file with the product message, without calling Textract', async () => {
    const r = new TextractRecogniser({ client });
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 20, 0, 0, 0]);
    await expect(r.analyzeExpense({ bytes: zip, mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', fileName: 'a.docx' })).rejects.toThrow(UNSUPPORTED_MESSAGE);
    expect(textract.calls()).toHaveLength(0);
  });
});
