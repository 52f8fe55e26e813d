/**
 * Structured e-invoices read exactly from their XML, without OCR:
 * - UBL 2.1 Invoice / CreditNote (Peppol BIS Billing 3.0, EN 16931);
 * - UN/CEFACT Cross Industry Invoice (Factur-X / ZUGFeRD, embedded in a PDF/A-3).
 */
import { XMLParser } from 'fast-xml-parser';
import { formatAmount } from './extract/amounts';
import type { Extraction } from './extract';
import type { LineItem } from './extract/line-items';
import { documentRows, type Found } from './extract/rows';
import { collapseSpaces } from './extract/text';
import { toAnalyzeExpenseResult } from './expense';
import { UnsupportedDocumentError } from './file-type';
import type { VatLine } from './extract/vat-lines';
import { EMPTY_BOX, unionBoxes } from './geometry';
import type { AnalyzeExpenseResult, Box, HeaderFieldId, OcrDocument } from './types';

export interface EInvoiceParty {
  name?: string;
  code?: string;
  vatId?: string;
  address?: string;
}

export interface EInvoiceLine {
  itemNumber?: string;
  productCode?: string;
  description?: string;
  quantity?: number;
  unit?: string;
  unitPriceNet?: number;
  vatRate?: number;
  vat?: number;
  pricePerUnit?: number;
  totalPrice?: number;
}

export interface EInvoice {
  syntax: 'UBL' | 'CII';
  documentId?: string;
  issueDate?: string;
  dueDate?: string;
  currency?: string;
  supplier: EInvoiceParty;
  customer: EInvoiceParty;
  iban?: string;
  bic?: string;
  total?: number;
  base?: number;
  tax?: number;
  vatLines: { rate: number; net: number; vat: number }[];
  lines: EInvoiceLine[];
}

type X = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseTagValue: false,
  trimValues: true,
  isArray: (name) =>
    ['InvoiceLine', 'CreditNoteLine', 'TaxSubtotal', 'TaxTotal', 'PaymentMeans', 'IncludedSupplyChainTradeLineItem', 'ApplicableTradeTax', 'SpecifiedTradeSettlementPaymentMeans', 'AddressLine', 'PartyName', 'PartyTaxScheme', 'SpecifiedTaxRegistration', 'IncludedNote', 'Note', 'AllowanceCharge', 'SpecifiedTradeAllowanceCharge'].includes(name),
});

function obj(v: unknown): X | undefined {
  if (Array.isArray(v)) return obj(v[0]);
  return v && typeof v === 'object' ? (v as X) : undefined;
}
function arr(v: unknown): X[] {
  if (v === undefined || v === null) return [];
  return (Array.isArray(v) ? v : [v]).map(obj).filter((x): x is X => !!x);
}
/** Text of an element that may carry attributes ({ '#text': ..., '@currencyID': ... }). */
function text(v: unknown): string | undefined {
  if (Array.isArray(v)) return text(v[0]);
  if (typeof v === 'string' || typeof v === 'number') {
    const s = collapseSpaces(String(v));
    return s || undefined;
  }
  const o = obj(v);
  if (o && '#text' in o) return text(o['#text']);
  return undefined;
}
function path(v: unknown, ...keys: string[]): unknown {
  let cur: unknown = v;
  for (const k of keys) {
    const o = obj(cur);
    if (!o) return undefined;
    cur = o[k];
  }
  return cur;
}
function num(v: unknown): number | undefined {
  const t = text(v);
  if (t === undefined) return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
}
function attr(v: unknown, name: string): string | undefined {
  const o = obj(v);
  const a = o?.[`@${name}`];
  return typeof a === 'string' ? a : undefined;
}

const UNIT_NAMES: Record<string, string> = {
  C62: 'unit',
  H87: 'pcs',
  EA: 'each',
  KGM: 'kg',
  GRM: 'g',
  LTR: 'l',
  MTR: 'm',
  MTK: 'm2',
  MTQ: 'm3',
  HUR: 'h',
  DAY: 'day',
  MON: 'month',
  ANN: 'year',
  SET: 'set',
  PK: 'pack',
  KWH: 'kWh',
};
export function unitName(code: string | undefined): string | undefined {
  if (!code) return undefined;
  return UNIT_NAMES[code] ?? code;
}

/** "20240315" (CII format 102) or "2024-03-15" → "2024-03-15". */
function isoDate(v: string | undefined): string | undefined {
  if (!v) return undefined;
  const m = v.match(/^(\d{4})-?(\d{2})-?(\d{2})/);
  return m ? `${m[1]}-${m[2]}-${m[3]}` : undefined;
}

function joinAddress(parts: (string | undefined)[]): string | undefined {
  const s = parts.filter((p): p is string => !!p && !!p.trim()).join(', ');
  return s || undefined;
}

function ublParty(p: unknown): EInvoiceParty {
  const party = obj(path(p, 'Party'));
  if (!party) return {};
  const taxSchemes = arr(party.PartyTaxScheme);
  const vat = taxSchemes.find((t) => text(path(t, 'TaxScheme', 'ID')) === 'VAT') ?? taxSchemes[0];
  const legal = obj(party.PartyLegalEntity);
  const addr = obj(party.PostalAddress);
  const name = text(path(arr(party.PartyName)[0], 'Name')) ?? text(legal?.RegistrationName);
  const out: EInvoiceParty = {};
  if (name) out.name = name;
  const code = text(legal?.CompanyID) ?? text(path(party.PartyIdentification, 'ID'));
  if (code) out.code = code;
  const vatId = text(vat?.CompanyID);
  if (vatId) out.vatId = vatId.replace(/\s/g, '');
  const address = addr
    ? joinAddress([
        text(addr.StreetName),
        text(addr.AdditionalStreetName),
        ...arr(addr.AddressLine).map((l) => text(l.Line)),
        [text(addr.PostalZone), text(addr.CityName)].filter(Boolean).join(' '),
        text(path(addr.Country, 'IdentificationCode')),
      ])
    : undefined;
  if (address) out.address = address;
  return out;
}

/**
 * Document type codes of credit notes (UNTDID 1001, as EN 16931 lists them): 381 credit note, 81 and 83 credit notes
 * for goods and services or financial adjustments, 261 self-billed, 262 consolidated, 296 and 308 credit notes of
 * other kinds, 396 factored, 420 and 458 optical and factored, 532 forwarder's.
 */
const CREDIT_NOTE_CODES = new Set(['81', '83', '261', '262', '296', '308', '381', '396', '420', '458', '532']);

function isCreditNoteCode(code: string | undefined): boolean {
  return !!code && CREDIT_NOTE_CODES.has(code);
}

const negate = (v: number | undefined) => (v === undefined || v === 0 ? v : -v);

/**
 * A credit note as the product stores it: its amounts negative. An e-invoice credit note states what it credits in
 * positive amounts, its type (a CreditNote, or a credit note's type code such as 381) giving the sign. The sign of a line sits on its
 * quantity and its amounts, not on its unit price, which EN 16931 keeps non-negative (BR-27): 2 returned at 289.00
 * are −2 × 289.00 = −578.00, as a printed credit note shows them.
 */
function asCreditNote(inv: EInvoice): EInvoice {
  const line = (l: EInvoiceLine): EInvoiceLine => {
    const out: EInvoiceLine = { ...l };
    if (l.quantity !== undefined) out.quantity = negate(l.quantity)!;
    if (l.totalPrice !== undefined) out.totalPrice = negate(l.totalPrice)!;
    if (l.vat !== undefined) out.vat = negate(l.vat)!;
    return out;
  };
  const out: EInvoice = {
    ...inv,
    vatLines: inv.vatLines.map((l) => ({ rate: l.rate, net: negate(l.net)!, vat: negate(l.vat)! })),
    lines: inv.lines.map(line),
  };
  for (const k of ['total', 'base', 'tax'] as const) if (inv[k] !== undefined) out[k] = negate(inv[k]);
  return out;
}

/**
 * A document-level allowance or charge as a line: an allowance with a negative amount, a charge with a positive one.
 * EN 16931 totals them apart from the lines (Σ lines − allowances + charges = the amount without VAT), so without
 * them the lines would not add up to the document; as lines they do, as the PDF path's discount lines make them.
 */
function allowanceChargeLine(charge: boolean, amount: number, reason: string | undefined, rate: number | undefined): EInvoiceLine {
  const total = charge ? amount : -amount;
  const out: EInvoiceLine = { description: reason ?? (charge ? 'Charge' : 'Allowance'), totalPrice: total };
  if (rate !== undefined) {
    out.vatRate = rate;
    out.vat = Math.round(total * rate) / 100;
  }
  return out;
}

/** UBL's document-level `cac:AllowanceCharge` (BG-20, BG-21). */
function ublAllowanceCharges(doc: X): EInvoiceLine[] {
  return arr(doc.AllowanceCharge).flatMap((a) => {
    const amount = num(a.Amount);
    if (amount === undefined) return [];
    const reason = text(a.AllowanceChargeReason) ?? text(a.AllowanceChargeReasonCode);
    return [allowanceChargeLine(text(a.ChargeIndicator) === 'true', amount, reason, num(path(arr(a.TaxCategory)[0], 'Percent')))];
  });
}

/** CII's document-level `ram:SpecifiedTradeAllowanceCharge` in the header settlement (BG-20, BG-21). */
function ciiAllowanceCharges(settlement: X | undefined): EInvoiceLine[] {
  return arr(settlement?.SpecifiedTradeAllowanceCharge).flatMap((a) => {
    const amount = num(a.ActualAmount);
    if (amount === undefined) return [];
    const reason = text(a.Reason) ?? text(a.ReasonCode);
    const charge = text(path(a.ChargeIndicator, 'Indicator')) === 'true';
    return [allowanceChargeLine(charge, amount, reason, num(path(arr(a.CategoryTradeTax)[0], 'RateApplicablePercent')))];
  });
}

export function parseUbl(root: X): EInvoice {
  const isCredit = 'CreditNote' in root;
  const doc = obj(root.Invoice ?? root.CreditNote)!;
  const creditNote = isCredit || isCreditNoteCode(text(doc.InvoiceTypeCode));
  const currency = text(doc.DocumentCurrencyCode);
  const taxTotals = arr(doc.TaxTotal);
  // With two TaxTotals (document and accounting currency), the one with subtotals / in the document currency.
  const taxTotal =
    taxTotals.find((t) => arr(t.TaxSubtotal).length) ?? taxTotals.find((t) => attr(t.TaxAmount, 'currencyID') === currency) ?? taxTotals[0];
  const monetary = obj(doc.LegalMonetaryTotal);
  const means = arr(doc.PaymentMeans);
  const account = means.map((m) => obj(m.PayeeFinancialAccount)).find(Boolean);
  const lines = arr(isCredit ? doc.CreditNoteLine : doc.InvoiceLine).map((l): EInvoiceLine => {
    const item = obj(l.Item);
    const qtyEl = isCredit ? l.CreditedQuantity : l.InvoicedQuantity;
    const price = num(path(l.Price, 'PriceAmount'));
    const baseQty = num(path(l.Price, 'BaseQuantity')) ?? 1;
    const rate = num(path(item?.ClassifiedTaxCategory, 'Percent'));
    const total = num(l.LineExtensionAmount);
    const out: EInvoiceLine = {};
    const id = text(l.ID);
    if (id) out.itemNumber = id;
    const code = text(path(item?.SellersItemIdentification, 'ID')) ?? text(path(item?.StandardItemIdentification, 'ID'));
    if (code) out.productCode = code;
    const name = text(item?.Name) ?? text(item?.Description);
    if (name) out.description = name;
    const q = num(qtyEl);
    if (q !== undefined) out.quantity = q;
    const unit = unitName(attr(qtyEl, 'unitCode'));
    if (unit) out.unit = unit;
    if (price !== undefined) out.unitPriceNet = price / baseQty;
    if (rate !== undefined) out.vatRate = rate;
    if (total !== undefined) out.totalPrice = total;
    if (total !== undefined && rate !== undefined) out.vat = Math.round(total * rate) / 100;
    if (price !== undefined && rate !== undefined) out.pricePerUnit = Math.round((price / baseQty) * (100 + rate)) / 100;
    return out;
  });
  const inv: EInvoice = {
    syntax: 'UBL',
    supplier: ublParty(doc.AccountingSupplierParty),
    customer: ublParty(doc.AccountingCustomerParty),
    vatLines: arr(taxTotal?.TaxSubtotal).map((s) => ({
      rate: num(path(s.TaxCategory, 'Percent')) ?? 0,
      net: num(s.TaxableAmount) ?? 0,
      vat: num(s.TaxAmount) ?? 0,
    })),
    lines: [...lines, ...ublAllowanceCharges(doc)],
  };
  const set = <K extends keyof EInvoice>(k: K, v: EInvoice[K] | undefined) => {
    if (v !== undefined) inv[k] = v;
  };
  set('documentId', text(doc.ID));
  set('issueDate', isoDate(text(doc.IssueDate)));
  set('dueDate', isoDate(text(doc.DueDate) ?? text(path(means[0], 'PaymentDueDate'))));
  set('currency', currency);
  set('iban', text(account?.ID)?.replace(/\s/g, ''));
  set('bic', text(path(account?.FinancialInstitutionBranch, 'ID')));
  set('total', num(monetary?.TaxInclusiveAmount) ?? num(monetary?.PayableAmount));
  set('base', num(monetary?.TaxExclusiveAmount));
  set('tax', num(taxTotal?.TaxAmount));
  return creditNote ? asCreditNote(inv) : inv;
}

function ciiParty(p: unknown): EInvoiceParty {
  const party = obj(p);
  if (!party) return {};
  const out: EInvoiceParty = {};
  const name = text(party.Name);
  if (name) out.name = name;
  const code = text(path(party.SpecifiedLegalOrganization, 'ID')) ?? text(party.ID);
  if (code) out.code = code;
  const regs = arr(party.SpecifiedTaxRegistration);
  const vat = regs.find((r) => attr(r.ID, 'schemeID') === 'VA') ?? regs[0];
  const vatId = text(vat?.ID);
  if (vatId) out.vatId = vatId.replace(/\s/g, '');
  const a = obj(party.PostalTradeAddress);
  const address = a
    ? joinAddress([text(a.LineOne), text(a.LineTwo), text(a.LineThree), [text(a.PostcodeCode), text(a.CityName)].filter(Boolean).join(' '), text(a.CountryID)])
    : undefined;
  if (address) out.address = address;
  return out;
}

export function parseCii(root: X): EInvoice {
  const doc = obj(root.CrossIndustryInvoice)!;
  const header = obj(doc.ExchangedDocument);
  const tx = obj(doc.SupplyChainTradeTransaction);
  const agreement = obj(tx?.ApplicableHeaderTradeAgreement);
  const settlement = obj(tx?.ApplicableHeaderTradeSettlement);
  const sums = obj(settlement?.SpecifiedTradeSettlementHeaderMonetarySummation);
  const currency = text(settlement?.InvoiceCurrencyCode);
  const means = arr(settlement?.SpecifiedTradeSettlementPaymentMeans);
  const taxTotalEl = (() => {
    const v = sums?.TaxTotalAmount;
    const list = Array.isArray(v) ? v : [v];
    return list.find((t) => attr(t, 'currencyID') === currency) ?? list[0];
  })();
  const lines = arr(tx?.IncludedSupplyChainTradeLineItem).map((l): EInvoiceLine => {
    const product = obj(l.SpecifiedTradeProduct);
    const agreementL = obj(l.SpecifiedLineTradeAgreement);
    const delivery = obj(l.SpecifiedLineTradeDelivery);
    const settle = obj(l.SpecifiedLineTradeSettlement);
    const tax = arr(settle?.ApplicableTradeTax)[0];
    const net = num(path(agreementL?.NetPriceProductTradePrice, 'ChargeAmount'));
    const basis = num(path(agreementL?.NetPriceProductTradePrice, 'BasisQuantity')) ?? 1;
    const gross = num(path(agreementL?.GrossPriceProductTradePrice, 'ChargeAmount'));
    const rate = num(tax?.RateApplicablePercent);
    const total = num(path(settle?.SpecifiedTradeSettlementLineMonetarySummation, 'LineTotalAmount'));
    const out: EInvoiceLine = {};
    const id = text(path(l.AssociatedDocumentLineDocument, 'LineID'));
    if (id) out.itemNumber = id;
    const code = text(product?.SellerAssignedID) ?? text(product?.GlobalID);
    if (code) out.productCode = code;
    const name = text(product?.Name) ?? text(product?.Description);
    if (name) out.description = name;
    const q = num(delivery?.BilledQuantity);
    if (q !== undefined) out.quantity = q;
    const unit = unitName(attr(delivery?.BilledQuantity, 'unitCode'));
    if (unit) out.unit = unit;
    if (net !== undefined) out.unitPriceNet = net / basis;
    if (rate !== undefined) out.vatRate = rate;
    if (total !== undefined) out.totalPrice = total;
    if (total !== undefined && rate !== undefined) out.vat = Math.round(total * rate) / 100;
    if (net !== undefined && rate !== undefined) out.pricePerUnit = Math.round((net / basis) * (100 + rate)) / 100;
    else if (gross !== undefined) out.pricePerUnit = gross;
    return out;
  });
  const inv: EInvoice = {
    syntax: 'CII',
    supplier: ciiParty(agreement?.SellerTradeParty),
    customer: ciiParty(agreement?.BuyerTradeParty),
    vatLines: arr(settlement?.ApplicableTradeTax).map((t) => ({
      rate: num(t.RateApplicablePercent) ?? 0,
      net: num(t.BasisAmount) ?? 0,
      vat: num(t.CalculatedAmount) ?? 0,
    })),
    lines: [...lines, ...ciiAllowanceCharges(settlement)],
  };
  const set = <K extends keyof EInvoice>(k: K, v: EInvoice[K] | undefined) => {
    if (v !== undefined) inv[k] = v;
  };
  set('documentId', text(header?.ID));
  set('issueDate', isoDate(text(path(header?.IssueDateTime, 'DateTimeString'))));
  set('dueDate', isoDate(text(path(settlement?.SpecifiedTradePaymentTerms, 'DueDateDateTime', 'DateTimeString'))));
  set('currency', currency);
  const account = means.map((m) => obj(m.PayeePartyCreditorFinancialAccount)).find(Boolean);
  set('iban', text(account?.IBANID)?.replace(/\s/g, ''));
  set('bic', text(path(means.find((m) => m.PayeeSpecifiedCreditorFinancialInstitution), 'PayeeSpecifiedCreditorFinancialInstitution', 'BICID')));
  set('total', num(sums?.GrandTotalAmount) ?? num(sums?.DuePayableAmount));
  set('base', num(sums?.TaxBasisTotalAmount));
  set('tax', num(taxTotalEl));
  return isCreditNoteCode(text(header?.TypeCode)) ? asCreditNote(inv) : inv;
}

/** Which e-invoice syntax an XML text is, if any. */
export function eInvoiceSyntax(xml: string): 'UBL' | 'CII' | undefined {
  const head = xml.slice(0, 4000);
  if (/<(\w+:)?CrossIndustryInvoice[\s>]/.test(head)) return 'CII';
  if (/<(\w+:)?(Invoice|CreditNote)[\s>]/.test(head) && /urn:oasis:names:specification:ubl:schema:xsd:(Invoice|CreditNote)-2/.test(head)) return 'UBL';
  return undefined;
}

export function parseEInvoice(xml: string | Uint8Array): EInvoice {
  const s = typeof xml === 'string' ? xml : new TextDecoder('utf-8').decode(xml);
  const syntax = eInvoiceSyntax(s);
  if (!syntax) throw new Error('Not a UBL or Cross Industry Invoice XML');
  const root = parser.parse(s) as X;
  return syntax === 'UBL' ? parseUbl(root) : parseCii(root);
}

/**
 * The e-invoice as an Extraction. When the PDF's text layer is given, each value gets the box of
 * the words that print it; otherwise boxes are empty (page 1) and the confidence is 100.
 */
export function eInvoiceToExtraction(inv: EInvoice, doc?: OcrDocument): Extraction {
  const rows = doc ? documentRows(doc) : [];
  const locate = (value: string, printed: string[]): { page: number; box: Box } => {
    for (const p of printed) {
      const needle = p.toLowerCase().replace(/\s+/g, ' ');
      if (needle.length < 2) continue;
      for (const r of rows) {
        const i = r.text.toLowerCase().indexOf(needle);
        if (i < 0) continue;
        const words = r.words.filter((_, k) => r.spans[k]!.end > i && r.spans[k]!.start < i + needle.length);
        if (words.length) return { page: r.page, box: unionBoxes(words.map((w) => w.box)) };
      }
    }
    return { page: 1, box: { ...EMPTY_BOX } };
  };
  // A credit note's amount is looked up by its digits: the page may print it with a minus or without.
  const amountForms = (n: number) => {
    const s = Math.abs(n).toFixed(2);
    const [i, d] = s.split('.');
    const grouped = i!.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
    return [s, `${i},${d}`, `${grouped},${d}`, `${i!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${d}`];
  };
  const dateForms = (iso: string) => {
    const [y, m, d] = iso.split('-');
    return [iso, `${d}.${m}.${y}`, `${d}/${m}/${y}`, `${m}/${d}/${y}`, `${y}.${m}.${d}`, `${y}/${m}/${d}`];
  };
  const f = (value: string | undefined, printed: string[] = []): Found | undefined => {
    if (value === undefined || value === '') return undefined;
    const where = locate(value, [value, ...printed]);
    return { value, raw: value, page: where.page, box: where.box, confidence: 100 };
  };
  const amount = (n: number | undefined) => (n === undefined ? undefined : f(formatAmount(n), amountForms(n)));
  const fields: Partial<Record<HeaderFieldId, Found>> = {};
  const put = (id: HeaderFieldId, v: Found | undefined) => {
    if (v) fields[id] = v;
  };
  put('supplier_name', f(inv.supplier.name));
  put('supplier_code', f(inv.supplier.code));
  put('supplier_vat_id', f(inv.supplier.vatId));
  put('supplier_address', f(inv.supplier.address));
  put('customer_name', f(inv.customer.name));
  put('customer_code', f(inv.customer.code));
  put('customer_vat_id', f(inv.customer.vatId));
  put('document_id', f(inv.documentId));
  put('issue_date', inv.issueDate ? f(inv.issueDate, dateForms(inv.issueDate)) : undefined);
  put('due_date', inv.dueDate ? f(inv.dueDate, dateForms(inv.dueDate)) : undefined);
  put('currency', f(inv.currency));
  put('amount_total', amount(inv.total));
  put('amount_total_base', amount(inv.base));
  put('amount_tax', amount(inv.tax));
  put('iban', inv.iban ? f(inv.iban, [inv.iban.replace(/(.{4})/g, '$1 ').trim()]) : undefined);
  put('bic_swift', f(inv.bic));

  const vatLines: VatLine[] = inv.vatLines.map((l) => {
    const rate = f(String(l.rate), [`${l.rate}%`, `${l.rate} %`])!;
    const net = amount(l.net)!;
    const vat = amount(l.vat)!;
    const gross = amount(Math.round((l.net + l.vat) * 100) / 100)!;
    return { rate: l.rate, net: l.net, vat: l.vat, gross: Math.round((l.net + l.vat) * 100) / 100, found: { rate, net, vat, gross } };
  });
  const lineItems: LineItem[] = inv.lines.map((l) => {
    const item: LineItem = {};
    const s = (id: keyof LineItem, v: Found | undefined) => {
      if (v) item[id] = v;
    };
    s('item_number', f(l.itemNumber));
    s('product_code', f(l.productCode));
    s('description', f(l.description));
    s('quantity', l.quantity !== undefined ? f(String(l.quantity)) : undefined);
    s('unit_of_measurement', f(l.unit));
    s('unit_price_without_vat', amount(l.unitPriceNet));
    s('vat_rate', l.vatRate !== undefined ? f(String(l.vatRate)) : undefined);
    s('vat', amount(l.vat));
    s('price_per_unit', amount(l.pricePerUnit));
    s('total_price', amount(l.totalPrice));
    return item;
  });
  return { fields, vatLines, lineItems, checks: { ok: true, problems: [] }, reasons: [`${inv.syntax} XML`] };
}

/**
 * An e-invoice's XML as a recogniser's result, where no page of it was read (a file sent as XML, or one a PDF
 * carries that could not be opened): one empty page, the values without boxes.
 */
export function eInvoiceResult(xml: string | Uint8Array): AnalyzeExpenseResult {
  const doc: OcrDocument = { source: 'xml', pages: [{ page: 1, width: 1, height: 1, lines: [] }] };
  return toAnalyzeExpenseResult(doc, eInvoiceToExtraction(parseEInvoice(xml)));
}

/** A file sent as XML: read if it is a UBL or Cross Industry Invoice, refused otherwise. */
export function xmlFileResult(bytes: Uint8Array): AnalyzeExpenseResult {
  const xml = new TextDecoder('utf-8').decode(bytes);
  if (!eInvoiceSyntax(xml)) throw new UnsupportedDocumentError('XML that is neither UBL nor Cross Industry Invoice');
  return eInvoiceResult(xml);
}
