/**
 * i.SAF 1.2: the Lithuanian register of VAT invoices (VMI's "i.SAF duomenų rinkmenos XML struktūros
 * aprašas", FileVersion iSAF1.2, namespace http://www.vmi.lt/cms/imas/isaf). Costs (receipts) go to
 * PurchaseInvoices, sales invoices to SalesInvoices; each invoice's DocumentTotals has one DocumentTotal
 * per VAT rate (TaxableValue, TaxCode, TaxPercentage, Amount).
 *
 * TaxCode comes from VMI's VAT classifier, chosen by the rate and the document (invoice) date:
 * - PVM1: 21 % (standard rate, PVMĮ 19 str. 1 d.)
 * - PVM2: 9 % (reduced rate; abolished on 2026-01-01, kept for documents dated before it and for 2026
 *   documents that still show 9 %, e.g. advances paid in 2025)
 * - PVM3: 5 % (reduced rate)
 * - PVM49: 6 % (compensatory rate of farmers)
 * - PVM58: 12 % (reduced rate in force since 2026-01-01; see docs/decisions.md for the source)
 * A rate with no code for the date (12 % before 2026, 0 %, others) gets an empty TaxCode (xsi:nil), which
 * the schema allows, so the bookkeeper chooses the code.
 *
 * i.SAF amounts are EUR: a document in another currency is refused (a document without one counts as EUR). An
 * invoice is reported on its issue date: a document without one is refused too (not reported on its upload date), and
 * so is one whose VAT lines, which its totals by rate come from, do not add up to its Tax total or Total.
 * Names and codes are clipped to the lengths of the XSD (ISAF_MAX).
 *
 * Characters that XML 1.0 forbids (control characters, lone surrogates) are left out: of the values before an empty
 * one becomes ND, and of the whole file (shared/text.ts).
 */
import { XMLBuilder } from 'fast-xml-parser';
import { currencyCode } from '../../../shared/currency';
import { refuseDocuments, refuseVatLinesOff, verb } from './refusals';
import { stripForbiddenChars } from '../../../shared/text';
import { stakeholderKind } from '../content/schema';
import { rowsOf, valueOf } from '../content/tree';
import type { ExportDocument } from './fields';
import { partiesByCode, partyCountry } from './parties';

export const ISAF_NAMESPACE = 'http://www.vmi.lt/cms/imas/isaf';
export const RATE_12_FROM = '2026-01-01';

export function isafTaxCode(rate: number, date: string): string | null {
  const r = Math.round(rate * 100) / 100;
  const from2026 = date >= RATE_12_FROM;
  if (r === 21) return 'PVM1';
  if (r === 9) return 'PVM2';
  if (r === 5) return 'PVM3';
  if (r === 6) return 'PVM49';
  if (r === 12) return from2026 ? 'PVM58' : null;
  return null;
}

/**
 * The rates a document of the date may show, to read a rate from tax / base when it has no VAT lines: those in
 * force on the date, and from 2026 also 9 %, which 2026 documents still show (e.g. advances paid in 2025) and
 * which keeps PVM2.
 */
export function ratesOn(date: string): number[] {
  return date >= RATE_12_FROM ? [21, 12, 9, 5, 0] : [21, 9, 5, 0];
}

/**
 * The rate of tax / base among the rates of the date. By magnitude: a credit note (negative base and tax)
 * has the rate of the invoice it corrects.
 */
function rateOfAmounts(tax: number, base: number, date: string): number | undefined {
  const exact = Math.abs(tax / base) * 100;
  return ratesOn(date).find((r) => Math.abs(r - exact) < 0.6);
}

export interface IsafTotal {
  taxableValue: string;
  taxCode: string | null;
  taxPercentage: string | null;
  amount: string | null;
}

const money = (v: number) => (Math.round(v * 100) / 100).toFixed(2);
const num = (s: string) => {
  const n = Number(s);
  return s.trim() !== '' && Number.isFinite(n) ? n : undefined;
};

function percentage(rate: number): string {
  return Number.isInteger(rate) ? String(rate) : rate.toFixed(2);
}

/** One DocumentTotal per VAT rate: from the VAT lines, else from the subtotal and the tax total. */
export function documentTotals(doc: ExportDocument, date: string): IsafTotal[] {
  const byRate = new Map<string, { base: number; tax: number; rate: number | undefined }>();
  for (const line of rowsOf(doc.content, 'vat_lines')) {
    const rate = num(line.vat_line_rate ?? '');
    let base = num(line.vat_line_base ?? '');
    const tax = num(line.vat_line_tax ?? '');
    const gross = num(line.vat_line_total ?? '');
    if (base === undefined && gross !== undefined && tax !== undefined) base = gross - tax;
    if (base === undefined && tax !== undefined && rate) base = tax / (rate / 100);
    if (base === undefined && tax === undefined) continue;
    const key = rate === undefined ? '?' : String(rate);
    const t = byRate.get(key) ?? { base: 0, tax: 0, rate };
    t.base += base ?? 0;
    t.tax += tax ?? (rate !== undefined && base !== undefined ? (base * rate) / 100 : 0);
    byRate.set(key, t);
  }
  if (!byRate.size) {
    const total = num(valueOf(doc.content, 'amount_total'));
    const tax = num(valueOf(doc.content, 'amount_tax'));
    let base = num(valueOf(doc.content, 'amount_total_base'));
    if (base === undefined && total !== undefined) base = total - (tax ?? 0);
    if (base !== undefined) {
      let rate: number | undefined;
      if (tax === 0) rate = 0;
      else if (tax !== undefined && base !== 0) rate = rateOfAmounts(tax, base, date);
      byRate.set(String(rate ?? '?'), { base, tax: tax ?? 0, rate });
    }
  }
  return [...byRate.values()].map((t) => ({
    taxableValue: money(t.base),
    taxCode: t.rate === undefined ? null : isafTaxCode(t.rate, date),
    taxPercentage: t.rate === undefined ? null : percentage(t.rate),
    amount: money(t.tax),
  }));
}

export interface IsafOptions {
  /** The reporting company's registration (company) code: digits only, at most 11. */
  registrationNumber: string;
  createdAt: Date;
  software: { company: string; name: string; version: string };
  /** Defaults: the earliest and latest invoice date. */
  period?: { start: string; end: string };
}

const nil = { '@_xsi:nil': 'true' };
const orNil = (v: string | null | undefined) => (v === null || v === undefined || v === '' ? nil : v);
const nd = (v: string) => stripForbiddenChars(v).trim() || 'ND';


/**
 * The lengths the XSD allows (types of VMI's schema as in pyisaf's isaf_schema/v1_2/types.py): Name is
 * ISAFlongtextType (256), VATRegistrationNumber and RegistrationNumber ISAFmiddle1textType (35), SupplierID and
 * CustomerID ISAFmiddle2textType (70). A longer value (a name read with its address lines) fails VMI's schema check
 * and with it the whole register, so it is clipped, counting characters (code points) as XML does.
 */
export const ISAF_MAX = { name: 256, vat: 35, registration: 35, id: 70 } as const;
const clip = (s: string, max: number) => [...s].slice(0, max).join('');

function party(doc: ExportDocument) {
  const kind = stakeholderKind(doc.receipt_type);
  const value = (id: string) => stripForbiddenChars(valueOf(doc.content, id));
  const vat = value(`${kind}_vat_id`).replace(/\s+/g, '');
  const code = value(`${kind}_code`).trim();
  return {
    id: clip(code, ISAF_MAX.id),
    vat: clip(nd(vat), ISAF_MAX.vat),
    registration: clip(code, ISAF_MAX.registration) || (vat ? '' : 'ND'),
    country: partyCountry(vat, value(`${kind}_country`), value(`${kind}_zipcode`)),
    name: clip(nd(value(`${kind}_name`)), ISAF_MAX.name),
  };
}


/** A document without a currency counts as EUR; `eur` and `€` as typed are EUR too. */
function inEuro(doc: ExportDocument): boolean {
  return currencyCode(valueOf(doc.content, 'currency')) === 'EUR';
}

/**
 * i.SAF amounts are EUR and the file has no currency to say otherwise: a document in another currency would be
 * reported with its foreign amounts as euros, so the file is refused (422) naming those documents.
 */
export function refuseOtherCurrencies(docs: ExportDocument[]): void {
  refuseDocuments(docs, {
    lacks: (d) => !inEuro(d),
    message: (names, count) => `i.SAF amounts are in EUR: ${names} ${verb(count, 'is', 'are')} in another currency`,
    field: () => 'currency',
    detail: (d) => `The currency is ${valueOf(d.content, 'currency').trim()}`,
  });
}

function invoiceDate(doc: ExportDocument): string {
  return valueOf(doc.content, 'issue_date').trim();
}

/**
 * An invoice is reported in the VAT period of its issue date, and the file's period runs from the first to the last
 * one: a document without one (its date not read) would be reported on no date of its own, so the file is refused
 * (422) naming those documents, as NSOFT and Rivile refuse them.
 */
export function refuseMissingIssueDates(docs: ExportDocument[]): void {
  refuseDocuments(docs, {
    lacks: (d) => !invoiceDate(d),
    message: (names, count) => `i.SAF needs an issue date: ${names} ${verb(count, 'has', 'have')} no issue date`,
    field: () => 'issue_date',
    detail: () => 'The document has no issue date',
  });
}

function invoiceNode(doc: ExportDocument) {
  const date = invoiceDate(doc);
  const p = party(doc);
  const sales = doc.receipt_type === 'invoice';
  const info = {
    [sales ? 'CustomerID' : 'SupplierID']: p.id,
    VATRegistrationNumber: p.vat,
    RegistrationNumber: p.registration,
    Country: orNil(p.country),
    Name: p.name,
  };
  const totals = documentTotals(doc, date).map((t) => {
    const total: Record<string, unknown> = {
      TaxableValue: t.taxableValue,
      TaxCode: orNil(t.taxCode),
      TaxPercentage: orNil(t.taxPercentage),
      Amount: orNil(t.amount),
    };
    if (sales) total.VATPointDate2 = nil;
    return total;
  });
  const invoice: Record<string, unknown> = {
    InvoiceNo: nd(valueOf(doc.content, 'document_id')).slice(0, 70),
    [sales ? 'CustomerInfo' : 'SupplierInfo']: info,
    InvoiceDate: date,
    InvoiceType: valueOf(doc.content, 'document_category') || 'SF',
    SpecialTaxation: '',
    References: '',
    VATPointDate: nil,
  };
  if (!sales) invoice.RegistrationAccountDate = nil;
  invoice.DocumentTotals = { DocumentTotal: totals };
  return invoice;
}

/** The i.SAF XML of the documents: DataType P (only costs), S (only sales) or F (both). */
export function buildIsaf(docs: ExportDocument[], opts: IsafOptions): string {
  refuseOtherCurrencies(docs);
  refuseMissingIssueDates(docs);
  refuseVatLinesOff(docs, 'i.SAF');
  const purchases = docs.filter((d) => d.receipt_type !== 'invoice');
  const sales = docs.filter((d) => d.receipt_type === 'invoice');
  const dates = docs.map(invoiceDate).sort();
  const start = opts.period?.start ?? dates[0] ?? opts.createdAt.toISOString().slice(0, 10);
  const end = opts.period?.end ?? dates[dates.length - 1] ?? start;
  const clampStart = start < '2016-07-01' ? '2016-07-01' : start;
  const dataType = purchases.length && sales.length ? 'F' : sales.length ? 'S' : 'P';

  // one entry per code, each field the newest document's that gives it ('ND' and nil are none)
  const masterOf = (idField: 'CustomerID' | 'SupplierID') => (d: ExportDocument) => {
    const p = party(d);
    if (!p.id) return null;
    return { code: p.id, record: { [idField]: p.id, VATRegistrationNumber: p.vat, RegistrationNumber: p.registration, Country: orNil(p.country), Name: p.name } };
  };
  const given = (v: unknown) => v !== 'ND' && v !== '' && v !== null && typeof v !== 'object';
  const customers = partiesByCode(sales, masterOf('CustomerID'), given);
  const suppliers = partiesByCode(purchases, masterOf('SupplierID'), given);
  const masterFiles: Record<string, unknown> = {};
  if (customers.size) masterFiles.Customers = { Customer: [...customers.values()] };
  if (suppliers.size) masterFiles.Suppliers = { Supplier: [...suppliers.values()] };

  const sourceDocuments: Record<string, unknown> = {};
  if (purchases.length) sourceDocuments.PurchaseInvoices = { Invoice: purchases.map(invoiceNode) };
  if (sales.length) sourceDocuments.SalesInvoices = { Invoice: sales.map(invoiceNode) };

  const tree = {
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    iSAFFile: {
      '@_xmlns': ISAF_NAMESPACE,
      '@_xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
      Header: {
        FileDescription: {
          FileVersion: 'iSAF1.2',
          FileDateCreated: opts.createdAt.toISOString().slice(0, 19),
          DataType: dataType,
          SoftwareCompanyName: opts.software.company.slice(0, 256),
          SoftwareName: opts.software.name.slice(0, 256),
          SoftwareVersion: opts.software.version.slice(0, 24),
          RegistrationNumber: opts.registrationNumber.replace(/\D/g, '').slice(0, 11),
          NumberOfParts: '1',
          PartNumber: '1',
          SelectionCriteria: { SelectionStartDate: clampStart, SelectionEndDate: end < clampStart ? clampStart : end },
        },
      },
      MasterFiles: masterFiles,
      SourceDocuments: sourceDocuments,
    },
  };
  const builder = new XMLBuilder({ ignoreAttributes: false, format: true, suppressBooleanAttributes: false, suppressEmptyNode: false });
  return stripForbiddenChars(builder.build(tree) as string);
}
