/**
 * Office files to PDF on AWS: the processing job's OfficeConverter. The Lambda runtime of the job has no
 * LibreOffice, so the file is handed to the office converter function (a container image with LibreOffice running
 * the same LibreOfficeConverter, lambdas/jobs/convert-office.ts): the file is put under office-conversion/ of the
 * documents bucket, the converter is invoked synchronously with the keys (the bytes never travel in the payload,
 * whose limit is 6 MB), the PDF is read back and both objects are deleted (a lifecycle rule removes what a dead job
 * leaves). Like every OfficeConverter it never throws: any failure is a conversion without PDF, with its reason, and
 * the document is then recognised from its text without page images.
 */
import { randomUUID } from 'node:crypto';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import type { FileStore, OfficeConversion, OfficeConverter } from '../../core/documents/ports';
import { officeConversionKeys, officeConversionResultSchema } from '../../../shared/schemas/office-conversion';

/** The largest PDF read back (LibreOffice embeds fonts and images: a PDF may be larger than its office file). */
export const OFFICE_PDF_MAX_BYTES = 64 * 1024 * 1024;

let client: LambdaClient | undefined;
function lambdaClient(): LambdaClient {
  client ??= new LambdaClient({});
  return client;
}

export interface LambdaOfficeConverterOptions {
  /** The documents bucket (the job's file store; its role writes and deletes under office-conversion/). */
  files: FileStore;
  /** Name or ARN of the office converter function (OFFICE_CONVERTER_FUNCTION). */
  functionName: string;
  lambda?: LambdaClient;
  /** The conversion's folder name (default a random UUID). */
  newId?: () => string;
  log?: { warn(msg: string, data?: Record<string, unknown>): void };
}

function extensionOf(fileName: string): string {
  return /\.([a-z0-9]{1,5})$/i.exec(fileName.trim())?.[1]?.toLowerCase() ?? 'bin';
}

function short(text: string, n = 300): string {
  const t = text.trim();
  return t.length > n ? `${t.slice(0, n)}…` : t;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}`;
  return String(error);
}

/** `errorType: errorMessage` of a Lambda function error's payload, else the payload itself. */
function functionErrorOf(payload: string): string {
  try {
    const e = JSON.parse(payload) as { errorType?: unknown; errorMessage?: unknown };
    if (typeof e.errorMessage === 'string') return short(typeof e.errorType === 'string' ? `${e.errorType}: ${e.errorMessage}` : e.errorMessage);
  } catch {
    /* not JSON: the text itself */
  }
  return short(payload);
}

export class LambdaOfficeConverter implements OfficeConverter {
  constructor(private readonly opts: LambdaOfficeConverterOptions) {}

  async toPdf(bytes: Uint8Array, fileName: string): Promise<OfficeConversion> {
    const { files, functionName } = this.opts;
    const { key, outputKey } = officeConversionKeys((this.opts.newId ?? randomUUID)(), extensionOf(fileName));
    try {
      await files.put(key, bytes, 'application/octet-stream');
      const res = await (this.opts.lambda ?? lambdaClient()).send(
        new InvokeCommand({
          FunctionName: functionName,
          InvocationType: 'RequestResponse',
          Payload: new TextEncoder().encode(JSON.stringify({ bucket: files.bucket(), key, outputKey })),
        }),
      );
      const payload = res.Payload ? new TextDecoder().decode(res.Payload) : '';
      if (res.FunctionError) return { pdf: null, reason: `The office converter failed: ${functionErrorOf(payload)}` };
      let answer: unknown;
      try {
        answer = JSON.parse(payload);
      } catch {
        answer = undefined;
      }
      const result = officeConversionResultSchema.safeParse(answer);
      if (!result.success) return { pdf: null, reason: `The office converter gave no readable answer: ${short(payload, 200)}` };
      if (!result.data.ok) return { pdf: null, reason: result.data.reason };
      if (result.data.outputKey !== outputKey) return { pdf: null, reason: `The office converter wrote ${result.data.outputKey}, not ${outputKey}` };
      const pdf = await files.get(outputKey, { maxBytes: OFFICE_PDF_MAX_BYTES });
      if (new TextDecoder('latin1').decode(pdf.bytes.subarray(0, 4)) !== '%PDF') return { pdf: null, reason: 'The office converter wrote a file that is not a PDF' };
      return { pdf: pdf.bytes };
    } catch (error) {
      return { pdf: null, reason: `The office converter could not be used: ${short(messageOf(error))}` };
    } finally {
      // Both objects, whatever happened (a missing one is no error for DeleteObjects).
      await files.delete([key, outputKey]).catch((error: unknown) => {
        this.opts.log?.warn('office conversion objects not deleted', { key, outputKey, error: messageOf(error) });
      });
    }
  }
}
