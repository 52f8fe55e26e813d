/**
 * Every file the product writes is well-formed: no character that XML 1.0 forbids (control characters but tab, LF
 * and CR; lone UTF-16 surrogates; U+FFFE, U+FFFF), whatever the stored values hold — values reach the exports from
 * recognition and master-data imports too, which no form checks.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { buildCsv } from '../../../lambdas/core/export/csv';
import { buildIsaf } from '../../../lambdas/core/export/isaf';
import { buildDocumentsXml } from '../../../lambdas/core/export/xml';
import { companySchema } from '../../../lambdas/core/content/schema';
import { buildNsoftCsv } from '../../../lambdas/core/integrations/nsoft';
import { buildRivileEip } from '../../../lambdas/core/integrations/rivile-eip';
import { hasForbiddenChars, isPlainText, stripForbiddenChars } from '../../../shared/text';
import { buildCsv as buildBrowserCsv } from '../../../web/src/features/export/lib/csv';
import { exportDoc } from '../integrations/fixtures';

/** XML 1.0 production [2] Char, negated: any match makes the document not well-formed. */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/** A strict check: only XML 1.0 characters, and well-formed markup. */
function expectWellFormed(xml: string): void {
  expect(NOT_XML_CHAR.exec(xml)?.[0]).toBeUndefined();
  expect(XMLValidator.validate(xml)).toBe(true);
}

const NUL = '\u0000';
const BS = '\u0008';
const LONE_HIGH = '\uD83D';
const LONE_LOW = '\uDE00';
/** Typed text the exports must keep as it is. */
const PLAIN = 'Ąžuolas ėčęįšųūž 😀 <UAB> & "Co" \'x\'';
const DIRTY = `Acme${NUL}${BS} <UAB> & "Co"${LONE_HIGH} Ąžuolas${LONE_LOW} 😀\u000B\u001F\uFFFE`;
const CLEAN = 'Acme <UAB> & "Co" Ąžuolas 😀';

const parser = new XMLParser({ ignoreAttributes: false, parseTagValue: false, processEntities: true });

const dirtyDoc = () =>
  exportDoc({
    fields: {
      document_id: `INV${NUL}1`,
      issue_date: '2026-02-01',
      supplier_name: DIRTY,
      supplier_code: `30${BS}2111111`,
      supplier_vat_id: 'LT100001111111',
      amount_total: '121.00',
      amount_tax: '21.00',
      amount_total_base: '100.00',
    },
    lineItems: [{ description: `Pieštukas${NUL}${LONE_LOW}`, product_code: `P${BS}1`, quantity: '1', total_price: '100.00', vat_rate: '21' }],
  });

describe('the shared helper', () => {
  it('drops the characters XML 1.0 forbids and keeps everything else', () => {
    expect(stripForbiddenChars(DIRTY)).toBe(CLEAN);
    expect(stripForbiddenChars(PLAIN)).toBe(PLAIN);
    expect(stripForbiddenChars('a\tb\nc\r\nd')).toBe('a\tb\nc\r\nd');
    // A reversed pair is two lone halves.
    expect(stripForbiddenChars(`${LONE_LOW}${LONE_HIGH}x`)).toBe('x');
    expect(hasForbiddenChars(DIRTY)).toBe(true);
    expect(hasForbiddenChars(PLAIN)).toBe(false);
    expect(NOT_XML_CHAR.test(stripForbiddenChars(DIRTY))).toBe(false);
  });

  it('tells typed text with control characters or lone surrogates', () => {
    expect(isPlainText(PLAIN)).toBe(true);
    expect(isPlainText(`a${NUL}`)).toBe(false);
    expect(isPlainText(`a${LONE_HIGH}`)).toBe(false);
    expect(isPlainText('a\tb')).toBe(false);
    expect(isPlainText('a\nb\r\tc', true)).toBe(true);
    expect(isPlainText(`a\n${BS}`, true)).toBe(false);
    expect(isPlainText('\u007F')).toBe(true);
  });
});

describe('XML exports with control characters and lone surrogates in the values', () => {
  it("the product's XML is well-formed and keeps the rest of the value", () => {
    const doc = { ...dirtyDoc(), notes: `Note${NUL}`, category: `Cat${BS}`, original_file_name: `a${LONE_HIGH}.pdf` };
    const xml = buildDocumentsXml([doc], companySchema(), new Date('2026-03-01T08:00:00Z'));
    expectWellFormed(xml);
    const parsed = parser.parse(xml).Documents.Document;
    expect(parsed.Notes).toBe('Note');
    expect(parsed.Category).toBe('Cat');
    expect(parsed.FileName).toBe('a.pdf');
    const fields = parsed.Fields.Field as { '@_id': string; '#text'?: string }[];
    expect(fields.find((f) => f['@_id'] === 'supplier_name')?.['#text']).toBe(CLEAN);
    expect(fields.find((f) => f['@_id'] === 'document_id')?.['#text']).toBe('INV1');
  });

  it('plain text (Lithuanian letters, emoji, quotes, & < >) goes out unchanged', () => {
    const xml = buildDocumentsXml([exportDoc({ fields: { supplier_name: PLAIN } })], companySchema(), new Date('2026-03-01T08:00:00Z'));
    expectWellFormed(xml);
    const fields = parser.parse(xml).Documents.Document.Fields.Field as { '@_id': string; '#text'?: string }[];
    expect(fields.find((f) => f['@_id'] === 'supplier_name')?.['#text']).toBe(PLAIN);
  });

  it('i.SAF is well-formed; a name of control characters only is ND; a number cut inside an emoji loses the half', () => {
    const options = { registrationNumber: '304999999', createdAt: new Date('2026-03-01T08:00:00Z'), software: { company: 'Receipts Capture', name: 'Receipts Capture', version: '0.1.0' } };
    const xml = buildIsaf([dirtyDoc()], options);
    expectWellFormed(xml);
    const file = parser.parse(xml).iSAFFile;
    const invoice = file.SourceDocuments.PurchaseInvoices.Invoice;
    expect(invoice.InvoiceNo).toBe('INV1');
    expect(invoice.SupplierInfo.Name).toBe(CLEAN);
    expect(file.MasterFiles.Suppliers.Supplier.SupplierID).toBe('302111111');

    const onlyControls = exportDoc({ fields: { document_id: 'A'.repeat(69) + '😀', issue_date: '2026-02-01', supplier_name: `${NUL}${BS}`, amount_total: '121.00', amount_tax: '21.00' } });
    const xml2 = buildIsaf([onlyControls], options);
    expectWellFormed(xml2);
    const invoice2 = parser.parse(xml2).iSAFFile.SourceDocuments.PurchaseInvoices.Invoice;
    expect(invoice2.SupplierInfo.Name).toBe('ND');
    expect(invoice2.InvoiceNo).toBe('A'.repeat(69));
  });

  it("Rivile's EIP file is well-formed", () => {
    const eip = buildRivileEip([dirtyDoc()]);
    expect(NOT_XML_CHAR.exec(eip)?.[0]).toBeUndefined();
    expectWellFormed(`<root>${eip}</root>`);
    expect(eip).toContain('Acme &lt;UAB&gt; &amp;');
  });
});

describe('CSV exports with control characters in the values', () => {
  it('the CSV export and the NSOFT file leave them out', () => {
    const csv = buildCsv([{ ...dirtyDoc(), notes: `a${NUL}b\tc` }], [{ key: 'supplier', title: 'Supplier' }, { key: 'notes', title: 'Notes' }]);
    expect(NOT_XML_CHAR.exec(csv)?.[0]).toBeUndefined();
    expect(csv).toContain('ab\tc');
    const nsoft = buildNsoftCsv(dirtyDoc());
    expect(NOT_XML_CHAR.exec(nsoft)?.[0]).toBeUndefined();
    expect(nsoft).toContain('"Acme <UAB> & ""Co"" Ąžuolas 😀"');
  });

  it("the browser's CSV leaves them out too, plain text unchanged", () => {
    const csv = buildBrowserCsv({ headers: ['SUPPLIER', 'NOTES'], rows: [[DIRTY, PLAIN]] }, 'semicolon');
    expect(NOT_XML_CHAR.exec(csv)?.[0]).toBeUndefined();
    expect(csv).toContain(CLEAN.replace(/"/g, '""'));
    expect(csv).toContain(PLAIN.replace(/"/g, '""'));
  });
});
