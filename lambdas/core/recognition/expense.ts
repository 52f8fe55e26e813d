/**
 * Conversions between our word model and Textract's AnalyzeExpense shape:
 * - an Extraction becomes an ExpenseDocument (SummaryFields, LineItemGroups, Blocks);
 * - the Blocks of any AnalyzeExpense response become an OcrDocument again (for the learner and for
 *   running our extractor on Textract's words).
 */
import type { Block, ExpenseDocument, ExpenseField } from '@aws-sdk/client-textract';
import type { Extraction } from './extract';
import type { Found } from './extract/rows';
import type { LineItem } from './extract/line-items';
import type { VatLine } from './extract/vat-lines';
import { boxBefore, lineFromWords, pointBefore, roundBox, type PageReading } from './geometry';
import type { AnalyzeExpenseResult, Box, HeaderFieldId, LineItemFieldId, OcrDocument, OcrLine, OcrWord } from './types';

/** Textract type names for header fields; types Textract lacks use the same style (VENDOR_COMPANY_CODE, IBAN...). */
export const HEADER_TYPE: Record<HeaderFieldId, string> = {
  supplier_name: 'VENDOR_NAME',
  supplier_code: 'VENDOR_COMPANY_CODE',
  supplier_vat_id: 'VENDOR_VAT_NUMBER',
  supplier_address: 'VENDOR_ADDRESS',
  customer_name: 'RECEIVER_NAME',
  customer_code: 'RECEIVER_COMPANY_CODE',
  customer_vat_id: 'RECEIVER_VAT_NUMBER',
  document_id: 'INVOICE_RECEIPT_ID',
  issue_date: 'INVOICE_RECEIPT_DATE',
  due_date: 'DUE_DATE',
  currency: 'CURRENCY',
  amount_total: 'TOTAL',
  amount_total_base: 'SUBTOTAL',
  amount_tax: 'TAX',
  iban: 'IBAN',
  bic_swift: 'BIC_SWIFT',
};

export const LINE_ITEM_TYPE: Record<LineItemFieldId, string> = {
  item_number: 'ITEM_NUMBER',
  product_code: 'PRODUCT_CODE',
  description: 'ITEM',
  quantity: 'QUANTITY',
  unit_of_measurement: 'UNIT',
  unit_price_without_vat: 'UNIT_PRICE_WITHOUT_TAX',
  vat_rate: 'TAX_RATE',
  vat: 'TAX',
  price_per_unit: 'UNIT_PRICE',
  total_price: 'PRICE',
};

/** Type names of the fields of one VAT line; they share a GroupProperties entry of type VAT_LINE. */
export const VAT_LINE_TYPE = { vat_rate: 'TAX_RATE', amount_net: 'TAX_BASE', amount_vat: 'TAX', amount_gross: 'TAX_GROSS' } as const;
export const VAT_LINE_GROUP = 'VAT_LINE';

export function geometry(box: Box) {
  const b = roundBox(box);
  return {
    BoundingBox: { Left: b.left, Top: b.top, Width: b.width, Height: b.height },
    Polygon: [
      { X: b.left, Y: b.top },
      { X: b.left + b.width, Y: b.top },
      { X: b.left + b.width, Y: b.top + b.height },
      { X: b.left, Y: b.top + b.height },
    ],
  };
}

function field(type: string, f: Found, extra: Partial<ExpenseField> = {}): ExpenseField {
  const out: ExpenseField = {
    Type: { Text: type, Confidence: f.confidence },
    ValueDetection: { Text: f.value, Geometry: geometry(f.box), Confidence: f.confidence },
    PageNumber: f.page,
    ...extra,
  };
  if (f.label) out.LabelDetection = { Text: f.label.text, Geometry: geometry(f.label.box), Confidence: f.confidence };
  return out;
}

function vatLineFields(l: VatLine, i: number): ExpenseField[] {
  const group = { GroupProperties: [{ Types: [VAT_LINE_GROUP], Id: `vat-line-${i + 1}` }] };
  const out = [field(VAT_LINE_TYPE.vat_rate, l.found.rate, group), field(VAT_LINE_TYPE.amount_vat, l.found.vat, group)];
  // Net and gross may be derived from the totals rather than printed on the line.
  const derived = (value: number | undefined, printed: Found | undefined) =>
    printed ?? (value !== undefined ? { ...l.found.vat, value: value.toFixed(2), raw: value.toFixed(2), confidence: l.found.vat.confidence * 0.8 } : undefined);
  const net = derived(l.net, l.found.net);
  const gross = derived(l.gross, l.found.gross);
  if (net) out.push(field(VAT_LINE_TYPE.amount_net, net, group));
  if (gross) out.push(field(VAT_LINE_TYPE.amount_gross, gross, group));
  return out;
}

function lineItemFields(item: LineItem) {
  const fields: ExpenseField[] = [];
  for (const [id, type] of Object.entries(LINE_ITEM_TYPE) as [LineItemFieldId, string][]) {
    const f = item[id];
    if (f) fields.push(field(type, f));
  }
  if (item.row) fields.push(field('EXPENSE_ROW', item.row));
  return { LineItemExpenseFields: fields };
}

/** PAGE, LINE and WORD blocks, with CHILD relationships, like Textract's. */
export function documentToBlocks(doc: OcrDocument): Block[] {
  const blocks: Block[] = [];
  let n = 0;
  const blockId = () => `block-${++n}`;
  for (const page of doc.pages) {
    const pageBlock: Block = { BlockType: 'PAGE', Id: blockId(), Page: page.page, Geometry: geometry({ left: 0, top: 0, width: 1, height: 1 }), Relationships: [{ Type: 'CHILD', Ids: [] }] };
    blocks.push(pageBlock);
    for (const line of page.lines) {
      const wordBlocks: Block[] = line.words.map((w) => ({
        BlockType: 'WORD',
        Id: blockId(),
        Page: page.page,
        Text: w.text,
        Confidence: w.confidence,
        TextType: 'PRINTED',
        Geometry: geometry(w.box),
      }));
      const lineBlock: Block = {
        BlockType: 'LINE',
        Id: blockId(),
        Page: page.page,
        Text: line.text,
        Confidence: line.confidence,
        Geometry: geometry(line.box),
        Relationships: [{ Type: 'CHILD', Ids: wordBlocks.map((w) => w.Id!) }],
      };
      pageBlock.Relationships![0]!.Ids!.push(lineBlock.Id!);
      blocks.push(lineBlock, ...wordBlocks);
    }
  }
  return blocks;
}

function boxOf(b: Block): Box {
  const bb = b.Geometry?.BoundingBox;
  return { left: bb?.Left ?? 0, top: bb?.Top ?? 0, width: bb?.Width ?? 0, height: bb?.Height ?? 0 };
}

/** Words and lines from the Blocks of an AnalyzeExpense response (all expense documents). */
export function blocksToDocument(result: AnalyzeExpenseResult): OcrDocument {
  const blocks = (result.ExpenseDocuments ?? []).flatMap((d) => d.Blocks ?? []);
  const byId = new Map(blocks.filter((b) => b.Id).map((b) => [b.Id!, b]));
  const pages = new Map<number, OcrLine[]>();
  const used = new Set<string>();
  for (const b of blocks) {
    if (b.BlockType !== 'LINE') continue;
    const page = b.Page ?? 1;
    const childIds = (b.Relationships ?? []).filter((r) => r.Type === 'CHILD').flatMap((r) => r.Ids ?? []);
    let words: OcrWord[] = childIds
      .map((id) => byId.get(id))
      .filter((w): w is Block => !!w && w.BlockType === 'WORD' && !used.has(w.Id!))
      .map((w) => {
        used.add(w.Id!);
        return { text: w.Text ?? '', box: boxOf(w), confidence: w.Confidence ?? 0, page };
      });
    if (!words.length && b.Text) words = [{ text: b.Text, box: boxOf(b), confidence: b.Confidence ?? 0, page }];
    if (!pages.has(page)) pages.set(page, []);
    pages.get(page)!.push(lineFromWords(words));
  }
  // Responses without LINE blocks: WORD blocks alone.
  for (const b of blocks) {
    if (b.BlockType !== 'WORD' || used.has(b.Id ?? '')) continue;
    const page = b.Page ?? 1;
    if (!pages.has(page)) pages.set(page, []);
    pages.get(page)!.push(lineFromWords([{ text: b.Text ?? '', box: boxOf(b), confidence: b.Confidence ?? 0, page }]));
  }
  return {
    source: 'ocr',
    pages: [...pages.entries()].sort((a, b) => a[0] - b[0]).map(([page, lines]) => ({ page, width: 1, height: 1, lines })),
  };
}

/** The extraction as one ExpenseDocument, with the words as Blocks. */
export function toExpenseDocument(doc: OcrDocument, ex: Extraction, index = 1): ExpenseDocument {
  const summary: ExpenseField[] = [];
  const currency = ex.fields.currency?.value;
  for (const [id, type] of Object.entries(HEADER_TYPE) as [HeaderFieldId, string][]) {
    const f = ex.fields[id];
    if (!f) continue;
    const isAmount = id === 'amount_total' || id === 'amount_total_base' || id === 'amount_tax';
    const extra: Partial<ExpenseField> = {};
    if (isAmount && currency) extra.Currency = { Code: currency, Confidence: ex.fields.currency!.confidence };
    if (id.startsWith('supplier_')) extra.GroupProperties = [{ Types: ['VENDOR'], Id: 'vendor' }];
    if (id.startsWith('customer_')) extra.GroupProperties = [{ Types: ['RECEIVER'], Id: 'receiver' }];
    summary.push(field(type, f, extra));
  }
  ex.vatLines.forEach((l, i) => summary.push(...vatLineFields(l, i)));
  return {
    ExpenseIndex: index,
    SummaryFields: summary,
    LineItemGroups: ex.lineItems.length ? [{ LineItemGroupIndex: 1, LineItems: ex.lineItems.map(lineItemFields) }] : [],
    Blocks: documentToBlocks(doc),
  };
}

export function toAnalyzeExpenseResult(doc: OcrDocument, ex: Extraction): AnalyzeExpenseResult {
  return { DocumentMetadata: { Pages: doc.pages.length }, ExpenseDocuments: [toExpenseDocument(doc, ex)] };
}

/**
 * A result whose pages were read after turning them (`readings`: page number → how it was read: a quarter turn
 * clockwise, and a small turn that levelled slanting print), with every box and polygon put back on the page as
 * stored (its page images are not turned), so the edit screen draws them over the text. A field or block belongs
 * to the page its `PageNumber` / `Page` names (page 1 when none).
 */
export function resultBeforeTurns(result: AnalyzeExpenseResult, readings: ReadonlyMap<number, PageReading>): AnalyzeExpenseResult {
  if (![...readings.values()].some((r) => r.turn !== 0 || r.level)) return result;
  const visit = (node: unknown, page: number): unknown => {
    if (Array.isArray(node)) return node.map((n) => visit(n, page));
    if (!node || typeof node !== 'object') return node;
    const rec = node as Record<string, unknown>;
    const own = typeof rec.PageNumber === 'number' ? rec.PageNumber : typeof rec.Page === 'number' ? rec.Page : page;
    const reading = readings.get(own);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(rec)) {
      if (k === 'Geometry' && reading && (reading.turn || reading.level) && v && typeof v === 'object' && 'BoundingBox' in v) {
        const g = v as { BoundingBox?: { Left?: number; Top?: number; Width?: number; Height?: number }; Polygon?: { X?: number; Y?: number }[] };
        const bb = g.BoundingBox ?? {};
        const box = boxBefore({ left: bb.Left ?? 0, top: bb.Top ?? 0, width: bb.Width ?? 0, height: bb.Height ?? 0 }, reading);
        const polygon = g.Polygon?.map((p) => {
          const q = pointBefore(p.X ?? 0, p.Y ?? 0, reading);
          return { X: q.x, Y: q.y };
        });
        out[k] = { ...g, BoundingBox: { Left: box.left, Top: box.top, Width: box.width, Height: box.height }, ...(polygon ? { Polygon: polygon } : {}) };
      } else out[k] = visit(v, own);
    }
    return out;
  };
  return visit(result, 1) as AnalyzeExpenseResult;
}
