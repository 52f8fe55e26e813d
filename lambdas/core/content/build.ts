/**
 * From recognition to content. The processing job (documents) runs the recogniser (Textract or the local
 * one), maps its AnalyzeExpense-shaped answer with `mapExpenseToFields` and hands both to
 * `contentFromRecognition`, which returns the content tree and the OCR word boxes of every page.
 */
import type { Block } from '@aws-sdk/client-textract';
import type { ContentValue, OcrBox, PageBoxes, SchemaField } from '../../../shared/schemas/content';
import { LINE_ITEM_COLUMNS } from '../../../shared/schemas/content';
import { mapExpenseToFields, type MapOptions } from '../recognition/map-fields';
import type { AnalyzeExpenseResult, ExtractedFields, FieldValue, HeaderFieldId, VatLineFieldId } from '../recognition/types';
import { companySchema, schemaById, type SchemaOverrides } from './schema';
import { appendRows, emptyContent, setValues, type ContentDocument, type ValueUpdate } from './tree';

/** Header fields of the field map → datapoints of the schema. */
export const HEADER_TO_SCHEMA: Readonly<Record<HeaderFieldId, string>> = {
  supplier_name: 'supplier_name',
  supplier_code: 'supplier_code',
  supplier_vat_id: 'supplier_vat_id',
  supplier_address: 'supplier_street',
  customer_name: 'customer_name',
  customer_code: 'customer_code',
  customer_vat_id: 'customer_vat_id',
  document_id: 'document_id',
  issue_date: 'issue_date',
  due_date: 'due_date',
  currency: 'currency',
  amount_total: 'amount_total',
  amount_total_base: 'amount_total_base',
  amount_tax: 'amount_tax',
  iban: 'iban',
  bic_swift: 'bic_swift',
};

/** The reverse: a header datapoint of the schema → its field of the field map (the only place it is written). */
export const SCHEMA_TO_HEADER: ReadonlyMap<string, HeaderFieldId> = new Map(
  (Object.entries(HEADER_TO_SCHEMA) as [HeaderFieldId, string][]).map(([fieldId, schemaId]) => [schemaId, fieldId]),
);

const VAT_LINE_TO_SCHEMA: Record<VatLineFieldId, string> = {
  vat_rate: 'vat_line_rate',
  amount_net: 'vat_line_base',
  amount_vat: 'vat_line_tax',
  amount_gross: 'vat_line_total',
};

export interface BuildOptions {
  /** Document id of each page (receipt.pages[i].document), to fill `file`; index 0 is page 1. */
  pageDocuments?: (string | null)[];
  overrides?: SchemaOverrides;
}

function fileOf(page: number, opts: BuildOptions): string | null {
  return opts.pageDocuments?.[page - 1] ?? null;
}

function fromField(id: string, f: FieldValue, opts: BuildOptions): ValueUpdate {
  return { id, value: f.value, position: f.box, page: f.page, file: fileOf(f.page, opts), block_id: null };
}

function withConfidence(doc: ContentDocument, values: Map<string, number>): ContentDocument {
  const walkAll = (items: ContentDocument['items']) => {
    for (const item of items) {
      const c = values.get(item.id);
      if (c !== undefined && item.content) item.content = { ...item.content, confidence: c } satisfies ContentValue;
      walkAll(item.children);
    }
  };
  walkAll(doc.items);
  return doc;
}

/** The content tree of a document from the recognised field map. */
export function buildContentFromExtraction(fields: ExtractedFields, opts: BuildOptions = {}): ContentDocument {
  const schema: SchemaField[] = companySchema(opts.overrides);
  const known = schemaById(schema);
  let doc = emptyContent(schema);
  const updates: ValueUpdate[] = [];
  const confidence = new Map<string, number>();
  const push = (id: string, f: FieldValue) => {
    updates.push(fromField(id, f, opts));
    // The label printed for the value is the field's key (SHOW KEYS on the edit screen).
    if (f.label) updates.push({ id, value: f.label.text, position: f.label.box, page: f.page, block_id: null, related: true });
    confidence.set(id, f.confidence);
  };

  for (const [fieldId, schemaId] of Object.entries(HEADER_TO_SCHEMA) as [HeaderFieldId, string][]) {
    const f = fields[fieldId];
    if (f && known.has(schemaId)) push(schemaId, f);
  }
  const vatLines = fields.vat_lines ?? [];
  if (vatLines.length) {
    const added = appendRows(doc, schema, 'vat_lines', vatLines.length);
    doc = added.doc;
    vatLines.forEach((line, n) => {
      for (const [k, schemaId] of Object.entries(VAT_LINE_TO_SCHEMA) as [VatLineFieldId, string][]) {
        const f = line[k];
        if (f) push(`${added.rowIds[n]}.${schemaId}`, f);
      }
    });
  }
  const lineItems = fields.line_items ?? [];
  if (lineItems.length) {
    const added = appendRows(doc, schema, 'line_items', lineItems.length);
    doc = added.doc;
    lineItems.forEach((item, n) => {
      for (const col of LINE_ITEM_COLUMNS) {
        const f = item[col];
        if (f) push(`${added.rowIds[n]}.${col}`, f);
      }
    });
  }
  doc = setValues(doc, updates);
  return withConfidence(doc, confidence);
}

// ---------------------------------------------------------------- OCR boxes

export type { OcrBox, PageBoxes };

/** Per-page word and line boxes of an AnalyzeExpense-shaped answer (GET receipts/{id}/bboxes). */
export function boxesFromExpense(result: AnalyzeExpenseResult, opts: BuildOptions = {}): PageBoxes[] {
  const blocks: Block[] = (result.ExpenseDocuments ?? []).flatMap((d) => d.Blocks ?? []);
  const pages = new Map<number, PageBoxes>();
  const pageOf = (n: number) => {
    if (!pages.has(n)) pages.set(n, { page: n, file: fileOf(n, opts), words: [], lines: [] });
    return pages.get(n)!;
  };
  const seen = new Set<string>();
  const r = (n: number | undefined) => Math.round((n ?? 0) * 1e6) / 1e6;
  for (const [i, b] of blocks.entries()) {
    if (b.BlockType !== 'WORD' && b.BlockType !== 'LINE') continue;
    const id = b.Id ?? `${b.BlockType}-${i}`;
    // Several expense documents of one file repeat the same blocks.
    if (seen.has(id)) continue;
    seen.add(id);
    const bb = b.Geometry?.BoundingBox;
    const box: OcrBox = { id, text: b.Text ?? '', left: r(bb?.Left), top: r(bb?.Top), width: r(bb?.Width), height: r(bb?.Height), confidence: Math.round((b.Confidence ?? 0) * 10) / 10 };
    if (!box.text.trim()) continue;
    const page = pageOf(b.Page ?? 1);
    if (b.BlockType === 'WORD') page.words.push(box);
    else page.lines.push({ ...box, word_ids: (b.Relationships ?? []).filter((rel) => rel.Type === 'CHILD').flatMap((rel) => rel.Ids ?? []) });
  }
  const pageCount = result.DocumentMetadata?.Pages ?? 0;
  for (let n = 1; n <= pageCount; n++) pageOf(n);
  return [...pages.values()].sort((a, b) => a.page - b.page);
}

/** Content and word boxes from one recognition answer. */
export function contentFromRecognition(
  result: AnalyzeExpenseResult,
  opts: BuildOptions & { mapOptions?: MapOptions; fields?: ExtractedFields } = {},
): { content: ContentDocument; boxes: PageBoxes[] } {
  const fields = opts.fields ?? mapExpenseToFields(result, opts.mapOptions ?? {});
  return { content: buildContentFromExtraction(fields, opts), boxes: boxesFromExpense(result, opts) };
}
