/**
 * The office converter's work (lambdas/jobs/convert-office.ts, a container image with LibreOffice on AWS): read one
 * office file from the conversion prefix of the documents bucket, convert it to PDF with the OfficeConverter port
 * and write the PDF next to it. A file that cannot be converted is an answer (`ok: false` with the reason), not an
 * error: the processing job then recognises the document from its text, without page images.
 */
import { DOCUMENT_MAX_BYTES } from '../../../shared/constants';
import { OFFICE_CONVERSION_REASON_MAX, type OfficeConversionRequest, type OfficeConversionResult } from '../../../shared/schemas/office-conversion';
import { ObjectTooLarge, type FileStore, type OfficeConverter } from './ports';

export interface OfficeConversionDeps {
  files: FileStore;
  office: OfficeConverter;
  log: { info(msg: string, data?: Record<string, unknown>): void; warn(msg: string, data?: Record<string, unknown>): void };
}

function refused(reason: string): OfficeConversionResult {
  return { ok: false, reason: reason.length > OFFICE_CONVERSION_REASON_MAX ? `${reason.slice(0, OFFICE_CONVERSION_REASON_MAX - 1)}…` : reason };
}

/** The file name LibreOffice is given: the key's last part (`document.<ext>`), whose extension names the format. */
function fileNameOf(key: string): string {
  return key.slice(key.lastIndexOf('/') + 1);
}

/**
 * Converts `request.key` to a PDF at `request.outputKey`. The request has passed officeConversionRequestSchema (both
 * keys in one folder of the conversion prefix); only the documents bucket is served. Storage errors are thrown
 * (the invocation fails, and the caller treats it as no preview).
 */
export async function convertOfficeObject(deps: OfficeConversionDeps, request: OfficeConversionRequest): Promise<OfficeConversionResult> {
  if (request.bucket !== deps.files.bucket()) {
    deps.log.warn('office conversion refused', { bucket: request.bucket, reason: 'not the documents bucket' });
    return refused(`Only the documents bucket is converted, not ${request.bucket}`);
  }
  let bytes: Uint8Array;
  try {
    ({ bytes } = await deps.files.get(request.key, { maxBytes: DOCUMENT_MAX_BYTES }));
  } catch (error) {
    if (error instanceof ObjectTooLarge) return refused(`The file is larger than ${DOCUMENT_MAX_BYTES} bytes`);
    throw error;
  }
  const started = Date.now();
  const converted = await deps.office.toPdf(bytes, fileNameOf(request.key));
  if (!converted.pdf) {
    deps.log.info('office file not converted', { key: request.key, bytes: bytes.length, reason: converted.reason, ms: Date.now() - started });
    return refused(converted.reason);
  }
  await deps.files.put(request.outputKey, converted.pdf, 'application/pdf');
  deps.log.info('office file converted', { key: request.key, bytes: bytes.length, pdfBytes: converted.pdf.length, ms: Date.now() - started });
  return { ok: true, outputKey: request.outputKey };
}
