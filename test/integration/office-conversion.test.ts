/**
 * Office previews on AWS, run locally: the office converter's real handler (lambdas/jobs/convert-office.ts) against
 * the local S3 stand-in, with LibreOffice replaced by a small executable that writes a real PDF of the same invoice
 * (SOFFICE_PATH; the converter runs it exactly as it runs soffice). Then the AWS path end to end: the processing job
 * with OFFICE_CONVERTER_FUNCTION set invokes the converter through a Lambda Invoke stand-in, and the uploaded docx
 * gets its page image as in local mode; a converter that fails leaves the document recognised from its text, with
 * the note that no preview could be made.
 */
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { s3, s3Files } from '../../lambdas/adapters/s3/files';
import { handler as convertOffice } from '../../lambdas/jobs/convert-office';
import { resetEnvCache } from '../../lambdas/runtime/env';
import { OFFICE_CONVERSION_PREFIX, officeConversionKeys } from '../../shared/schemas/office-conversion';
import { INVOICE_LT, officeFile, totals } from '../fixtures/recognition/data';
import { startLambdaStandIn, type LambdaStandIn } from '../support/lambda-stand-in';
import { registeredUser, startTestStack, uploadDocument, type TestStack } from '../support/local-stack';

const FIXTURES = new URL('../fixtures/recognition/', import.meta.url);
const DOCX = new Uint8Array(readFileSync(new URL(officeFile(INVOICE_LT, 'docx'), FIXTURES)));
const PDF = new Uint8Array(readFileSync(new URL(INVOICE_LT.file, FIXTURES)));
const CONVERTER = 'ReceiptsProcessing-OfficeConverterFn';

/**
 * Stands in for soffice: records its arguments, then writes the invoice's PDF where `--convert-to pdf --outdir`
 * asks for it (or fails like LibreOffice when FAKE_SOFFICE_FAIL is set).
 */
function fakeSoffice(dir: string, pdfPath: string): string {
  const script = join(dir, 'soffice');
  writeFileSync(
    script,
    [
      '#!/bin/sh',
      `printf '%s\\n' "$@" > "${dir}/args-$$"`,
      'if [ -n "$FAKE_SOFFICE_FAIL" ]; then echo "Error: source file could not be loaded" >&2; exit 1; fi',
      'out=""; prev=""; input=""',
      'for a in "$@"; do if [ "$prev" = "--outdir" ]; then out="$a"; fi; prev="$a"; input="$a"; done',
      'name=$(basename "$input"); name="${name%.*}.pdf"',
      `cp "${pdfPath}" "$out/$name"`,
      '',
    ].join('\n'),
  );
  chmodSync(script, 0o755);
  return script;
}

async function conversionObjects(): Promise<string[]> {
  const res = await s3().send(new ListObjectsV2Command({ Bucket: s3Files.bucket(), Prefix: OFFICE_CONVERSION_PREFIX }));
  return (res.Contents ?? []).map((o) => o.Key!);
}

type Detail = {
  status: string;
  error: { message: string } | null;
  supplierCustomerName: string;
  pages: { url: string | null; status: string }[];
  content: { children: { schema_id: string; content: { value: string } | null }[] }[];
};

describe('office converter (AWS path, local stand-ins)', () => {
  let t: TestStack;
  let work: string;
  let lambda: LambdaStandIn;
  const saved = { soffice: process.env.SOFFICE_PATH, fn: process.env.OFFICE_CONVERTER_FUNCTION, endpoint: process.env.AWS_ENDPOINT_URL_LAMBDA };

  beforeAll(async () => {
    t = await startTestStack();
    work = mkdtempSync(join(tmpdir(), 'office-conversion-it-'));
    writeFileSync(join(work, 'invoice.pdf'), PDF);
    process.env.SOFFICE_PATH = fakeSoffice(work, join(work, 'invoice.pdf'));
    lambda = await startLambdaStandIn({ [CONVERTER]: convertOffice });
  });
  afterEach(() => {
    delete process.env.FAKE_SOFFICE_FAIL;
    lambda.failWith = undefined;
  });
  afterAll(async () => {
    for (const [name, value] of [
      ['SOFFICE_PATH', saved.soffice],
      ['OFFICE_CONVERTER_FUNCTION', saved.fn],
      ['AWS_ENDPOINT_URL_LAMBDA', saved.endpoint],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    resetEnvCache();
    await lambda?.close();
    await t?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('converts an office file under office-conversion/ to a PDF next to it, running soffice headless with a private profile', async () => {
    const { key, outputKey } = officeConversionKeys('it-convert-1', 'docx');
    await s3Files.put(key, DOCX, 'application/octet-stream');
    const out = await convertOffice({ bucket: s3Files.bucket(), key, outputKey });
    expect(out).toEqual({ ok: true, outputKey });
    expect((await s3Files.get(outputKey)).bytes).toEqual(PDF);

    const [argsFile] = readdirSync(work).filter((f) => f.startsWith('args-'));
    const args = readFileSync(join(work, argsFile!), 'utf8').trim().split('\n');
    expect(args).toEqual(expect.arrayContaining(['--headless', '--convert-to', 'pdf', '--outdir']));
    expect(args.find((a) => a.startsWith('-env:UserInstallation=file:///'))).toBeDefined();
    expect(args.at(-1)).toMatch(/\/document\.docx$/);
    await s3Files.delete([key, outputKey]);
  });

  it('answers why when LibreOffice cannot convert the file, and writes no PDF', async () => {
    process.env.FAKE_SOFFICE_FAIL = '1';
    const { key, outputKey } = officeConversionKeys('it-convert-2', 'xlsx');
    await s3Files.put(key, new TextEncoder().encode('not a workbook'), 'application/octet-stream');
    const out = await convertOffice({ bucket: s3Files.bucket(), key, outputKey });
    expect(out).toEqual({ ok: false, reason: 'LibreOffice did not convert the file (exit code 1): Error: source file could not be loaded' });
    expect(await s3Files.head(outputKey)).toBeUndefined();
    await s3Files.delete([key]);
  });

  it('never reads objects outside office-conversion/: a company’s upload is refused unread', async () => {
    const upload = 'uploads/company-1/doc-1/invoice.docx';
    await s3Files.put(upload, DOCX, 'application/octet-stream');
    const runs = () => readdirSync(work).filter((f) => f.startsWith('args-')).length;
    const before = runs();
    const out = await convertOffice({ bucket: s3Files.bucket(), key: upload, outputKey: 'uploads/company-1/doc-1/document.pdf' });
    expect(out.ok).toBe(false);
    expect(runs()).toBe(before);
    expect(await s3Files.head('uploads/company-1/doc-1/document.pdf')).toBeUndefined();
  });

  describe('the processing job invoking the converter (OFFICE_CONVERTER_FUNCTION)', () => {
    beforeAll(() => {
      process.env.OFFICE_CONVERTER_FUNCTION = CONVERTER;
      process.env.AWS_ENDPOINT_URL_LAMBDA = lambda.url;
      resetEnvCache();
    });

    async function uploadDocx(prefix: string): Promise<Detail> {
      const { api, companyId } = await registeredUser(t.stack, prefix);
      const { request, put } = await uploadDocument(
        api,
        { company_id: companyId, original_file_name: officeFile(INVOICE_LT, 'docx'), content_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
        DOCX,
      );
      expect([request.status, put!.status]).toEqual([200, 200]);
      await t.stack.jobs.idle();
      const [row] = ((await api.get(`/receipts?company_id=${companyId}`)).body as { items: { receipt_id: string }[] }).items;
      return (await api.get(`/receipts/${row!.receipt_id}?company_id=${companyId}`)).body as Detail;
    }

    const values = (detail: Detail) =>
      Object.fromEntries(detail.content.flatMap((s) => s.children).filter((c) => c.content?.value).map((c) => [c.schema_id, c.content!.value]));

    it('gives an uploaded docx its page image through the converter function, and leaves no conversion objects', async () => {
      const before = lambda.invocations.length;
      const detail = await uploadDocx('office-aws');
      const calls = lambda.invocations.slice(before);
      expect(calls).toHaveLength(1);
      expect(calls[0]!.functionName).toBe(CONVERTER);
      expect(calls[0]!.event).toMatchObject({ bucket: s3Files.bucket(), key: expect.stringMatching(/^office-conversion\/[0-9a-f-]+\/document\.docx$/) });

      expect(detail.error).toBeNull();
      expect(detail.pages).toHaveLength(1);
      expect(detail.pages[0]).toMatchObject({ status: 'processed', url: expect.any(String) });
      expect(detail.supplierCustomerName).toBe(INVOICE_LT.supplier.name);
      expect(values(detail)).toMatchObject({ document_id: INVOICE_LT.documentId, amount_total: totals(INVOICE_LT).total.toFixed(2) });
      expect(await conversionObjects()).toEqual([]);
    });

    it('recognises the docx from its text, without a preview, when the converter function fails', async () => {
      lambda.failWith = { errorType: 'Sandbox.Timedout', errorMessage: 'Task timed out after 120.00 seconds' };
      const before = lambda.invocations.length;
      const detail = await uploadDocx('office-aws-failing');
      expect(lambda.invocations.length - before).toBe(1);
      expect(detail).toMatchObject({ status: 'review', error: { message: 'Preview cannot be made for this file type' }, supplierCustomerName: INVOICE_LT.supplier.name });
      expect(detail.pages.map((p) => p.status)).toEqual(['not_processed']);
      expect(values(detail)).toMatchObject({ document_id: INVOICE_LT.documentId, amount_total: totals(INVOICE_LT).total.toFixed(2) });
      expect(await conversionObjects()).toEqual([]);
    });
  });
});
