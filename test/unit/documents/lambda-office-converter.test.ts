/**
 * The processing job's office converter on AWS (LambdaOfficeConverter) with the AWS SDK mocked: the office file goes
 * under office-conversion/, the converter function is invoked synchronously with the keys, the PDF is read back, and
 * both objects are deleted whatever happens; every failure (the converter's answer, a function error, an invoke or
 * S3 error, an answer that is not a PDF) is the port's "no PDF" with a reason, never an exception.
 */
import { Readable } from 'node:stream';
import { DeleteObjectsCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LambdaOfficeConverter } from '../../../lambdas/adapters/office-converter/lambda-office-converter';
import { resetS3Client, s3Files } from '../../../lambdas/adapters/s3/files';
import { resetEnvCache } from '../../../lambdas/runtime/env';

const s3 = mockClient(S3Client);
const lambda = mockClient(LambdaClient);
const BUCKET = 'documents-unit';
const ID = '0b7c3f0e-2f4e-4b8e-9a57-5f1d2c3b4a69';
const KEY = `office-conversion/${ID}/document.docx`;
const OUTPUT = `office-conversion/${ID}/document.pdf`;
const PDF = new TextEncoder().encode('%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF\n');
const DOCX = new TextEncoder().encode('PK\u0003\u0004 the docx bytes');

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const body = (bytes: Uint8Array) => Readable.from([Buffer.from(bytes)]) as never;
const warnings: string[] = [];

function converter() {
  return new LambdaOfficeConverter({
    files: s3Files,
    functionName: 'ReceiptsProcessing-OfficeConverterFn',
    lambda: new LambdaClient({ region: 'eu-west-1' }),
    newId: () => ID,
    log: { warn: (msg) => warnings.push(msg) },
  });
}

/** The keys of every DeleteObjects call. */
const deleted = () => s3.commandCalls(DeleteObjectsCommand).flatMap((c) => c.args[0].input.Delete!.Objects!.map((o) => o.Key));

beforeEach(() => {
  process.env.TABLE_NAME = 'unit-table';
  process.env.DOCUMENTS_BUCKET = BUCKET;
  process.env.AWS_REGION = 'eu-west-1';
  resetEnvCache();
  resetS3Client();
  s3.reset();
  lambda.reset();
  warnings.length = 0;
  s3.on(PutObjectCommand).resolves({});
  s3.on(DeleteObjectsCommand).resolves({});
});
afterEach(() => {
  s3.reset();
  lambda.reset();
});

describe('LambdaOfficeConverter', () => {
  it('puts the file under office-conversion/, invokes the converter with the keys, returns its PDF and deletes both objects', async () => {
    lambda.on(InvokeCommand).resolves({ StatusCode: 200, Payload: json({ ok: true, outputKey: OUTPUT }) as never });
    s3.on(GetObjectCommand, { Bucket: BUCKET, Key: OUTPUT }).resolves({ Body: body(PDF), ContentLength: PDF.length, ETag: '"e1"' });

    const out = await converter().toPdf(DOCX, 'Sąskaita 7.DOCX');
    expect(out).toEqual({ pdf: PDF });

    const [put] = s3.commandCalls(PutObjectCommand);
    expect(put!.args[0].input).toMatchObject({ Bucket: BUCKET, Key: KEY });
    expect(new Uint8Array(put!.args[0].input.Body as Uint8Array)).toEqual(DOCX);
    const [invoke] = lambda.commandCalls(InvokeCommand);
    expect(invoke!.args[0].input).toMatchObject({ FunctionName: 'ReceiptsProcessing-OfficeConverterFn', InvocationType: 'RequestResponse' });
    expect(JSON.parse(new TextDecoder().decode(invoke!.args[0].input.Payload as Uint8Array))).toEqual({ bucket: BUCKET, key: KEY, outputKey: OUTPUT });
    expect(s3.commandCalls(GetObjectCommand).map((c) => c.args[0].input.Key)).toEqual([OUTPUT]);
    expect(deleted().sort()).toEqual([KEY, OUTPUT].sort());
  });

  it('answers the converter’s reason when it could not convert the file, and deletes both objects', async () => {
    lambda.on(InvokeCommand).resolves({ StatusCode: 200, Payload: json({ ok: false, reason: 'LibreOffice did not convert the file (exit code 1)' }) as never });
    const out = await converter().toPdf(DOCX, 'a.docx');
    expect(out).toEqual({ pdf: null, reason: 'LibreOffice did not convert the file (exit code 1)' });
    expect(s3.commandCalls(GetObjectCommand)).toHaveLength(0);
    expect(deleted().sort()).toEqual([KEY, OUTPUT].sort());
  });

  it('turns a function error (a crash, a timeout) into no PDF with the error, and deletes both objects', async () => {
    lambda.on(InvokeCommand).resolves({
      StatusCode: 200,
      FunctionError: 'Unhandled',
      Payload: json({ errorType: 'Sandbox.Timedout', errorMessage: 'Task timed out after 120.00 seconds' }) as never,
    });
    const out = await converter().toPdf(DOCX, 'a.xlsx');
    expect(out).toEqual({ pdf: null, reason: 'The office converter failed: Sandbox.Timedout: Task timed out after 120.00 seconds' });
    expect(JSON.parse(new TextDecoder().decode(lambda.commandCalls(InvokeCommand)[0]!.args[0].input.Payload as Uint8Array)).key).toBe(
      `office-conversion/${ID}/document.xlsx`,
    );
    expect(deleted().sort()).toEqual([`office-conversion/${ID}/document.xlsx`, OUTPUT].sort());
  });

  it('turns an invoke error (no permission, no such function) into no PDF, and deletes both objects', async () => {
    lambda.on(InvokeCommand).rejects(Object.assign(new Error('User is not authorized to perform: lambda:InvokeFunction'), { name: 'AccessDeniedException' }));
    const out = await converter().toPdf(DOCX, 'a.docx');
    expect(out).toEqual({ pdf: null, reason: 'The office converter could not be used: AccessDeniedException: User is not authorized to perform: lambda:InvokeFunction' });
    expect(deleted().sort()).toEqual([KEY, OUTPUT].sort());
  });

  it('turns an S3 error into no PDF without invoking, and a failed delete into a warning only', async () => {
    s3.on(PutObjectCommand).rejects(Object.assign(new Error('Access Denied'), { name: 'AccessDenied' }));
    s3.on(DeleteObjectsCommand).rejects(new Error('S3 is down'));
    const out = await converter().toPdf(DOCX, 'a.docx');
    expect(out).toEqual({ pdf: null, reason: 'The office converter could not be used: AccessDenied: Access Denied' });
    expect(lambda.commandCalls(InvokeCommand)).toHaveLength(0);
    expect(s3.commandCalls(DeleteObjectsCommand)).toHaveLength(1);
    expect(warnings).toEqual(['office conversion objects not deleted']);
  });

  it('refuses an answer that is not the converter’s, or an output that is not a PDF', async () => {
    lambda.on(InvokeCommand).resolvesOnce({ StatusCode: 200, Payload: new TextEncoder().encode('null') as never });
    expect(await converter().toPdf(DOCX, 'a.docx')).toEqual({ pdf: null, reason: 'The office converter gave no readable answer: null' });

    lambda.on(InvokeCommand).resolves({ StatusCode: 200, Payload: json({ ok: true, outputKey: OUTPUT }) as never });
    const html = new TextEncoder().encode('<html>not a pdf</html>');
    s3.on(GetObjectCommand).resolves({ Body: body(html), ContentLength: html.length, ETag: '"e2"' });
    expect(await converter().toPdf(DOCX, 'a.docx')).toEqual({ pdf: null, reason: 'The office converter wrote a file that is not a PDF' });
    // Every conversion removed its objects.
    expect(s3.commandCalls(DeleteObjectsCommand)).toHaveLength(2);
  });

  it('names the file by a safe extension only', async () => {
    lambda.on(InvokeCommand).resolves({ StatusCode: 200, Payload: json({ ok: false, reason: 'no' }) as never });
    await converter().toPdf(DOCX, '../../etc/passwd');
    await converter().toPdf(DOCX, 'report.final.ODS');
    expect(s3.commandCalls(PutObjectCommand).map((c) => c.args[0].input.Key)).toEqual([`office-conversion/${ID}/document.bin`, `office-conversion/${ID}/document.ods`]);
  });
});
