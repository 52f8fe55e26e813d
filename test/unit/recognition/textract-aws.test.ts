/**
 * Textract on AWS: permanent errors fail the document at once (a DocumentProblem with a readable message),
 * transient ones are retried as they are; one ClientRequestToken per document run; one-page PDFs through the
 * synchronous call; photos sent upright (EXIF orientation applied) and within Textract's pixel and size limits.
 */
import { AnalyzeExpenseCommand, GetExpenseAnalysisCommand, StartExpenseAnalysisCommand, TextractClient } from '@aws-sdk/client-textract';
import { mockClient } from 'aws-sdk-client-mock';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { beforeEach, describe, expect, it } from 'vitest';
import { clientRequestToken, MAX_IMAGE_SIDE, MIN_FITTED_IMAGE_SIDE, SYNC_MAX_BYTES, TEXTRACT_PROBLEM_MSG, TextractRecogniser } from '../../../lambdas/adapters/textract';
import { DocumentProblem } from '../../../lambdas/core/documents/ports';

const dir = join(import.meta.dirname, '../../fixtures/recognition');
const PDF = new Uint8Array(readFileSync(join(dir, 'invoice-en.pdf')));
const textract = mockClient(TextractClient);
const client = new TextractClient({ region: 'eu-west-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
const noSleep = async () => undefined;
const S3 = { bucket: 'docs', key: 'uploads/c1/u1/up1/invoice.pdf' };

function awsError(name: string): Error {
  const e = new Error(`${name} from Textract`);
  e.name = name;
  return e;
}

/** A photo of random pixels: it compresses badly, as large photos with fine detail do. */
async function noisy(width: number, height: number, encode: (img: Sharp) => Sharp): Promise<Uint8Array> {
  const raw = randomBytes(width * height * 3);
  return new Uint8Array(await encode(sharp(raw, { raw: { width, height, channels: 3 } })).toBuffer());
}

const isJpeg = (b: Uint8Array) => b[0] === 0xff && b[1] === 0xd8;

async function photo(width: number, height: number, orientation?: number): Promise<Uint8Array> {
  // Left half black, right half white: where the black half ends up tells how the photo was turned.
  const left = await sharp({ create: { width: Math.floor(width / 2), height, channels: 3, background: '#000000' } }).png().toBuffer();
  const img = sharp({ create: { width, height, channels: 3, background: '#ffffff' } }).composite([{ input: left, left: 0, top: 0 }]);
  return new Uint8Array(await (orientation ? img.withMetadata({ orientation }) : img).jpeg().toBuffer());
}

beforeEach(() => textract.reset());

describe('Textract errors', () => {
  it.each([
    ['UnsupportedDocumentException', TEXTRACT_PROBLEM_MSG.unsupported],
    ['DocumentTooLargeException', TEXTRACT_PROBLEM_MSG.tooLarge],
    ['BadDocumentException', TEXTRACT_PROBLEM_MSG.bad],
  ])('%s is permanent: a DocumentProblem with a readable message', async (name, message) => {
    textract.on(AnalyzeExpenseCommand).rejects(awsError(name));
    const err = await new TextractRecogniser({ client }).analyzeExpense({ bytes: await photo(60, 40), mime: 'image/jpeg' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DocumentProblem);
    expect((err as Error).message).toBe(message);
  });

  it.each(['ThrottlingException', 'ProvisionedThroughputExceededException', 'InternalServerError', 'LimitExceededException'])(
    '%s is transient: thrown as it is, for the queue to retry',
    async (name) => {
      textract.on(AnalyzeExpenseCommand).rejects(awsError(name));
      const err = await new TextractRecogniser({ client }).analyzeExpense({ bytes: await photo(60, 40), mime: 'image/jpeg' }).catch((e: unknown) => e);
      expect(err).not.toBeInstanceOf(DocumentProblem);
      expect((err as Error).name).toBe(name);
    },
  );

  it('an asynchronous job that failed on the document is permanent; one that failed inside Textract is not', async () => {
    textract.on(StartExpenseAnalysisCommand).resolves({ JobId: 'j' });
    textract.on(GetExpenseAnalysisCommand).resolves({ JobStatus: 'FAILED', StatusMessage: 'UNSUPPORTED_DOCUMENT' });
    const r = new TextractRecogniser({ client, sleep: noSleep });
    const err = await r.analyzeExpense({ bytes: PDF, mime: 'application/pdf', s3Object: S3 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DocumentProblem);
    expect((err as Error).message).toBe(TEXTRACT_PROBLEM_MSG.unsupported);
    textract.on(GetExpenseAnalysisCommand).resolves({ JobStatus: 'FAILED', StatusMessage: 'INTERNAL_ERROR' });
    expect(await r.analyzeExpense({ bytes: PDF, mime: 'application/pdf', s3Object: S3 }).catch((e: unknown) => e)).not.toBeInstanceOf(DocumentProblem);
  });
});

describe('ClientRequestToken', () => {
  it('is the same for deliveries of one run and differs per run and per object', async () => {
    textract.on(StartExpenseAnalysisCommand).resolves({ JobId: 'j' });
    textract.on(GetExpenseAnalysisCommand).resolves({ JobStatus: 'SUCCEEDED', ExpenseDocuments: [] });
    const r = new TextractRecogniser({ client, sleep: noSleep });
    const input = { bytes: PDF, mime: 'application/pdf', s3Object: S3, pageCount: 2 };
    await r.analyzeExpense({ ...input, idempotencyKey: 'DOC1.1' });
    await r.analyzeExpense({ ...input, idempotencyKey: 'DOC1.1' });
    await r.analyzeExpense({ ...input, idempotencyKey: 'DOC1.2' });
    await r.analyzeExpense({ ...input, idempotencyKey: 'DOC1.1', s3Object: { ...S3, key: 'docs/DOC1/source-p2.pdf' } });
    const tokens = textract.commandCalls(StartExpenseAnalysisCommand).map((c) => c.args[0].input.ClientRequestToken!);
    expect(tokens[0]).toMatch(/^[a-zA-Z0-9-_]{1,64}$/);
    expect(tokens[1]).toBe(tokens[0]);
    expect(new Set(tokens).size).toBe(3);
    expect(tokens[0]).toBe(clientRequestToken('DOC1.1', S3));
  });
});

describe('one-page PDFs', () => {
  it('go to the synchronous AnalyzeExpense as bytes, not to an asynchronous job', async () => {
    textract.on(AnalyzeExpenseCommand).resolves({ DocumentMetadata: { Pages: 1 }, ExpenseDocuments: [] });
    await new TextractRecogniser({ client }).analyzeExpense({ bytes: PDF, mime: 'application/pdf', s3Object: S3, pageCount: 1 });
    expect(textract.commandCalls(AnalyzeExpenseCommand)[0]!.args[0].input.Document).toEqual({ Bytes: PDF });
    expect(textract.commandCalls(StartExpenseAnalysisCommand)).toHaveLength(0);
  });

  it('a one-page PDF the synchronous call refuses is analysed asynchronously; more pages always are', async () => {
    textract.on(AnalyzeExpenseCommand).rejects(awsError('UnsupportedDocumentException'));
    textract.on(StartExpenseAnalysisCommand).resolves({ JobId: 'j' });
    textract.on(GetExpenseAnalysisCommand).resolves({ JobStatus: 'SUCCEEDED', ExpenseDocuments: [] });
    const r = new TextractRecogniser({ client, sleep: noSleep });
    await r.analyzeExpense({ bytes: PDF, mime: 'application/pdf', s3Object: S3, pageCount: 1 });
    await r.analyzeExpense({ bytes: PDF, mime: 'application/pdf', s3Object: S3, pageCount: 3 });
    expect(textract.commandCalls(AnalyzeExpenseCommand)).toHaveLength(1);
    expect(textract.commandCalls(StartExpenseAnalysisCommand)).toHaveLength(2);
  });
});

describe('photos', () => {
  it('an EXIF-rotated photo is sent upright, as the viewer shows it, so the boxes fit the displayed image', async () => {
    textract.on(AnalyzeExpenseCommand).resolves({ ExpenseDocuments: [] });
    // Stored 200 × 100 landscape with orientation 6 (turn 90° clockwise to view): shown 100 × 200, black on top.
    const raw = await photo(200, 100, 6);
    await new TextractRecogniser({ client }).analyzeExpense({ bytes: raw, mime: 'image/jpeg', s3Object: S3 });
    const input = textract.commandCalls(AnalyzeExpenseCommand)[0]!.args[0].input.Document!;
    expect(input.S3Object).toBeUndefined();
    const sent = sharp(Buffer.from(input.Bytes!));
    const meta = await sent.metadata();
    expect([meta.width, meta.height, meta.orientation ?? 1]).toEqual([100, 200, 1]);
    const { data } = await sent.clone().extract({ left: 50, top: 20, width: 1, height: 1 }).raw().toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeLessThan(60); // black half on top after the turn
    // The page image (renderer: sharp's rotate()) has the same shape.
    const { info } = await sharp(Buffer.from(raw)).rotate().jpeg().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([meta.width, meta.height]);
  });

  it('an upright photo is sent unchanged', async () => {
    textract.on(AnalyzeExpenseCommand).resolves({ ExpenseDocuments: [] });
    const raw = await photo(200, 100);
    await new TextractRecogniser({ client }).analyzeExpense({ bytes: raw, mime: 'image/jpeg' });
    expect(textract.commandCalls(AnalyzeExpenseCommand)[0]!.args[0].input.Document!.Bytes).toEqual(raw);
  });

  it('a photo over Textract’s pixel limit is scaled down instead of being refused', async () => {
    textract.on(AnalyzeExpenseCommand).resolves({ ExpenseDocuments: [] });
    await new TextractRecogniser({ client }).analyzeExpense({ bytes: await photo(MAX_IMAGE_SIDE + 500, 40), mime: 'image/jpeg' });
    const meta = await sharp(Buffer.from(textract.commandCalls(AnalyzeExpenseCommand)[0]!.args[0].input.Document!.Bytes!)).metadata();
    expect(meta.width).toBe(MAX_IMAGE_SIDE);
  });

  it('a large WebP photo is sent as a JPEG within Textract’s size limit, at its own size (as PNG it would be over 10 MB)', { timeout: 60_000 }, async () => {
    textract.on(AnalyzeExpenseCommand).resolves({ ExpenseDocuments: [] });
    const webp = await noisy(2400, 2000, (img) => img.webp());
    expect((await sharp(Buffer.from(webp)).png().toBuffer()).byteLength).toBeGreaterThan(SYNC_MAX_BYTES);
    await new TextractRecogniser({ client }).analyzeExpense({ bytes: webp, mime: 'image/webp', s3Object: S3 });
    const calls = textract.commandCalls(AnalyzeExpenseCommand);
    expect(calls).toHaveLength(1);
    const doc = calls[0]!.args[0].input.Document!;
    expect(doc.S3Object).toBeUndefined();
    expect(doc.Bytes!.byteLength).toBeLessThanOrEqual(SYNC_MAX_BYTES);
    expect(isJpeg(doc.Bytes!)).toBe(true);
    const meta = await sharp(Buffer.from(doc.Bytes!)).metadata();
    expect([meta.width, meta.height]).toEqual([2400, 2000]);
  });

  it('a photo over Textract’s size limit is re-encoded (smaller if need be) until it fits, never sent from S3', { timeout: 60_000 }, async () => {
    textract.on(AnalyzeExpenseCommand).resolves({ ExpenseDocuments: [] });
    const jpeg = await noisy(4000, 3000, (img) => img.jpeg({ quality: 100 }));
    expect(jpeg.byteLength).toBeGreaterThan(SYNC_MAX_BYTES);
    await new TextractRecogniser({ client }).analyzeExpense({ bytes: jpeg, mime: 'image/jpeg', s3Object: S3 });
    const doc = textract.commandCalls(AnalyzeExpenseCommand)[0]!.args[0].input.Document!;
    expect(doc.S3Object).toBeUndefined();
    expect(doc.Bytes!.byteLength).toBeLessThanOrEqual(SYNC_MAX_BYTES);
    expect(isJpeg(doc.Bytes!)).toBe(true);
    const meta = await sharp(Buffer.from(doc.Bytes!)).metadata();
    expect(meta.width! / meta.height!).toBeCloseTo(4 / 3, 2);
    // Where a lower quality is not enough, it is scaled down, keeping its shape.
    await new TextractRecogniser({ client, maxImageBytes: 3_000_000 }).analyzeExpense({ bytes: jpeg, mime: 'image/jpeg', s3Object: S3 });
    const smaller = textract.commandCalls(AnalyzeExpenseCommand)[1]!.args[0].input.Document!.Bytes!;
    expect(smaller.byteLength).toBeLessThanOrEqual(3_000_000);
    const small = await sharp(Buffer.from(smaller)).metadata();
    expect(small.width).toBeLessThan(4000);
    expect(small.width!).toBeGreaterThanOrEqual(MIN_FITTED_IMAGE_SIDE);
    expect(small.width! / small.height!).toBeCloseTo(4 / 3, 2);
  });

  it('an image that cannot be made to fit fails at once with a readable message, without calling Textract', { timeout: 60_000 }, async () => {
    const webp = await noisy(2400, 2000, (img) => img.webp());
    const error = await new TextractRecogniser({ client, maxImageBytes: 20_000 }).analyzeExpense({ bytes: webp, mime: 'image/webp', s3Object: S3 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocumentProblem);
    expect((error as Error).message).toBe(TEXTRACT_PROBLEM_MSG.tooLarge);
    expect(textract.commandCalls(AnalyzeExpenseCommand)).toHaveLength(0);
  });

  it('a WebP that cannot be decoded fails at once, without calling Textract', async () => {
    const broken = new Uint8Array([...Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1'), ...randomBytes(64)]);
    const error = await new TextractRecogniser({ client }).analyzeExpense({ bytes: broken, mime: 'image/webp' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocumentProblem);
    expect((error as Error).message).toBe(TEXTRACT_PROBLEM_MSG.bad);
    expect(textract.commandCalls(AnalyzeExpenseCommand)).toHaveLength(0);
  });
});
