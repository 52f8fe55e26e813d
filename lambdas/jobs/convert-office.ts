/**
 * The office converter (AWS): invoked synchronously by the processing job with `{ bucket, key, outputKey }`, converts
 * an office file under office-conversion/ of the documents bucket to PDF with LibreOffice and answers
 * `{ ok: true, outputKey }` or `{ ok: false, reason }`. It runs from a container image that holds LibreOffice
 * (infra/images/office-converter/Dockerfile); its role reads and writes that prefix only. Locally the processing job
 * runs the same LibreOfficeConverter in-process instead.
 */
import { LibreOfficeConverter } from '../adapters/libreoffice';
import { convertOfficeObject } from '../core/documents/office-conversion';
import { jobHandlers } from '../../shared/routes';
import { OFFICE_CONVERSION_REASON_MAX, officeConversionRequestSchema, type OfficeConversionResult } from '../../shared/schemas/office-conversion';
import { filesFor } from '../runtime/lazy-adapters';
import { createLogger } from '../runtime/logger';

/** SOFFICE_PATH (set by the image), else soffice on PATH. */
const office = new LibreOfficeConverter();

export async function handler(event: unknown): Promise<OfficeConversionResult> {
  const log = createLogger({ job: 'convert-office' });
  const parsed = officeConversionRequestSchema.safeParse(event);
  if (!parsed.success) {
    const reason = `Not an office conversion request: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'event'} ${i.message}`).join('; ')}`;
    log.warn('office conversion refused', { reason });
    return { ok: false, reason: reason.slice(0, OFFICE_CONVERSION_REASON_MAX) };
  }
  return convertOfficeObject({ files: filesFor(jobHandlers.convertOffice), office, log }, parsed.data);
}
