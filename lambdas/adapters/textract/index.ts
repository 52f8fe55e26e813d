/**
 * AWS Textract as the recogniser: AnalyzeExpense for images (bytes, or the S3 object when given) and
 * one-page PDFs within its limits, StartExpenseAnalysis + GetExpenseAnalysis polling for other PDFs
 * (Textract reads multi-page PDFs only from S3), with a ClientRequestToken per document and processing run
 * so that a redelivery resumes the same Textract job instead of starting (and paying for) another.
 * Textract's answers that no retry can change (unsupported or bad document, too large) become a
 * DocumentProblem: the document fails at once with a readable message; everything else is thrown as it is
 * and retried by the queue.
 * Photos are sent upright (their EXIF orientation applied, as the page images are rendered), so that
 * Textract's boxes fit the image the viewer shows, and always as bytes within Textract's limits for images (JPEG or
 * PNG, at most 10 MB and 10,000 pixels a side, whether sent as bytes or from S3): others are re-encoded and scaled
 * down until they fit, and one that cannot fit fails at once. UBL XML and Factur-X/ZUGFeRD PDFs are read from their XML, and office documents by the office
 * text reader (or the text layer of their LibreOffice PDF), without calling Textract.
 */
import {
  AnalyzeExpenseCommand,
  GetExpenseAnalysisCommand,
  StartExpenseAnalysisCommand,
  TextractClient,
  type ExpenseDocument,
  type GetExpenseAnalysisCommandOutput,
} from '@aws-sdk/client-textract';
import { PROCESSING_LIMITS } from '../../../shared/processing-limits';
import { createHash } from 'node:crypto';
import { DocumentProblem } from '../../core/documents/ports';
import { eInvoiceResult, xmlFileResult } from '../../core/recognition/einvoice';
import { detectDocumentKind, UnsupportedDocumentError } from '../../core/recognition/file-type';
import { applyHintsToResult } from '../../core/recognition/learn';
import type { AnalyzeExpenseResult, Recogniser, RecogniserInput } from '../../core/recognition/types';
import { recogniseOffice } from '../local-recogniser/office';
import { embeddedEInvoice } from '../local-recogniser/pdf';

/** Largest document AnalyzeExpense accepts as bytes. */
export const SYNC_MAX_BYTES = 10 * 1024 * 1024;
/** Longest side of an image Textract accepts (pixels); larger photos are scaled down before they are sent. */
export const MAX_IMAGE_SIDE = 10_000;
/**
 * A photo is not scaled down below this longest side to make it fit Textract's size limit: its text would be too
 * small to read. (A JPEG of this size is far under the limit, so in practice every photo fits.)
 */
export const MIN_FITTED_IMAGE_SIDE = 1000;
/** JPEG quality of a photo that is turned, converted or too large as it is; then lower while it does not fit. */
const JPEG_QUALITY = 92;
const JPEG_FITTING_QUALITY = 80;
/** Encodings tried before an image that does not fit is given up. */
const MAX_FIT_ATTEMPTS = 8;

/** Messages of documents Textract cannot read, whatever the number of tries. */
export const TEXTRACT_PROBLEM_MSG = {
  unsupported: 'This file type is not allowed',
  tooLarge: 'The document is too large to be processed',
  bad: 'The document could not be read. Check the file and upload it again.',
} as const;

/** Textract's error names that no retry changes, with the message the user sees. */
const PERMANENT_ERRORS: Record<string, string> = {
  UnsupportedDocumentException: TEXTRACT_PROBLEM_MSG.unsupported,
  DocumentTooLargeException: TEXTRACT_PROBLEM_MSG.tooLarge,
  BadDocumentException: TEXTRACT_PROBLEM_MSG.bad,
  InvalidParameterException: TEXTRACT_PROBLEM_MSG.bad,
};

/** StatusMessage of a FAILED asynchronous job that no retry changes (e.g. UNSUPPORTED_DOCUMENT_FORMAT). */
function permanentJobFailure(statusMessage: string | undefined): string | undefined {
  const m = (statusMessage ?? '').toUpperCase();
  if (/UNSUPPORTED/.test(m)) return TEXTRACT_PROBLEM_MSG.unsupported;
  if (/TOO_LARGE|TOO LARGE|PAGE_SIZE|EXCEEDS/.test(m)) return TEXTRACT_PROBLEM_MSG.tooLarge;
  if (/BAD_DOCUMENT|INVALID_(DOCUMENT|IMAGE|PDF)|CORRUPT|DAMAGED|PASSWORD/.test(m)) return TEXTRACT_PROBLEM_MSG.bad;
  return undefined;
}

/** A permanent Textract error as a DocumentProblem (the document fails now); anything else unchanged. */
export function classifyTextractError(error: unknown): unknown {
  const name = (error as { name?: string } | undefined)?.name ?? '';
  const message = PERMANENT_ERRORS[name];
  return message ? new DocumentProblem(message) : error;
}

/** ClientRequestToken (1–64 of [A-Za-z0-9-_]) for one document run and the object it reads. */
export function clientRequestToken(idempotencyKey: string, s3Object: { bucket: string; key: string; version?: string }): string {
  return createHash('sha256').update(`${idempotencyKey}\n${s3Object.bucket}\n${s3Object.key}\n${s3Object.version ?? ''}`).digest('hex');
}

export interface TextractRecogniserOptions {
  client?: TextractClient;
  /** Wait between GetExpenseAnalysis polls (default 2 s). */
  pollIntervalMs?: number;
  /** Give up on an asynchronous job after this long (default PROCESSING_LIMITS.textractMaxWaitSeconds, within the job's timeout). */
  maxWaitMs?: number;
  /** Largest image sent to Textract (default SYNC_MAX_BYTES, Textract's limit). */
  maxImageBytes?: number;
  sleep?: (ms: number) => Promise<void>;
}

export class TextractJobError extends Error {
  constructor(
    readonly jobId: string,
    readonly status: string,
    message: string,
  ) {
    super(message);
    this.name = 'TextractJobError';
  }
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class TextractRecogniser implements Recogniser {
  private readonly client: TextractClient;
  private readonly pollIntervalMs: number;
  private readonly maxWaitMs: number;
  private readonly maxImageBytes: number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(opts: TextractRecogniserOptions = {}) {
    this.client = opts.client ?? new TextractClient({});
    this.pollIntervalMs = opts.pollIntervalMs ?? 2000;
    this.maxWaitMs = opts.maxWaitMs ?? PROCESSING_LIMITS.textractMaxWaitSeconds * 1000;
    this.maxImageBytes = Math.min(opts.maxImageBytes ?? SYNC_MAX_BYTES, SYNC_MAX_BYTES);
    this.sleep = opts.sleep ?? defaultSleep;
  }

  async analyzeExpense(input: RecogniserInput): Promise<AnalyzeExpenseResult> {
    try {
      return await this.analyze(input);
    } catch (error) {
      throw classifyTextractError(error);
    }
  }

  private async analyze(input: RecogniserInput): Promise<AnalyzeExpenseResult> {
    const kind = detectDocumentKind(input.bytes, input.mime, input.fileName);
    let result: AnalyzeExpenseResult;
    switch (kind) {
      case 'image':
        result = await this.analyzeImage(input);
        break;
      case 'pdf': {
        // A PDF pdfjs cannot open may still be one Textract reads.
        const xml = await embeddedEInvoice(input.bytes).catch(() => undefined);
        result = xml ? eInvoiceResult(xml) : await this.analyzePdf(input);
        break;
      }
      case 'xml':
        result = xmlFileResult(input.bytes);
        break;
      case 'office':
        // Textract reads images and PDFs only: office files are read by the local text reader.
        result = await recogniseOffice(input);
        break;
      default:
        throw new UnsupportedDocumentError(input.mime || input.fileName);
    }
    return applyHintsToResult(result, input.hints);
  }

  private async analyzeImage(input: RecogniserInput): Promise<AnalyzeExpenseResult> {
    // Textract's limits for an image are the same from S3 as in bytes: it is always sent as the bytes that fit.
    return this.analyzeSync({ ...(await this.fittingImage(input)), s3Object: undefined });
  }

  /**
   * The image as Textract reads it. Textract reads JPEG, PNG and TIFF of at most 10 MB and MAX_IMAGE_SIDE pixels a
   * side. One that is within them and upright is sent as it is. Otherwise it is sent as the upright image the page
   * image is made from (Textract's boxes are fractions of the image it analysed, and the viewer shows the upright
   * one), no larger than MAX_IMAGE_SIDE: as PNG when it was a lossless PNG, TIFF or GIF and the PNG fits, else as
   * JPEG (WebP, AVIF, HEIC and large photos), at lower quality and then smaller until it fits. An image that cannot
   * be decoded, or that does not fit even at MIN_FITTED_IMAGE_SIDE, is a DocumentProblem: no retry changes it.
   */
  private async fittingImage(input: RecogniserInput): Promise<RecogniserInput> {
    const b = input.bytes;
    const jpeg = b[0] === 0xff && b[1] === 0xd8;
    const png = b[0] === 0x89 && b[1] === 0x50;
    const tiff = (b[0] === 0x49 && b[1] === 0x49) || (b[0] === 0x4d && b[1] === 0x4d);
    const native = jpeg || png || tiff;
    const { default: sharp } = await import('sharp');
    const meta = await sharp(b, { limitInputPixels: false })
      .metadata()
      .catch(() => undefined);
    if (!meta?.width || !meta.height) {
      // A JPEG, PNG or TIFF sharp cannot read is sent as it is when it may be: Textract's answer decides.
      if (native && b.byteLength <= this.maxImageBytes) return input;
      throw new DocumentProblem(TEXTRACT_PROBLEM_MSG.bad);
    }
    const turned = (meta.orientation ?? 1) > 1;
    const oversized = Math.max(meta.width, meta.height) > MAX_IMAGE_SIDE;
    if (native && !turned && !oversized && b.byteLength <= this.maxImageBytes) return input;

    const encode = async (side: number, format: 'png' | 'jpeg', quality = JPEG_QUALITY): Promise<Uint8Array> => {
      const upright = sharp(b, { limitInputPixels: false, failOn: 'error' })
        .rotate()
        .resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true });
      const out = format === 'png' ? upright.png() : upright.flatten({ background: '#ffffff' }).jpeg({ quality });
      try {
        return new Uint8Array(await out.toBuffer());
      } catch {
        throw new DocumentProblem(TEXTRACT_PROBLEM_MSG.bad);
      }
    };
    let side = Math.min(MAX_IMAGE_SIDE, Math.max(meta.width, meta.height));
    if (png || tiff || meta.format === 'gif') {
      const lossless = await encode(side, 'png');
      if (lossless.byteLength <= this.maxImageBytes) return { ...input, bytes: lossless, mime: 'image/png', s3Object: undefined };
    }
    let quality = JPEG_QUALITY;
    for (let attempt = 0; attempt < MAX_FIT_ATTEMPTS; attempt++) {
      const bytes = await encode(side, 'jpeg', quality);
      if (bytes.byteLength <= this.maxImageBytes) return { ...input, bytes, mime: 'image/jpeg', s3Object: undefined };
      if (quality > JPEG_FITTING_QUALITY) {
        quality = JPEG_FITTING_QUALITY;
        continue;
      }
      if (side <= MIN_FITTED_IMAGE_SIDE) break;
      // The size of a JPEG goes with its pixels: scale the area by what is over the limit, with a margin.
      const scale = Math.min(0.9, Math.sqrt(this.maxImageBytes / bytes.byteLength) * 0.95);
      side = Math.max(MIN_FITTED_IMAGE_SIDE, Math.floor(side * scale));
    }
    throw new DocumentProblem(TEXTRACT_PROBLEM_MSG.tooLarge);
  }

  /** AnalyzeExpense of the bytes, or of the S3 object when no bytes are given. */
  private async analyzeSync(input: RecogniserInput): Promise<AnalyzeExpenseResult> {
    const s3 = input.bytes.byteLength === 0 ? input.s3Object : undefined;
    const out = await this.client.send(
      new AnalyzeExpenseCommand({
        Document: s3
          ? { S3Object: { Bucket: s3.bucket, Name: s3.key, ...(s3.version ? { Version: s3.version } : {}) } }
          : { Bytes: input.bytes },
      }),
    );
    return { DocumentMetadata: out.DocumentMetadata ?? { Pages: 1 }, ExpenseDocuments: out.ExpenseDocuments ?? [] };
  }

  private async analyzePdf(input: RecogniserInput): Promise<AnalyzeExpenseResult> {
    // One page within AnalyzeExpense's limits: the synchronous call (seconds, not a job to wait for). A PDF
    // the synchronous call refuses is tried asynchronously, which reads more kinds of PDF.
    if (input.pageCount === 1 && input.bytes.byteLength <= SYNC_MAX_BYTES) {
      try {
        return await this.analyzeSync({ ...input, s3Object: undefined });
      } catch (error) {
        if (!input.s3Object || !(error instanceof Error && error.name === 'UnsupportedDocumentException')) throw error;
      }
    }
    if (!input.s3Object) throw new Error('Textract reads PDFs from S3: pass the document\'s s3Object');
    const { bucket, key, version } = input.s3Object;
    const started = await this.client.send(
      new StartExpenseAnalysisCommand({
        DocumentLocation: { S3Object: { Bucket: bucket, Name: key, ...(version ? { Version: version } : {}) } },
        // The same run's deliveries get the same job back (Textract keeps the token for 7 days).
        ...(input.idempotencyKey ? { ClientRequestToken: clientRequestToken(input.idempotencyKey, input.s3Object) } : {}),
      }),
    );
    const jobId = started.JobId;
    if (!jobId) throw new Error('Textract did not return a job id');
    const deadline = Date.now() + this.maxWaitMs;
    let first: GetExpenseAnalysisCommandOutput;
    for (;;) {
      first = await this.client.send(new GetExpenseAnalysisCommand({ JobId: jobId }));
      if (first.JobStatus !== 'IN_PROGRESS') break;
      if (Date.now() > deadline) throw new TextractJobError(jobId, 'IN_PROGRESS', `Textract job ${jobId} did not finish in time`);
      await this.sleep(this.pollIntervalMs);
    }
    if (first.JobStatus === 'FAILED') {
      const permanent = permanentJobFailure(first.StatusMessage);
      if (permanent) throw new DocumentProblem(permanent);
      throw new TextractJobError(jobId, 'FAILED', `Textract job ${jobId} failed: ${first.StatusMessage ?? 'no reason given'}`);
    }
    // SUCCEEDED or PARTIAL_SUCCESS: the results come in pages joined by NextToken.
    const docs: ExpenseDocument[] = [...(first.ExpenseDocuments ?? [])];
    let next = first.NextToken;
    while (next) {
      const page = await this.client.send(new GetExpenseAnalysisCommand({ JobId: jobId, NextToken: next }));
      docs.push(...(page.ExpenseDocuments ?? []));
      next = page.NextToken;
    }
    return { DocumentMetadata: first.DocumentMetadata ?? { Pages: 1 }, ExpenseDocuments: mergeByIndex(docs) };
  }
}

/** GetExpenseAnalysis may split one expense document over result pages; join them by ExpenseIndex. */
function mergeByIndex(docs: ExpenseDocument[]): ExpenseDocument[] {
  const out = new Map<number, ExpenseDocument>();
  for (const d of docs) {
    const idx = d.ExpenseIndex ?? out.size + 1;
    const cur = out.get(idx);
    if (!cur) out.set(idx, { ...d, SummaryFields: [...(d.SummaryFields ?? [])], LineItemGroups: [...(d.LineItemGroups ?? [])], Blocks: [...(d.Blocks ?? [])] });
    else {
      cur.SummaryFields!.push(...(d.SummaryFields ?? []));
      cur.LineItemGroups!.push(...(d.LineItemGroups ?? []));
      cur.Blocks!.push(...(d.Blocks ?? []));
    }
  }
  return [...out.values()].sort((a, b) => (a.ExpenseIndex ?? 0) - (b.ExpenseIndex ?? 0));
}
