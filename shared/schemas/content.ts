/**
 * The content model of a document: its schema (sections, datapoints, multivalues, tuples), the content
 * tree filled from recognition and corrected by people, line-item grids, and the requests of the content
 * API. Field-value rules (amounts, dates, required) live here so the server and the web app apply the
 * same ones; the server is the authority (POST receipts/{id}/content/validate).
 */
import { z } from 'zod';
import { CUSTOM_MESSAGE_MAX, DOCUMENT_ID_MAX } from '../constants';
import { atMostCharacters, MSG } from './messages';
import { multiLine } from './text';

// ---------------------------------------------------------------- geometry

/** A word or line as the recogniser read it, its place in fractions of the page (0..1), top-left origin. */
export interface OcrBox {
  /** The block id (Textract's WORD/LINE Id). */
  id: string;
  text: string;
  left: number;
  top: number;
  width: number;
  height: number;
  confidence: number;
}

/** One page's words and lines, as kept with a document after recognition. */
export interface PageBoxes {
  page: number;
  /** The page's document id, when known. */
  file: string | null;
  words: OcrBox[];
  lines: (OcrBox & { word_ids: string[] })[];
}

/** A page of GET receipts/{id}/bboxes: its words and lines, and the status of the document it belongs to. */
export type PageBoxesResponse = PageBoxes & { status: string };

/** A box in fractions of the page image (0..1), top-left origin. */
export const boxSchema = z.object({
  left: z.number().min(0).max(1),
  top: z.number().min(0).max(1),
  width: z.number().min(0).max(1),
  height: z.number().min(0).max(1),
});
export type Box = z.infer<typeof boxSchema>;

// ---------------------------------------------------------------- schema

export const SCHEMA_CATEGORIES = ['section', 'datapoint', 'multivalue', 'tuple'] as const;
export type SchemaCategory = (typeof SCHEMA_CATEGORIES)[number];

/** Value types of datapoints: how a value is validated and how a picked box is read. */
export const DATAPOINT_TYPES = ['string', 'amount', 'date', 'enum', 'rate', 'quantity', 'code'] as const;
export type DatapointType = (typeof DATAPOINT_TYPES)[number];

export const schemaFieldSchema = z.object({
  id: z.string(),
  label: z.string(),
  description: z.string(),
  parent_schema_id: z.string().nullable(),
  category: z.enum(SCHEMA_CATEGORIES),
  type: z.enum(DATAPOINT_TYPES).optional(),
  constraints: z.object({ required: z.boolean() }),
  hidden: z.boolean(),
  /** Where the field sits on the edit screen. */
  tab: z.enum(['details', 'advanced']),
  /** Shown on the Fields configuration screen (Visible / Required toggles). */
  configurable: z.boolean(),
  /** Required by the spec: always required and visible; the screen shows its toggles locked with this reason. */
  locked: z.string().optional(),
  settings: z.object({
    stakeholder: z.enum(['supplier', 'customer']).optional(),
    country: z.boolean().optional(),
    date_format: z.boolean().optional(),
    category: z.boolean().optional(),
    items: z.boolean().optional(),
    item_word: z.boolean().optional(),
    /** A multivalue whose rows can be read from a grid drawn on the page. */
    grid: z.boolean().optional(),
  }),
  options: z.array(z.object({ value: z.string(), label: z.string() })).optional(),
});
export type SchemaField = z.infer<typeof schemaFieldSchema>;

export const schemaResponseSchema = z.object({ fields: z.array(schemaFieldSchema) });
export type SchemaResponse = z.infer<typeof schemaResponseSchema>;

/** PUT /schemas: only the changed datapoints, each with id, constraints.required and hidden. */
export const updateSchemaSchema = z.object({
  datapoints: z
    .array(
      z
        .object({
          id: z.string().min(1),
          constraints: z.object({ required: z.boolean() }).optional(),
          hidden: z.boolean().optional(),
        })
        .strict(),
    )
    .min(1)
    .max(200),
});
export type UpdateSchemaInput = z.infer<typeof updateSchemaSchema>;

/** The line-item columns, in the spec's order. */
export const LINE_ITEM_COLUMNS = [
  'item_number',
  'product_code',
  'description',
  'quantity',
  'unit_of_measurement',
  'unit_price_without_vat',
  'vat_rate',
  'vat',
  'price_per_unit',
  'total_price',
] as const;
export type LineItemColumn = (typeof LINE_ITEM_COLUMNS)[number];

// ---------------------------------------------------------------- content

export const contentValueSchema = z.object({
  value: z.string(),
  /** Where the value is printed; null when typed by hand or unknown. */
  position: boxSchema.nullable(),
  /** 1-based page number of `position`. */
  page: z.number().int().min(1).nullable(),
  /** The OCR word/line block(s) the value was read from. */
  block_id: z.string().nullable(),
  /** Recognition confidence 0..100; null for values typed by a person. */
  confidence: z.number().nullable(),
});
export type ContentValue = z.infer<typeof contentValueSchema>;

export interface GridRow {
  top_position: number;
}
export interface GridColumn {
  schema_id: string | null;
  left_position: number;
}
/** One part of a line-items grid: a box on one page, divided by row and column lines. */
export interface GridPart {
  /** The page's document id (receipt.pages[].document) or null; `page` is authoritative. */
  document: string | null;
  page: number;
  box: Partial<Box>;
  /** Row starts (the first row starts at the box's top). */
  rows: GridRow[];
  /** Column starts with the datapoint each column fills (the first column starts at the box's left). */
  columns: GridColumn[];
}
export interface Grid {
  parts: GridPart[];
}

export const gridPartSchema = z.object({
  document: z.string().nullable().default(null),
  page: z.number().int().min(1),
  box: z.object({
    left: z.number().min(0).max(1).optional(),
    top: z.number().min(0).max(1).optional(),
    width: z.number().min(0).max(1).optional(),
    height: z.number().min(0).max(1).optional(),
  }),
  rows: z.array(z.object({ top_position: z.number().min(0).max(1) })).max(500),
  columns: z.array(z.object({ schema_id: z.string().max(64).nullable(), left_position: z.number().min(0).max(1) })).max(50),
});

/**
 * What one grid may hold in all, so that it can be stored as a supplier's template (one DynamoDB item,
 * 400 KB at most): a grid within these bounds serialises to well under 150 KB.
 */
export const GRID_LIMITS = { rows: 2000, columns: 200 } as const;
export const GRID_TOO_LARGE = `The grid is too large: at most ${GRID_LIMITS.rows} rows and ${GRID_LIMITS.columns} columns in all its parts`;

export function gridWithinLimits(parts: readonly { rows: readonly unknown[]; columns: readonly unknown[] }[]): boolean {
  const rows = parts.reduce((n, p) => n + p.rows.length, 0);
  const columns = parts.reduce((n, p) => n + p.columns.length, 0);
  return rows <= GRID_LIMITS.rows && columns <= GRID_LIMITS.columns;
}

export interface ContentItem {
  id: string;
  schema_id: string;
  category: SchemaCategory;
  parent_content_id: string | null;
  children: ContentItem[];
  /** The page document the value was read from (datapoints). */
  file: string | null;
  /** Datapoints only. */
  content: ContentValue | null;
  /** A second value tied to this one (e.g. the label printed next to it); datapoints only. */
  related_content: ContentValue | null;
  /** Index among its siblings. */
  position: number;
  /** Grid multivalues only. */
  grid: Grid | null;
  error: { message: string } | null;
}

export const contentItemSchema: z.ZodType<ContentItem> = z.lazy(() =>
  z.object({
    id: z.string(),
    schema_id: z.string(),
    category: z.enum(SCHEMA_CATEGORIES),
    parent_content_id: z.string().nullable(),
    children: z.array(contentItemSchema),
    file: z.string().nullable(),
    content: contentValueSchema.nullable(),
    related_content: contentValueSchema.nullable(),
    position: z.number().int(),
    grid: z.object({ parts: z.array(gridPartSchema) }).nullable() as z.ZodType<Grid | null>,
    error: z.object({ message: z.string() }).nullable(),
  }),
);

export interface ContentError {
  id: string;
  message: string;
}

/** GET /receipts/{id}/content (and the answer of every content change). */
export interface ContentResponse {
  receipt_id: string;
  version: number;
  receipt_type: 'receipt' | 'invoice';
  content: ContentItem[];
  errors: ContentError[];
  /** A grid template is saved for this document's supplier/customer. */
  available_template: boolean;
  /** True when the document cannot be edited (archived). */
  read_only: boolean;
}

// ---------------------------------------------------------------- requests

export const contentPathSchema = z.object({ id: z.string().trim().min(1).max(64) });
export const contentLinePathSchema = z.object({ id: z.string().trim().min(1).max(64), line: z.string().trim().min(1).max(200) });

const version = z.number({ error: 'version is required' }).int().min(0);

export const valueChangeSchema = z.object({
  id: z.string().min(1),
  /**
   * Stored without the spaces around it (a date is saved only as YYYY-MM-DD, an amount as its digits). Control
   * characters are refused; tab and line breaks stay (values read from a page may span lines).
   */
  value: z.string().max(5000, atMostCharacters(5000)).trim().check(multiLine()),
  /** Omit to keep the stored position; null clears it (typed by hand). */
  position: boxSchema.nullable().optional(),
  page: z.number().int().min(1).nullable().optional(),
});
export type ValueChange = z.infer<typeof valueChangeSchema>;

/** PUT /receipts/{id}/content: changed datapoint values, on top of `version`. */
export const updateContentSchema = z.object({
  version,
  items: z.array(valueChangeSchema).min(1).max(2000),
});
export type UpdateContentInput = z.infer<typeof updateContentSchema>;

/** POST /receipts/{id}/content/{line}: a new empty row in multivalue {line}, after `after` or at the end. */
export const addLineSchema = z.object({ version, after: z.string().nullable().optional() });
export type AddLineInput = z.infer<typeof addLineSchema>;

/** DELETE /receipts/{id}/content/{line}?version= */
export const deleteLineQuerySchema = z.object({ version: z.coerce.number().int().min(0) });

/** POST /receipts/{id}/content/{line}/select: fill datapoint {line} from what is printed inside `position`. */
export const selectBoxSchema = z.object({
  version,
  receipt_id: z.string().max(DOCUMENT_ID_MAX).optional(),
  content_id: z.string().max(DOCUMENT_ID_MAX).optional(),
  file: z.string().max(1000).nullable().optional(),
  page: z.number().int().min(1),
  position: boxSchema,
  is_related_content: z.boolean().default(false),
});
export type SelectBoxInput = z.infer<typeof selectBoxSchema>;

/** PUT /receipts/{id}/content/move: move a row to index `position` of its multivalue. */
export const moveContentSchema = z.object({ version, id: z.string().min(1), position: z.number().int().min(0) });
export type MoveContentInput = z.infer<typeof moveContentSchema>;

/** POST /receipts/{id}/content/validate: unsaved values may be sent to be checked with the stored ones. */
export const validateContentSchema = z.object({ items: z.array(valueChangeSchema.pick({ id: true, value: true })).max(2000).default([]) });
export type ValidateContentInput = z.infer<typeof validateContentSchema>;

/** POST /receipts/{id}/grid */
export const applyGridSchema = z.object({
  version,
  /** The multivalue the grid fills; default line_items. */
  content_id: z.string().max(64).optional(),
  parts: z.array(gridPartSchema).min(1).max(50).refine(gridWithinLimits, GRID_TOO_LARGE),
});
export type ApplyGridInput = z.infer<typeof applyGridSchema>;

/** POST /receipts/{id}/template/grid saves the current grid; PUT applies the saved one. */
export const gridTemplateSchema = z.object({ version: version.optional(), content_id: z.string().optional() });
export const useGridTemplateSchema = z.object({ version, content_id: z.string().optional() });

/**
 * POST /receipt/{id}: an edit action of the edit screen. Unsaved values may come along (they are saved first);
 * the content is then validated and the document moves: with_send → archive (CONFIRM / REVIEW AND SEND),
 * receipt_status rejected → rejected (REJECT), otherwise → review (Review, MOVE TO REVIEW).
 */
/**
 * The document's notes (the export's Notes): free text of the people who handle it, at most 1000 characters as an
 * upload's notes; line breaks kept, control characters refused, stored trimmed ('' removes them).
 */
export const documentNotesField = () =>
  z
    .string()
    .max(CUSTOM_MESSAGE_MAX, `At most ${CUSTOM_MESSAGE_MAX} characters`)
    .check(multiLine())
    .transform((v) => v.trim());

export const editReceiptSchema = z
  .object({
    version,
    receipt_status: z.enum(['rejected', 'review']).optional(),
    receipt_type: z.enum(['receipt', 'invoice']).optional(),
    items: z.array(valueChangeSchema).max(2000).optional(),
    /** Master data: the document's category (null removes it), or the category by its id in an integration. */
    category_id: z.string().trim().min(1).max(128, 'At most 128 characters').nullable().optional(),
    external_category_id: z.string().trim().min(1).max(128, 'At most 128 characters').nullable().optional(),
    /** The notes typed on the edit screen and not yet stored (they go with the action). */
    notes: documentNotesField().optional(),
  })
  .strict();
export type EditReceiptInput = z.infer<typeof editReceiptSchema>;

/**
 * PUT /receipt/{id}/category: the document's category as soon as it is picked (null removes it), or the category by
 * its id in an integration. Without `version` the latest document is changed (one field: the last pick wins).
 */
export const setCategorySchema = z
  .object({
    version: version.optional(),
    category_id: editReceiptSchema.shape.category_id,
    external_category_id: editReceiptSchema.shape.external_category_id,
  })
  .strict()
  .refine((b) => b.category_id !== undefined || b.external_category_id !== undefined, { message: 'Choose a category', path: ['category_id'] });
export type SetCategoryInput = z.infer<typeof setCategorySchema>;

/** PUT /receipt/{id}/notes: the notes typed on the edit screen, stored as the typing stops; without `version` the latest document. */
export const setNotesSchema = z.object({ version: version.optional(), notes: documentNotesField() }).strict();
export type SetNotesInput = z.infer<typeof setNotesSchema>;

const flag = z
  .union([z.boolean(), z.string()])
  .optional()
  .transform((v) => v === true || v === 'true' || v === '1');
export const editReceiptQuerySchema = z.object({ with_send: flag, company_id: z.string().optional() });

// ---------------------------------------------------------------- value rules

/** Amounts: an integer with at most two decimals ('0.00'), optionally negative (credit notes). */
export const AMOUNT_PATTERN = /^-?\d+(\.\d{1,2})?$/;
/**
 * The most digits an amount or quantity keeps before its point: a trillion less a cent still adds, multiplies and
 * prints exactly as a JavaScript number in the exports (15 significant digits); a longer one is a slip of the keyboard
 * or of recognition, and was exported as another number (`99999999999999999999.99` as `100000000000000000000.00`).
 */
export const MAX_WHOLE_DIGITS = 12;
/** Dates: strictly YYYY-MM-DD and a real calendar day. */
export const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
export const RATE_PATTERN = /^\d{1,2}(\.\d{1,2})?$/;
export const QUANTITY_PATTERN = /^-?\d+(\.\d{1,4})?$/;

export const CONTENT_MSG = {
  required: MSG.required,
  amount: 'Invalid amount format (0.00)',
  tooLarge: 'Number is too large (at most 12 digits before the point)',
  date: 'Invalid date format (YYYY-MM-DD)',
  rate: 'Invalid rate (0-99.99)',
  quantity: 'Not a number',
  option: 'Choose a value from the list',
  saveFailed: 'Failed to update the receipt. Please check if all mandatory fields are filled.',
  invalid: 'Some values are not valid',
  companyCode: 'Company code matches customer/supplier code',
  /** An area drawn on the page holds no word: the field keeps its value. */
  noTextInArea: 'No text found in the selected area',
} as const;

export function isValidDate(value: string): boolean {
  const m = DATE_PATTERN.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

function tooManyWholeDigits(value: string): boolean {
  return value.replace(/^-/, '').split('.')[0]!.replace(/^0+(?=\d)/, '').length > MAX_WHOLE_DIGITS;
}

/** The message for one value of a datapoint, or undefined when the value is fine. Empty values are only checked for `required`. */
export function valueError(field: Pick<SchemaField, 'type' | 'options'>, value: string, required: boolean): string | undefined {
  const v = value.trim();
  if (!v) return required ? CONTENT_MSG.required : undefined;
  switch (field.type) {
    case 'amount':
      return !AMOUNT_PATTERN.test(v) ? CONTENT_MSG.amount : tooManyWholeDigits(v) ? CONTENT_MSG.tooLarge : undefined;
    case 'date':
      return isValidDate(v) ? undefined : CONTENT_MSG.date;
    case 'rate':
      return RATE_PATTERN.test(v) ? undefined : CONTENT_MSG.rate;
    case 'quantity':
      return !QUANTITY_PATTERN.test(v) ? CONTENT_MSG.quantity : tooManyWholeDigits(v) ? CONTENT_MSG.tooLarge : undefined;
    case 'enum':
      return !field.options || field.options.some((o) => o.value === v) ? undefined : CONTENT_MSG.option;
    default:
      return undefined;
  }
}

// ---------------------------------------------------------------- export

/**
 * The TAX of an export: the document's tax total, else the sum of its VAT lines' taxes (lines without a tax are
 * left out); '' when it has neither. One rule for the files the browser builds and those the server builds.
 */
export function exportTax(taxTotal: string, vatLineTaxes: ReadonlyArray<string>): string {
  if (taxTotal.trim()) return taxTotal.trim();
  const taxes = vatLineTaxes.map((t) => t.trim()).filter((t) => t !== '').map(Number).filter((n) => Number.isFinite(n));
  return taxes.length ? taxes.reduce((a, b) => a + b, 0).toFixed(2) : '';
}

/** Export fields, default order (product.md "Export fields"). */
export const EXPORT_FIELDS = ['user', 'type', 'date', 'currency', 'status', 'total', 'tax', 'supplier', 'category', 'notes'] as const;
export type ExportField = (typeof EXPORT_FIELDS)[number];

/**
 * Added export fields read from the document record rather than its content, by the record field they read:
 * 'file' is the uploaded file's name; 'company' (or 'company name') and 'company code' are those of the document's
 * company as the document keeps them (of its upload), so a file of the all-companies view tells its companies'
 * documents apart. Any other added field is a content field of that id. One list for the files the browser builds
 * and those the server builds, so both write the same value under the same name.
 */
export const EXPORT_RECORD_FIELDS = {
  file: 'original_file_name',
  original_file_name: 'original_file_name',
  receipt_id: 'receipt_id',
  created_at: 'created_at',
  company: 'company_name',
  company_name: 'company_name',
  company_code: 'company_code',
} as const;
export type ExportRecordField = (typeof EXPORT_RECORD_FIELDS)[keyof typeof EXPORT_RECORD_FIELDS];

/** The record field an added export field reads, or null when it is a content field. */
export function exportRecordField(key: string): ExportRecordField | null {
  return Object.prototype.hasOwnProperty.call(EXPORT_RECORD_FIELDS, key) ? EXPORT_RECORD_FIELDS[key as keyof typeof EXPORT_RECORD_FIELDS] : null;
}

export const EXPORT_TYPES = ['csv', 'pdf', 'xml', 'isaf'] as const;
export type ExportType = (typeof EXPORT_TYPES)[number];

/**
 * The most documents of one i.SAF file: the most ids POST /receipts/export-isaf takes, and the part of a larger
 * selection the export pop-up puts in one file. Their ids travel in the body: a query parameter holds at most
 * 2,048 characters (about 75 ids), so GET /receipts/{id}/export serves one document or a few.
 */
export const ISAF_EXPORT_MAX = 300;

/** GET /receipts/{id}/export query. `fields` is `key` or `key:Title` items joined by commas. */
export const exportQuerySchema = z.object({
  type: z.enum(EXPORT_TYPES).default('csv'),
  fields: z.string().max(2000).optional(),
  file_name: z.string().trim().max(120).optional(),
  /** More documents exported with {id}, comma-separated. */
  receipt_ids: z
    .string()
    .max(20_000)
    .refine((v) => v.split(',').every((id) => id.trim().length <= DOCUMENT_ID_MAX), 'Unknown document')
    .optional(),
  /** i.SAF: the registration number of the reporting company (else the company code). */
  registration_number: z.string().max(20).optional(),
});
export type ExportQuery = z.infer<typeof exportQuerySchema>;

export interface ExportFile {
  mime: string;
  base64: string;
  name: string;
}
