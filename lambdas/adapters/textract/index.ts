/**
 * AWS Textract as the recogniser: AnalyzeExpense for images (bytes, or the S3 object when given),
 * StartExpenseAnalysis + GetExpenseAnalysis polling for PDFs (Textract reads multi-page PDFs only
 * from S3). UBL XML and Factur-X/ZUGFeRD PDFs are read from their XML, and office documents by the office
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
import { eInvoiceSyntax, eInvoiceToExtraction, parseEInvoice } from '../../core/recognition/einvoice';
import { toAnalyzeExpenseResult } from '../../core/recognition/expense';
import { detectDocumentKind, UnsupportedDocumentError } from '../../core/recognition/file-type';
import { applyHintsToResult } from '../../core/recognition/learn';
import type { AnalyzeExpenseResult, OcrDocument, Recogniser, RecogniserInput } from '../../core/recognition/types';
import { recogniseOffice } from '../local-recogniser/office';
import { embeddedEInvoice } from '../local-recogniser/pdf';

/** Largest document AnalyzeExpense accepts as bytes. */
export const SYNC_MAX_BYTES = 10 * 1024 * 1024;

export interface TextractRecogniserOptions {
  client?: TextractClient;
  /** Wait between GetExpenseAnalysis polls (default 2 s). */
  pollIntervalMs?: number;
  /** Give up on an asynchronous job after this long (default PROCESSING_LIMITS.textractMaxWaitSeconds, within the job's timeout). */
  maxWaitMs?: number;
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
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(opts: TextractRecogniserOptions = {}) {
    this.client = opts.client ?? new TextractClient({});
    this.pollIntervalMs = opts.pollIntervalMs ?? 2000;
    this.maxWaitMs = opts.maxWaitMs ?? PROCESSING_LIMITS.textractMaxWaitSeconds * 1000;
    this.sleep = opts.sleep ?? defaultSleep;
  }

  async analyzeExpense(input: RecogniserInput): Promise<AnalyzeExpenseResult> {
    const kind = detectDocumentKind(input.bytes, input.mime, input.fileName);
    let result: AnalyzeExpenseResult;
    switch (kind) {
      case 'image':
        result = await this.analyzeImage(input);
        break;
      case 'pdf': {
        // A PDF pdfjs cannot open may still be one Textract reads.
        const xml = await embeddedEInvoice(input.bytes).catch(() => undefined);
        if (xml) {
          const doc: OcrDocument = { source: 'xml', pages: [{ page: 1, width: 1, height: 1, lines: [] }] };
          result = toAnalyzeExpenseResult(doc, eInvoiceToExtraction(parseEInvoice(xml)));
        } else result = await this.analyzePdf(input);
        break;
      }
      case 'xml': {
        const xml = new TextDecoder('utf-8').decode(input.bytes);
        if (!eInvoiceSyntax(xml)) throw new UnsupportedDocumentError('XML that is neither UBL nor Cross Industry Invoice');
        const doc: OcrDocument = { source: 'xml', pages: [{ page: 1, width: 1, height: 1, lines: [] }] };
        result = toAnalyzeExpenseResult(doc, eInvoiceToExtraction(parseEInvoice(xml)));
        break;
      }
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
    // Textract reads JPEG, PNG and TIFF; WebP, GIF and HEIC photos are converted to PNG first.
    const b = input.bytes;
    const native = (b[0] === 0xff && b[1] === 0xd8) || (b[0] === 0x89 && b[1] === 0x50) || (b[0] === 0x49 && b[1] === 0x49) || (b[0] === 0x4d && b[1] === 0x4d);
    if (!native) {
      const { default: sharp } = await import('sharp');
      input = { ...input, bytes: new Uint8Array(await sharp(b).rotate().png().toBuffer()), mime: 'image/png' };
      delete input.s3Object;
    }
    const useS3 = input.s3Object && input.bytes.byteLength > SYNC_MAX_BYTES;
    if (!useS3 && input.bytes.byteLength > SYNC_MAX_BYTES) {
      throw new Error(`Images over ${SYNC_MAX_BYTES} bytes must be passed to Textract as an S3 object`);
    }
    const out = await this.client.send(
      new AnalyzeExpenseCommand({
        Document: useS3
          ? { S3Object: { Bucket: input.s3Object!.bucket, Name: input.s3Object!.key, ...(input.s3Object!.version ? { Version: input.s3Object!.version } : {}) } }
          : { Bytes: input.bytes },
      }),
    );
    return { DocumentMetadata: out.DocumentMetadata ?? { Pages: 1 }, ExpenseDocuments: out.ExpenseDocuments ?? [] };
  }

  private async analyzePdf(input: RecogniserInput): Promise<AnalyzeExpenseResult> {
    if (!input.s3Object) throw new Error('Textract reads PDFs from S3: pass the document\'s s3Object');
    const { bucket, key, version } = input.s3Object;
    const started = await this.client.send(
      new StartExpenseAnalysisCommand({
        DocumentLocation: { S3Object: { Bucket: bucket, Name: key, ...(version ? { Version: version } : {}) } },
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
