/**
 * Office previews on AWS (docs/recognition.md "Office documents"): the processing job puts an office file under
 * OFFICE_CONVERSION_PREFIX of the documents bucket and invokes the office converter function (a container image
 * with LibreOffice, lambdas/jobs/convert-office.ts), which writes the PDF next to it. The event and the answer of
 * that invocation, shared by the job's adapter, the converter's handler and infra (grant and lifecycle rule).
 */
import { z } from 'zod';

/** The only prefix the converter reads and writes; its objects expire after OFFICE_CONVERSION_EXPIRY_DAYS. */
export const OFFICE_CONVERSION_PREFIX = 'office-conversion/';
/** Objects left under the prefix (a job that died between writing and deleting) are removed by a lifecycle rule. */
export const OFFICE_CONVERSION_EXPIRY_DAYS = 1;
/** Longest S3 key (S3's own limit is 1024 bytes). */
export const OFFICE_CONVERSION_KEY_MAX = 256;
export const OFFICE_CONVERSION_REASON_MAX = 1000;

const ID = /^[0-9A-Za-z][0-9A-Za-z-]{0,63}$/;
const EXTENSION = /^[a-z0-9]{1,5}$/;

/**
 * `office-conversion/<id>/document.<ext>`: one folder per conversion, no other characters (no `..`, no second
 * level), so a request can only name objects of that prefix.
 */
const KEY = /^office-conversion\/[0-9A-Za-z][0-9A-Za-z-]{0,63}\/document\.[a-z0-9]{1,5}$/;

/** The keys of one conversion: the office file (its extension tells LibreOffice the format) and its PDF. */
export function officeConversionKeys(id: string, extension: string): { key: string; outputKey: string } {
  if (!ID.test(id)) throw new Error(`Not an office conversion id: ${id}`);
  const ext = EXTENSION.test(extension) && extension !== 'pdf' ? extension : 'bin';
  return { key: `${OFFICE_CONVERSION_PREFIX}${id}/document.${ext}`, outputKey: `${OFFICE_CONVERSION_PREFIX}${id}/document.pdf` };
}

const conversionKey = z
  .string()
  .max(OFFICE_CONVERSION_KEY_MAX)
  .regex(KEY, `must be ${OFFICE_CONVERSION_PREFIX}<id>/document.<extension>`);

/** The converter's event: convert `key` of `bucket` to a PDF at `outputKey` (same folder, `.pdf`). */
export const officeConversionRequestSchema = z
  .object({
    bucket: z.string().min(3).max(63),
    key: conversionKey.refine((k) => !k.endsWith('.pdf'), 'is a PDF already'),
    outputKey: conversionKey.refine((k) => k.endsWith('/document.pdf'), 'must end with /document.pdf'),
  })
  .strict()
  .refine((r) => r.key.slice(0, r.key.lastIndexOf('/')) === r.outputKey.slice(0, r.outputKey.lastIndexOf('/')), {
    message: 'key and outputKey must be in the same conversion folder',
    path: ['outputKey'],
  });
export type OfficeConversionRequest = z.infer<typeof officeConversionRequestSchema>;

/** The converter's answer: where the PDF is, or why there is none (the file could not be converted). */
export const officeConversionResultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), outputKey: conversionKey }),
  z.object({ ok: z.literal(false), reason: z.string().max(OFFICE_CONVERSION_REASON_MAX) }),
]);
export type OfficeConversionResult = z.infer<typeof officeConversionResultSchema>;
