/**
 * The office converter's handler (lambdas/jobs/convert-office.ts) and its core: it converts only objects of one
 * conversion folder under office-conversion/ of the documents bucket and refuses every other request before it
 * touches S3; its files adapter refuses keys outside that prefix too (its role grants only the prefix).
 */
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetS3Client } from '../../../lambdas/adapters/s3/files';
import { convertOfficeObject } from '../../../lambdas/core/documents/office-conversion';
import type { OfficeConverter } from '../../../lambdas/core/documents/ports';
import { handler } from '../../../lambdas/jobs/convert-office';
import { resetEnvCache } from '../../../lambdas/runtime/env';
import { filesFor } from '../../../lambdas/runtime/lazy-adapters';
import { MemoryFiles } from './fakes';
import { DOCUMENT_MAX_BYTES } from '../../../shared/constants';
import { jobHandlers } from '../../../shared/routes';
import { officeConversionKeys, officeConversionRequestSchema } from '../../../shared/schemas/office-conversion';

const s3 = mockClient(S3Client);
const BUCKET = 'documents-unit';
const good = { bucket: BUCKET, key: 'office-conversion/0b7c3f0e-2f4e/document.docx', outputKey: 'office-conversion/0b7c3f0e-2f4e/document.pdf' };

beforeEach(() => {
  process.env.TABLE_NAME = 'unit-table';
  process.env.DOCUMENTS_BUCKET = BUCKET;
  process.env.AWS_REGION = 'eu-west-1';
  resetEnvCache();
  resetS3Client();
  s3.reset();
});
afterEach(() => s3.reset());

describe('office conversion requests', () => {
  it('accepts the keys of one conversion folder, as the processing job makes them', () => {
    expect(officeConversionRequestSchema.parse(good)).toEqual(good);
    expect(officeConversionKeys('0b7c3f0e-2f4e', 'docx')).toEqual({ key: good.key, outputKey: good.outputKey });
    expect(officeConversionKeys('0b7c3f0e-2f4e', 'pdf').key).toBe('office-conversion/0b7c3f0e-2f4e/document.bin');
    expect(() => officeConversionKeys('../x', 'docx')).toThrow(/Not an office conversion id/);
  });

  it.each([
    ['another prefix', { ...good, key: 'uploads/c1/r1/document.docx' }],
    ['an output under another prefix', { ...good, outputKey: 'uploads/0b7c3f0e-2f4e/document.pdf' }],
    ['a path going up', { ...good, key: 'office-conversion/../uploads/document.docx' }],
    ['a deeper path', { ...good, key: 'office-conversion/0b7c3f0e-2f4e/x/document.docx' }],
    ['two folders', { ...good, outputKey: 'office-conversion/other/document.pdf' }],
    ['an output that is not a PDF', { ...good, outputKey: 'office-conversion/0b7c3f0e-2f4e/document.docx' }],
    ['a PDF to convert', { ...good, key: good.outputKey }],
    ['another file name', { ...good, key: 'office-conversion/0b7c3f0e-2f4e/invoice.docx' }],
    ['a key too long', { ...good, key: `office-conversion/${'a'.repeat(300)}/document.docx` }],
    ['an unknown field', { ...good, versionId: '1' }],
    ['no output key', { bucket: BUCKET, key: good.key }],
    ['no object', 'office-conversion/0b7c3f0e-2f4e/document.docx'],
  ])('refuses %s without touching S3', async (_what, event) => {
    expect(officeConversionRequestSchema.safeParse(event).success).toBe(false);
    const out = await handler(event);
    expect(out.ok).toBe(false);
    expect(out).toMatchObject({ reason: expect.stringMatching(/^Not an office conversion request: /) });
    expect(s3.calls()).toHaveLength(0);
  });

  it('refuses a bucket other than the documents bucket without touching S3', async () => {
    expect(await handler({ ...good, bucket: 'someone-elses-bucket' })).toEqual({ ok: false, reason: 'Only the documents bucket is converted, not someone-elses-bucket' });
    expect(s3.calls()).toHaveLength(0);
  });
});

describe('the converter’s files', () => {
  it('reads and writes under office-conversion/ only (the role grants nothing else)', async () => {
    const files = filesFor(jobHandlers.convertOffice);
    await expect(files.get('uploads/c1/r1/invoice.docx')).rejects.toThrow(/jobs\/convert-office calls files\.get .* without declaring the need 'documentsRead'/);
    await expect(files.put('pages/r1/1.jpg', new Uint8Array([1]), 'image/jpeg')).rejects.toThrow(/without declaring the need 'documentsBucket'/);
    await expect(files.get('office-conversion/../uploads/x/document.docx')).rejects.toThrow(/without declaring/);
    await expect(files.delete([good.key])).rejects.toThrow(/without declaring the need 'documentsBucket'/);
    expect(s3.calls()).toHaveLength(0);

    s3.on(PutObjectCommand).resolves({});
    await files.put(good.outputKey, new Uint8Array([37, 80, 68, 70]), 'application/pdf');
    expect(s3.commandCalls(PutObjectCommand)[0]!.args[0].input).toMatchObject({ Bucket: BUCKET, Key: good.outputKey, ContentType: 'application/pdf' });
    s3.on(GetObjectCommand).rejects(Object.assign(new Error('The specified key does not exist.'), { name: 'NoSuchKey' }));
    await expect(files.get(good.key)).rejects.toThrow(/does not exist/);
    expect(s3.commandCalls(GetObjectCommand)[0]!.args[0].input).toMatchObject({ Bucket: BUCKET, Key: good.key });
  });
});

describe('convertOfficeObject', () => {
  const PDF = new TextEncoder().encode('%PDF-1.7\n%%EOF\n');
  const log = { info: () => undefined, warn: () => undefined };

  /** The documents bucket in memory, named like the documents bucket of the requests. */
  function memoryFiles(stored: Record<string, Uint8Array>): MemoryFiles {
    const files = new MemoryFiles();
    files.bucket = () => BUCKET;
    for (const [key, bytes] of Object.entries(stored)) void files.put(key, bytes);
    return files;
  }

  it('converts the office file with the port and writes the PDF at outputKey', async () => {
    const files = memoryFiles({ [good.key]: new Uint8Array([1, 2, 3]) });
    const seen: string[] = [];
    const office: OfficeConverter = { toPdf: async (bytes, name) => (seen.push(`${name}:${bytes.length}`), { pdf: PDF }) };
    expect(await convertOfficeObject({ files, office, log }, good)).toEqual({ ok: true, outputKey: good.outputKey });
    expect(seen).toEqual(['document.docx:3']);
    expect((await files.get(good.outputKey)).bytes).toEqual(PDF);
  });

  it('answers why there is no PDF, and writes nothing', async () => {
    const files = memoryFiles({ [good.key]: new Uint8Array([1]) });
    const office: OfficeConverter = { toPdf: async () => ({ pdf: null, reason: 'LibreOffice did not finish within 60 s' }) };
    expect(await convertOfficeObject({ files, office, log }, good)).toEqual({ ok: false, reason: 'LibreOffice did not finish within 60 s' });
    expect(await files.head(good.outputKey)).toBeUndefined();
  });

  it('refuses a file larger than a document may be', async () => {
    const office: OfficeConverter = { toPdf: async () => ({ pdf: PDF }) };
    const files = memoryFiles({ [good.key]: new Uint8Array(DOCUMENT_MAX_BYTES + 1) });
    expect(await convertOfficeObject({ files, office, log }, good)).toEqual({ ok: false, reason: 'The file is larger than 31457280 bytes' });
    expect(await files.head(good.outputKey)).toBeUndefined();
  });
});
