/**
 * Recognition: one interface, two implementations (AWS Textract and the local recogniser).
 * Both return the shape of Textract's AnalyzeExpense response, so a single mapper
 * (`mapExpenseToFields`) turns either into the product's field map.
 */
import { LINE_ITEM_COLUMNS } from '../../../shared/schemas/content';
import type {
  AnalyzeExpenseResponse,
  Block,
  BoundingBox,
  ExpenseDetection,
  ExpenseDocument,
  ExpenseField,
  LineItemFields,
  LineItemGroup,
} from '@aws-sdk/client-textract';

export type { Block, BoundingBox, ExpenseDetection, ExpenseDocument, ExpenseField, LineItemFields, LineItemGroup };

/** The AnalyzeExpense response without the SDK's transport metadata. */
export type AnalyzeExpenseResult = Pick<AnalyzeExpenseResponse, 'DocumentMetadata' | 'ExpenseDocuments'>;

export interface RecogniserInput {
  bytes: Uint8Array;
  mime: string;
  fileName?: string;
  /** Layouts learnt from earlier confirmed documents; the one whose supplier matches is applied. */
  hints?: SupplierLayoutHint[];
  /** Where the same bytes lie in S3; Textract needs it for PDFs (asynchronous analysis). */
  s3Object?: { bucket: string; key: string; version?: string };
  /**
   * An office file converted to PDF (LibreOffice, where installed): its text layer places the words as on
   * the page images made from it. Without it an office file's text is read from the file itself.
   */
  officePdf?: Uint8Array;
  /**
   * Names this document and processing run (and so its page set): deliveries of the same run pass the same
   * key, so a recogniser that starts paid jobs (Textract) starts one per run, not one per delivery.
   */
  idempotencyKey?: string;
  /** Pages of a PDF, when the caller knows them (a one-page PDF may be analysed synchronously). */
  pageCount?: number;
}

export interface Recogniser {
  analyzeExpense(input: RecogniserInput): Promise<AnalyzeExpenseResult>;
}

/** A box in fractions of the page (0..1), top-left origin, like Textract's BoundingBox. */
export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** One recognised word. `confidence` is 0..100 like Textract. `page` starts at 1. */
export interface OcrWord {
  text: string;
  box: Box;
  confidence: number;
  page: number;
}

export interface OcrLine {
  text: string;
  words: OcrWord[];
  box: Box;
  confidence: number;
  page: number;
}

export interface OcrPage {
  page: number;
  /** Size of the page in its own units (pixels for images, points for PDFs); boxes are fractions of it. */
  width: number;
  height: number;
  lines: OcrLine[];
}

export interface OcrDocument {
  pages: OcrPage[];
  /** How the text was obtained: exact text layer / XML, OCR, or an office file's text on a synthetic layout. */
  source: 'ocr' | 'pdf-text' | 'xml' | 'office';
}

/** One value of the product's field map. */
export interface FieldValue {
  value: string;
  page: number;
  box: Box;
  /** 0..100 */
  confidence: number;
  /** The label printed for the value (`LabelDetection`), on the same page: the field's key on the edit screen. */
  label?: { text: string; box: Box };
}

export const HEADER_FIELD_IDS = [
  'supplier_name',
  'supplier_code',
  'supplier_vat_id',
  'supplier_address',
  'customer_name',
  'customer_code',
  'customer_vat_id',
  'document_id',
  'issue_date',
  'due_date',
  'currency',
  'amount_total',
  'amount_total_base',
  'amount_tax',
  'iban',
  'bic_swift',
] as const;
export type HeaderFieldId = (typeof HEADER_FIELD_IDS)[number];

/** The line-item columns of the edit screen's grid (`LINE_ITEM_COLUMNS`), in the spec's order. */
export const LINE_ITEM_FIELD_IDS = LINE_ITEM_COLUMNS;
export type LineItemFieldId = (typeof LINE_ITEM_FIELD_IDS)[number];

export const VAT_LINE_FIELD_IDS = ['vat_rate', 'amount_net', 'amount_vat', 'amount_gross'] as const;
export type VatLineFieldId = (typeof VAT_LINE_FIELD_IDS)[number];

export type LineItemFieldsMap = Partial<Record<LineItemFieldId, FieldValue>>;
export type VatLineFieldsMap = Partial<Record<VatLineFieldId, FieldValue>>;

/**
 * The product's field map. Values are normalised: dates YYYY-MM-DD, amounts with a dot and
 * two decimals ("1234.50"), rates as plain numbers ("21"), currency as ISO 4217, IBAN without spaces.
 */
export type ExtractedFields = Partial<Record<HeaderFieldId, FieldValue>> & {
  vat_lines: VatLineFieldsMap[];
  line_items: LineItemFieldsMap[];
};

/** Date formats a stakeholder can be known to print; they settle 01/02/2024-style ambiguity. */
export type DateFormat = 'YYYY-MM-DD' | 'YYYY/MM/DD' | 'MM/DD/YYYY' | 'DD/MM/YYYY';

export interface Stakeholder {
  id: string;
  name: string;
  code?: string;
  vat_id?: string;
  category_id?: string;
  date_format?: DateFormat;
}

/** Where one confirmed field sat on a supplier's document, learnt from a correction. */
export interface FieldLayout {
  field: HeaderFieldId;
  page: number;
  box: Box;
  /** Words printed next to the value (left on the same row, or above), lower-cased. */
  labelWords: string[];
  /** Offset of the value's top-left corner from the label's top-left corner (fractions of the page). */
  labelOffset?: { dx: number; dy: number };
  /** How the value was printed, for dates. */
  dateFormat?: DateFormat;
  /** An amount printed with its decimals: read only so on the next document (digits without them are a code's). */
  decimals?: boolean;
  /**
   * The total was put right by the person, not confirmed as read: the general reading takes another amount on this
   * supplier's documents, and the amount at this place is taken over it (`applyHintsToResult`).
   */
  corrected?: boolean;
  /** What kind of value it is, to parse it on the next document. */
  kind: 'date' | 'amount' | 'text' | 'code';
  /**
   * The confirmed value. A field that is the same on every document of the supplier (its name, address, codes,
   * bank details) is found again by this text; a document number's series is judged by its shape.
   */
  value?: string;
}

export interface SupplierLayoutHint {
  /**
   * How to recognise the supplier on a new document; any of them is enough. `printed_name`: the name printed where
   * the confirmed document's name was read, when the confirmed name is another (the register's).
   */
  supplier: { id?: string; name?: string; printed_name?: string; code?: string; vat_id?: string };
  dateFormat?: DateFormat;
  fields: FieldLayout[];
}
