/**
 * Receipts (documents): the API's request and response shapes (product.md section 3, rules.md section 7).
 * Query strings arrive as strings; the schemas coerce them.
 */
import { z } from 'zod';
import { CUSTOM_MESSAGE_MAX, DOCUMENT_ID_MAX, LIST_PAGE_SIZE } from '../constants';
import { LIST_STATUSES, RECEIPT_STATUSES } from '../status';
import { MSG } from './messages';
import { multiLine } from './text';
import { statusCountsSchema } from './company';
import type { ContentItem } from './content';
import { contentItemSchema, exportQuerySchema, ISAF_EXPORT_MAX } from './content';

export const RECEIPT_TYPES = ['receipt', 'invoice'] as const;
export const receiptTypeSchema = z.enum(RECEIPT_TYPES);
export type ReceiptType = z.infer<typeof receiptTypeSchema>;
export const receiptStatusSchema = z.enum(RECEIPT_STATUSES);

/** A document id as the API accepts it anywhere (path, body, query lists): bounded, so no id can overflow a table key. */
export const documentIdSchema = z.string().trim().min(1, MSG.required).max(DOCUMENT_ID_MAX, 'Unknown document');
/** A company id in a body (the company_id query parameter is bounded alike by the handler wrapper). */
export const COMPANY_ID_MAX = 128;
export const companyIdSchema = z.string().trim().min(1, MSG.required).max(COMPANY_ID_MAX, 'Unknown company');

/** Upload-time messages shown on the upload cards (rules.md sections 5 and 8). */
export const UPLOAD_MSG = {
  typeNotAllowed: 'This file type is not allowed',
  imageTooBig: 'Image size limits 10MB',
  documentTooBig: 'File size limits 30MB',
  multipleOnlyPdf: 'One document per page applies only to PDF files',
  empty: 'The file is empty',
  resolutionTooLow: 'Resolution of the image is too low to be processed',
  quotaExceeded: 'The monthly document limit of this company is reached',
} as const;

/** Upload error codes (product.md section 4): 1 file format, 2 unknown. */
export const UPLOAD_ERROR_CODE = { fileFormat: 1, unknown: 2 } as const;

const flagString = z
  .union([z.boolean(), z.string()])
  .optional()
  .transform((v) => v === true || v === 'true' || v === '1' || v === 'on');

/** Free text of the upload (notes…): control characters are refused, line breaks kept (shared/schemas/text.ts). */
const optionalText = (max = 500) =>
  z
    .string()
    .max(max, `At most ${max} characters`)
    .check(multiLine())
    .optional()
    .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));

/** GET /upload/document */
export const uploadDocumentQuerySchema = z.object({
  company_id: z.string().min(1, MSG.required),
  receipt_type: receiptTypeSchema.default('receipt'),
  /** One document per file (single) or one per page (multiple, PDF only). `mode` is accepted as a synonym. */
  type: z.enum(['single', 'multiple']).optional(),
  mode: z.enum(['single', 'multiple']).optional(),
  upload_type: optionalText(50),
  notes: optionalText(CUSTOM_MESSAGE_MAX),
  receipt_id: optionalText(64),
  category: optionalText(200),
  original_file_name: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(255, 'At most 255 characters'),
  /** Owner; empty means the caller. */
  user_id: optionalText(128),
  /** Read line items (default); `false`/`0` leaves them out. */
  process_rows: z
    .union([z.boolean(), z.string()])
    .optional()
    .transform((v) => !(v === false || v === 'false' || v === '0' || v === 'off')),
  content_type: z.string().max(200).optional(),
  size: z.coerce.number({ error: MSG.notANumber }).int(MSG.notANumber).min(0, MSG.notANumber),
});
export type UploadDocumentQuery = z.infer<typeof uploadDocumentQuerySchema>;

export const uploadDocumentResponseSchema = z.object({
  uploadURL: z.string(),
  upload_id: z.string(),
  key: z.string(),
  /** Headers the PUT must carry (the content type is part of the signature). */
  headers: z.record(z.string(), z.string()),
});
export type UploadDocumentResponse = z.infer<typeof uploadDocumentResponseSchema>;

/** A calendar day (2024-02-30 is none): a filter of a day that does not exist is refused, not an empty list. */
const isCalendarDay = (v: string) => {
  const [y, m, d] = v.slice(0, 10).split('-').map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d && !Number.isNaN(Date.parse(v));
};
const dateParam = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}(T[\d:.]+Z?)?$/, 'Use YYYY-MM-DD')
  .refine(isCalendarDay, 'Use YYYY-MM-DD')
  .optional()
  .or(z.literal('').transform(() => undefined));

/** GET /receipts: list filter parameters (product.md section 3). */
export const listReceiptsQuerySchema = z.object({
  company_id: z.string().optional(),
  selected: z.enum(['ALL']).optional(),
  receipt_type: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (!v || v === 'all' || v === 'ALL') return undefined;
      const parts = [...new Set(v.split(',').map((s) => s.trim()).filter(Boolean))];
      for (const p of parts) {
        if (!(RECEIPT_TYPES as readonly string[]).includes(p)) {
          ctx.addIssue({ code: 'custom', message: 'receipt_type is receipt or invoice' });
          return z.NEVER;
        }
      }
      return parts.length === 1 ? (parts[0] as ReceiptType) : undefined;
    }),
  receipt_status: z.enum(LIST_STATUSES).default('inbox'),
  search_value: z.string().trim().max(100, 'At most 100 characters').optional(),
  selected_date: dateParam,
  created_at_after: dateParam,
  created_at_before: dateParam,
  by_issue_date: flagString,
  /** A receipt id: that document's duplicate group; `true`/`1`: only documents that are duplicates. */
  duplicate_id: z.string().trim().max(64).optional(),
  limit: z.coerce.number().int().min(1).max(LIST_PAGE_SIZE).default(LIST_PAGE_SIZE),
  next: z.string().max(2000).optional(),
  next_company: z.string().max(128).optional(),
});
export type ListReceiptsQuery = z.infer<typeof listReceiptsQuerySchema>;

export const pageSchema = z.object({
  page: z.number(),
  /** The file the page belongs to (original file name). */
  document: z.string(),
  url: z.string().nullable(),
  status: z.enum(['processed', 'not_processed', 'pending']),
  width: z.number().nullable(),
  height: z.number().nullable(),
});
export type ReceiptPage = z.infer<typeof pageSchema>;

export const historyEntrySchema = z.object({
  id: z.string(),
  date: z.string(),
  name: z.string(),
  user: z.object({ name: z.string(), surname: z.string() }),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

/** Content items are the content model's (shared/schemas/content.ts). */
export type { ContentItem };

export const receiptSummarySchema = z.object({
  receipt_id: z.string(),
  company_id: z.string().nullable(),
  company_name: z.string(),
  company_code: z.string(),
  user_id: z.string(),
  user: z.object({ name: z.string(), surname: z.string() }),
  receipt_type: receiptTypeSchema,
  status: receiptStatusSchema,
  flag: z.boolean(),
  notes: z.string(),
  category: z.string().nullable(),
  /** Master data: the document's category (its name is `category`) and the category's id in an integration. */
  category_id: z.string().nullable().optional(),
  external_category_id: z.string().nullable().optional(),
  original_file_name: z.string(),
  email_id: z.string().nullable(),
  duplicate_id: z.string().nullable(),
  /**
   * Present (true) on a later document of the same counterparty, number and total as another of the company (a
   * second file of one document): a duplicate as a same-file copy (`duplicate_id`) is.
   */
  same_document: z.literal(true).optional(),
  stakeholder_id: z.string().nullable(),
  stakeholder: z.object({ name: z.string() }).nullable(),
  supplierCustomerName: z.string(),
  document_number: z.string(),
  issue_date: z.string().nullable(),
  total: z.string().nullable(),
  currency: z.string().nullable(),
  stakeholder_date_format: z.string().nullable(),
  can_be_restarted: z.boolean(),
  disabled_for_editing: z.boolean(),
  error: z.object({ message: z.string() }).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  version: z.number(),
  page_count: z.number(),
  /** The upload the document came from (GET /upload/document's upload_id), to match it to its upload card. */
  upload_id: z.string().nullable(),
});
export type ReceiptSummary = z.infer<typeof receiptSummarySchema>;

export type Receipt = ReceiptSummary & {
  content: ContentItem[];
  pages: ReceiptPage[];
  related_documents: { receipt_id: string; original_file_name: string }[];
  available_template: boolean;
  history: HistoryEntry[];
};

export const listReceiptsResponseSchema = z.object({
  items: z.array(receiptSummarySchema),
  next: z.string().nullable(),
  next_company: z.string().nullable(),
});
export type ListReceiptsResponse = z.infer<typeof listReceiptsResponseSchema>;

export const totalDocumentsResponseSchema = z.object({ receipt: statusCountsSchema, invoice: statusCountsSchema });

/** Optional optimistic-concurrency version a client sends with an edit. */
const versionField = z.coerce.number().int().min(0).optional();

export const STATUS_ACTIONS = ['archive', 'unarchive', 'review', 'ready', 'rejected', 'reject'] as const;
export const statusBodySchema = z.object({ status: z.enum(STATUS_ACTIONS), version: versionField });
export type StatusAction = z.infer<typeof statusBodySchema>['status'];
export const flagBodySchema = z.object({ flag: z.boolean(), version: versionField });
export const typeBodySchema = z.object({ receipt_type: receiptTypeSchema, version: versionField });
export const selectCompanyBodySchema = z.object({ company_id: companyIdSchema, version: versionField });
export const combineBodySchema = z.object({ receipt_id: documentIdSchema, version: versionField });
export const restartBodySchema = z.object({ version: versionField });
/** The most documents one XML export call takes; the export pop-up splits larger selections. */
export const XML_EXPORT_MAX = 100;
export const exportXmlBodySchema = z.object({
  receipt_ids: z.array(documentIdSchema).min(1, MSG.required).max(XML_EXPORT_MAX, `At most ${XML_EXPORT_MAX} documents`),
});

export const BULK_ACTIONS = ['status', 'flag', 'type', 'delete', 'send'] as const;
export const bulkBodySchema = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('status'),
    receipt_ids: z.array(documentIdSchema).min(1).max(100),
    status: z.enum(STATUS_ACTIONS),
    /**
     * Optional: the version of each document as the client read it (the export pop-up's "Move items to archive
     * after export": the version the file holds). A document named here that was changed since is refused on its own
     * (409 "The document was changed by someone else"); one not named is changed as it stands (the list's buttons).
     */
    versions: z.record(z.string(), z.number().int().min(0)).optional(),
  }),
  z.object({ action: z.literal('flag'), receipt_ids: z.array(documentIdSchema).min(1).max(100), flag: z.boolean() }),
  z.object({ action: z.literal('type'), receipt_ids: z.array(documentIdSchema).min(1).max(100), receipt_type: receiptTypeSchema }),
  z.object({ action: z.literal('delete'), receipt_ids: z.array(documentIdSchema).min(1).max(100) }),
  // Integrations: confirm and queue for the company's export targets (also: send again after a failure).
  z.object({ action: z.literal('send'), receipt_ids: z.array(documentIdSchema).min(1).max(100) }),
]);
export type BulkBody = z.infer<typeof bulkBodySchema>;

export const bulkResultSchema = z.object({
  results: z.array(
    z.object({
      receipt_id: z.string(),
      ok: z.boolean(),
      status: z.number(),
      message: z.string().optional(),
      receipt: receiptSummarySchema.optional(),
    }),
  ),
});

export const duplicateInfoSchema = z.object({
  receipt_id: z.string(),
  company_id: z.string().nullable(),
  original_file_name: z.string(),
  status: receiptStatusSchema,
  disabled_for_editing: z.boolean(),
  reason: z.enum(['same_file', 'same_document']),
  /** When it was uploaded: two of one file name are told apart by it. */
  created_at: z.string(),
});
export type DuplicateInfo = z.infer<typeof duplicateInfoSchema>;

export const receiptIdPathSchema = z.object({ id: z.string().trim().min(1).max(64) });
export const deleteReceiptQuerySchema = z.object({
  company_id: z.string().optional(),
  unassigned: flagString,
  version: versionField,
});
export const companyScopedQuerySchema = z.object({ company_id: z.string().optional() });

/** POST /receipts/export-isaf: the company and, optionally, the reporting company's registration number (as the GET). */
export const exportIsafQuerySchema = companyScopedQuerySchema.extend({ registration_number: exportQuerySchema.shape.registration_number });
/** POST /receipts/export-isaf: the documents of one i.SAF file, in the order of the file. */
export const exportIsafBodySchema = z.object({
  receipt_ids: z.array(documentIdSchema).min(1, MSG.required).max(ISAF_EXPORT_MAX, `At most ${ISAF_EXPORT_MAX} documents`),
});

/**
 * POST /receipts/details: the full documents of up to DETAILS_MAX ids of one company (company_id NONE: the caller's own
 * unassigned documents) in one call, for the CSV and PDF the export pop-up builds in the browser. 100: one
 * BatchGetItem (its limit is 100 keys), and 100 documents of a few lines (about 25–60 KB of JSON each) fit one answer.
 */
export const DETAILS_MAX = 100;
/**
 * The most bytes of documents one answer carries, counted as Lambda counts its result (the JSON body as a string
 * inside the result, quotes escaped): 5 MiB of Lambda's 6 MiB, the rest for the id lists and the envelope. Long
 * documents (300 line items are about 1.3 MB of JSON) do not all fit: those past it come back in `remaining`.
 */
export const DETAILS_BYTES_MAX = 5 * 1024 * 1024;
export const detailsQuerySchema = z.object({ company_id: z.string().trim().min(1, MSG.required) });
export const detailsBodySchema = z.object({
  receipt_ids: z.array(documentIdSchema).min(1, MSG.required).max(DETAILS_MAX, `At most ${DETAILS_MAX} documents`),
});
/**
 * A document as GET /receipts/{id} gives it, without its history (GET /receipts/{id}/history) and with the page
 * images unlinked (`url` null; GET /receipts/{id} or /preview link them).
 */
export const receiptDetailSchema = receiptSummarySchema.extend({
  content: z.array(contentItemSchema),
  pages: z.array(pageSchema),
  related_documents: z.array(z.object({ receipt_id: z.string(), original_file_name: z.string() })),
  available_template: z.boolean(),
});
export type ReceiptDetailItem = z.infer<typeof receiptDetailSchema>;
export const detailsResponseSchema = z.object({
  /** The documents found, in the order asked (an id asked twice: once). */
  items: z.array(receiptDetailSchema),
  /** Ids that name no document the caller may see here: another company's and a missing one alike. */
  not_found: z.array(z.string()),
  /** Ids not read because the answer was full (DETAILS_BYTES_MAX): ask for them again. */
  remaining: z.array(z.string()),
});
export type DetailsResponse = z.infer<typeof detailsResponseSchema>;
