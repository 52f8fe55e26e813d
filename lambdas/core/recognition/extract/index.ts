/**
 * From positioned words to the product's fields. Plain functions, no I/O: the same code serves OCR
 * output, PDF text layers and (through the Blocks of a response) Textract's words.
 */
import type { DateFormat, HeaderFieldId, OcrDocument, OcrWord } from '../types';
import { formatAmount, roundMoney } from './amounts';
import { dateFormatOfAddress, dateFormatOfCurrency, documentDateFormat, extractCurrency, extractDates, extractDocumentId, extractLooseIds, extractParty, partyBlocks, type PartyBlock, type PartyFields, windowAddress } from './header';
import { discountLines } from './discount-lines';
import { extractLineItems, type LineItem } from './line-items';
import { buildRow, documentRows, type Found, type Row } from './rows';
import { extractSupplierHeader } from './supplier';
import { extractTotals } from './totals';
import { checkTotals, extractVatLines, type TotalsCheck, type VatLine } from './vat-lines';

export interface Extraction {
  fields: Partial<Record<HeaderFieldId, Found>>;
  vatLines: VatLine[];
  lineItems: LineItem[];
  checks: TotalsCheck;
  /** How the total was chosen. */
  reasons: string[];
}

export interface ExtractOptions {
  /** The supplier's known date format (from master data or a learnt layout). */
  dateFormat?: DateFormat;
  /**
   * The words are the document's own text (a PDF's text layer, an office file), not a reading of its image:
   * names are taken as written, without the repairs of OCR misreadings ("NART" stays "NART").
   */
  exactText?: boolean;
  /** Lines of print known from other receipts, with how many times each was seen (`NameOptions.knownLines`). */
  knownLines?: ReadonlyMap<string, number>;
}

function assignParty(fields: Extraction['fields'], prefix: 'supplier' | 'customer', p: PartyFields) {
  if (p.name) fields[`${prefix}_name`] = p.name;
  if (p.code) fields[`${prefix}_code`] = p.code;
  if (p.vatId) fields[`${prefix}_vat_id`] = p.vatId;
  if (p.address && prefix === 'supplier') fields.supplier_address = p.address;
  if (prefix === 'supplier') {
    if (p.iban) fields.iban = p.iban;
    if (p.bic) fields.bic_swift = p.bic;
  }
}

export function extractRows(rows: Row[], opts: ExtractOptions = {}): Extraction {
  const fields: Extraction['fields'] = {};
  const names = { repairMisreadings: !opts.exactText, ...(opts.knownLines ? { knownLines: opts.knownLines } : {}) };
  const blocks = partyBlocks(rows);
  // A letter's window: the buyer's block under the seller's sender line, neither labelled.
  const letterWindow = blocks.customer ? undefined : windowAddress(rows);
  if (letterWindow) blocks.customer = letterWindow.customer;
  const wordsOf = (b?: PartyBlock) => new Set<OcrWord>(b ? [...b.rows.flatMap((r) => r.words), ...(b.inline?.words ?? [])] : []);
  const customerWords = wordsOf(blocks.customer);
  const supplierWords = wordsOf(blocks.supplier);
  const without = (exclude: Set<OcrWord>): Row[] =>
    rows.flatMap((r) => {
      const ws = r.words.filter((w) => !exclude.has(w));
      if (ws.length === r.words.length) return [r];
      return ws.length ? [buildRow(ws, r.page, r.index)] : [];
    });

  // The seller's name heads what the seller printed: nothing above it (a filing number written on the paper) is an
  // item.
  let sellerTop: Row | undefined;
  if (blocks.supplier) {
    assignParty(fields, 'supplier', extractParty(blocks.supplier, names));
  } else {
    const header = extractSupplierHeader(without(customerWords), names);
    if (header.name) fields.supplier_name = header.name;
    if (header.address) fields.supplier_address = header.address;
    sellerTop = header.nameRows[0];
    // The sender line names the seller and its address, set apart: not the whole line for the name.
    const sender = letterWindow?.sender;
    if (sender && (!header.name || header.nameRows.some((r) => r.page === sender.row.page && r.index === sender.row.index))) {
      fields.supplier_name = sender.name;
      fields.supplier_address = sender.address;
      sellerTop = sender.row;
    }
  }
  if (blocks.customer) assignParty(fields, 'customer', extractParty(blocks.customer, names));
  // Identifiers printed outside the blocks (receipts, footers with bank details).
  const loose = extractLooseIds(without(new Set([...customerWords, ...supplierWords])));
  if (!fields.supplier_code && loose.code && !blocks.supplier) fields.supplier_code = loose.code;
  // "Your VAT ID …" in the invoice's details is the buyer's: never the seller's, and the buyer's where no block says.
  if (!fields.customer_vat_id && loose.buyerVatId && loose.buyerVatId.value !== fields.supplier_vat_id?.value) fields.customer_vat_id = loose.buyerVatId;
  if (!fields.supplier_vat_id && loose.vatId && loose.vatId.value !== fields.customer_vat_id?.value) fields.supplier_vat_id = loose.vatId;
  if (!fields.iban && loose.iban) fields.iban = loose.iban;
  if (!fields.bic_swift && loose.bic) fields.bic_swift = loose.bic;

  const docId = extractDocumentId(rows);
  if (docId) fields.document_id = docId;
  const cur = extractCurrency(rows);
  // Ambiguous dates follow the supplier's known format, else an unambiguous date of the document, else the
  // country of its currency, else the country of the seller's address.
  const dates = extractDates(
    rows,
    opts.dateFormat ?? documentDateFormat(rows) ?? dateFormatOfCurrency(cur?.value) ?? dateFormatOfAddress(fields.supplier_address?.value),
  );
  if (dates.issue) fields.issue_date = dates.issue;
  if (dates.due) fields.due_date = dates.due;

  const belowSeller = sellerTop ? rows.filter((r) => r.page !== sellerTop.page || r.box.top + r.box.height / 2 > sellerTop.box.top) : rows;
  const lineItems = extractLineItems(belowSeller);
  const itemAmounts = lineItems.map((li) => (li.total_price ? Number(li.total_price.value) : NaN));
  const itemsSum = itemAmounts.length && itemAmounts.every((n) => Number.isFinite(n)) ? Math.round(itemAmounts.reduce((a, b) => a + b, 0) * 100) / 100 : undefined;
  const totals = extractTotals(rows, itemsSum !== undefined ? { itemsSum } : {});
  if (totals.total) fields.amount_total = totals.total;
  if (totals.total) lineItems.push(...discountLines(rows, lineItems, Number(totals.total.value)));
  if (totals.subtotal) fields.amount_total_base = totals.subtotal;
  if (totals.tax) fields.amount_tax = totals.tax;
  if (cur) fields.currency = cur;
  else if (totals.currency && totals.total) fields.currency = { ...totals.total, value: totals.currency };

  const num = (f?: Found) => (f ? Number(f.value) : undefined);
  const vatLines = extractVatLines(rows, {
    ...(fields.amount_total_base ? { subtotal: num(fields.amount_total_base)! } : {}),
    ...(fields.amount_tax ? { tax: num(fields.amount_tax)! } : {}),
    ...(fields.amount_total ? { total: num(fields.amount_total)! } : {}),
  });
  // With VAT lines and no explicit tax/base, their sums are the tax and the base.
  if (vatLines.length && !fields.amount_tax) {
    const sum = vatLines.reduce((s, l) => s + l.vat, 0);
    const first = vatLines[0]!.found.vat;
    fields.amount_tax = { ...first, value: formatAmount(sum), confidence: first.confidence * 0.9 };
  }
  // A tax summary's nets are the base where they and its tax make the total ("SR 6%  22.99  1.38" of 24.37).
  const nets = vatLines.map((l) => l.found.net);
  if (vatLines.length && !fields.amount_total_base && fields.amount_total && fields.amount_tax && nets.every((n): n is Found => !!n)) {
    const base = roundMoney(vatLines.reduce((s, l) => s + l.net!, 0));
    if (Math.abs(base + Number(fields.amount_tax.value) - Number(fields.amount_total.value)) < 0.005 * (vatLines.length + 1)) {
      fields.amount_total_base = { ...nets[0]!, value: formatAmount(base), confidence: Math.min(...nets.map((n) => n.confidence)) * 0.9 };
    }
  }
  const checks = checkTotals({
    ...(fields.amount_total ? { total: num(fields.amount_total)! } : {}),
    ...(fields.amount_total_base ? { subtotal: num(fields.amount_total_base)! } : {}),
    ...(fields.amount_tax ? { tax: num(fields.amount_tax)! } : {}),
    vatLines,
  });
  return { fields, vatLines, lineItems, checks, reasons: totals.reasons };
}

export function extractDocument(doc: OcrDocument, opts: ExtractOptions = {}): Extraction {
  return extractRows(documentRows(doc), { exactText: doc.source !== 'ocr', ...opts });
}

export { documentRows };
