/**
 * The office text reader (lambdas/core/recognition/office): the generated invoices in every format give
 * the same header fields as the born-digital PDF, and the reader's rules (reading order, tables on one line,
 * number formats, RTF decoding, refusals) on small documents built here.
 */
import { strToU8, zipSync } from 'fflate';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalRecogniser } from '../../../lambdas/adapters/local-recogniser';
import { officeWords, recogniseOffice } from '../../../lambdas/adapters/local-recogniser/office';
import { toAnalyzeExpenseResult } from '../../../lambdas/core/recognition/expense';
import { extractDocument } from '../../../lambdas/core/recognition/extract';
import { documentRows } from '../../../lambdas/core/recognition/extract/rows';
import { UNSUPPORTED_MESSAGE, UnsupportedDocumentError } from '../../../lambdas/core/recognition/file-type';
import { mapExpenseToFields } from '../../../lambdas/core/recognition/map-fields';
import { OFFICE_MSG, readOfficeDocument } from '../../../lambdas/core/recognition/office';
import { formatCell } from '../../../lambdas/core/recognition/office/xlsx';
import { BadZip, openZip, ZIP_LIMITS } from '../../../lambdas/core/recognition/office/zip';
import type { ExtractedFields, OcrDocument } from '../../../lambdas/core/recognition/types';
import { expectedHeader, INVOICE_EN, INVOICE_LT, lineNet, OFFICE_FORMATS, officeFile, vatBreakdown, type InvoiceData, type OfficeFixtureFormat } from '../../fixtures/recognition/data';
import { wordDoc } from '../../fixtures/recognition/generate-office';

const dir = join(import.meta.dirname, '../../fixtures/recognition');
const fixture = (file: string) => new Uint8Array(readFileSync(join(dir, file)));

function fieldsOf(doc: OcrDocument): ExtractedFields {
  return mapExpenseToFields(toAnalyzeExpenseResult(doc, extractDocument(doc)));
}


function header(fields: ExtractedFields): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => !Array.isArray(v)).map(([k, v]) => [k, (v as { value: string }).value]));
}

/** The rows of the first page as the extraction sees them: cells joined by " | ". */
function rowsOf(doc: OcrDocument): string[] {
  return documentRows(doc).map((r) => r.cells.map((c) => c.text).join(' | '));
}

async function refusal(p: Promise<unknown>): Promise<{ message: string; detail?: string }> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UnsupportedDocumentError);
  const e = error as UnsupportedDocumentError;
  return { message: e.message, detail: (e.details as { detail?: string } | undefined)?.detail };
}

const CASES: { file: string; inv: InvoiceData }[] = [
  ...[INVOICE_EN, INVOICE_LT].flatMap((inv) => OFFICE_FORMATS.map((f: OfficeFixtureFormat) => ({ file: officeFile(inv, f), inv }))),
  { file: officeFile(INVOICE_EN, 'doc'), inv: INVOICE_EN },
];

describe.each(CASES)('office invoice $file', ({ file, inv }) => {
  it('reads every header field', async () => {
    const doc = await readOfficeDocument(fixture(file), file);
    expect(doc.source).toBe('office');
    expect(header(fieldsOf(doc))).toEqual(expectedHeader(inv));
  });

  it('reads the VAT lines and the line items', async () => {
    const fields = fieldsOf(await readOfficeDocument(fixture(file), file));
    expect(fields.vat_lines.map((l) => [l.vat_rate?.value, l.amount_net?.value, l.amount_vat?.value, l.amount_gross?.value])).toEqual(
      vatBreakdown(inv).map((b) => [String(b.rate), b.net.toFixed(2), b.vat.toFixed(2), b.gross.toFixed(2)]),
    );
    expect(fields.line_items.map((li) => [li.product_code?.value, li.quantity?.value, li.total_price?.value])).toEqual(inv.lines.map((l) => [l.code, String(l.quantity), lineNet(l).toFixed(2)]));
  });

  it('gives every word a box inside page 1 and confidence 99', async () => {
    const doc = await readOfficeDocument(fixture(file), file);
    expect(doc.pages).toHaveLength(1);
    const words = doc.pages[0]!.lines.flatMap((l) => l.words);
    expect(words.length).toBeGreaterThan(50);
    for (const w of words) {
      expect(w.page).toBe(1);
      expect(w.confidence).toBe(99);
      expect(w.box.left).toBeGreaterThanOrEqual(0);
      expect(w.box.top).toBeGreaterThanOrEqual(0);
      expect(w.box.left + w.box.width).toBeLessThanOrEqual(1);
      expect(w.box.top + w.box.height).toBeLessThanOrEqual(1);
    }
    const fields = fieldsOf(doc);
    // Reading order is kept: the number above the parties, the parties above the total.
    expect(fields.document_id!.box.top).toBeLessThan(fields.supplier_vat_id!.box.top);
    expect(fields.supplier_vat_id!.box.top).toBeLessThan(fields.amount_total!.box.top);
  });
});

/** A docx holding only the given body XML (and optional header/footer parts). */
function docx(body: string, parts: Record<string, string> = {}, rels = ''): Uint8Array {
  const ns = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
  return zipSync({
    'word/document.xml': strToU8(`<?xml version="1.0" encoding="UTF-8"?><w:document ${ns}><w:body>${body}</w:body></w:document>`),
    'word/_rels/document.xml.rels': strToU8(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels}</Relationships>`),
    ...Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, strToU8(v.replace('NS', ns))])),
  });
}
const p = (text: string) => `<w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
const tc = (...paras: string[]) => `<w:tc>${paras.map(p).join('')}</w:tc>`;

describe('Word (docx)', () => {
  it('puts the cells of a table row on one line, left to right, as separate cells', async () => {
    const doc = await readOfficeDocument(docx(`${p('Thanks')}<w:tbl><w:tr>${tc('Total')}${tc('121.00')}</w:tr><w:tr>${tc('VAT 21%')}${tc('21.00')}</w:tr></w:tbl>`), 'a.docx');
    expect(rowsOf(doc)).toEqual(['Thanks', 'Total | 121.00', 'VAT 21% | 21.00']);
    const [label, amount] = doc.pages[0]!.lines[1]!.words;
    expect(label!.box.top).toBe(amount!.box.top);
    expect(label!.box.left).toBeLessThan(amount!.box.left);
  });

  it('keeps the paragraphs of side-by-side cells in their columns, and columns aligned across rows', async () => {
    const doc = await readOfficeDocument(
      docx(`<w:tbl><w:tr>${tc('Seller:', 'ACME UAB')}${tc('Buyer:', 'Beta MB', 'Vilnius')}</w:tr><w:tr>${tc('x')}${tc('y')}</w:tr></w:tbl>`),
      'a.docx',
    );
    expect(rowsOf(doc)).toEqual(['Seller: | Buyer:', 'ACME UAB | Beta MB', 'Vilnius', 'x | y']);
    const lines = doc.pages[0]!.lines;
    expect(lines[2]!.words[0]!.box.left).toBe(lines[0]!.words[1]!.box.left);
    expect(lines[3]!.words[1]!.box.left).toBe(lines[0]!.words[1]!.box.left);
  });

  it('reads runs, tabs and breaks; leaves out deleted text, field codes and the even-page header', async () => {
    const body = [
      '<w:p><w:r><w:t>Invoice </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>No:</w:t></w:r><w:r><w:tab/><w:t>A-7</w:t></w:r></w:p>',
      '<w:p><w:r><w:t>Line one</w:t><w:br/><w:t>Line two</w:t></w:r></w:p>',
      '<w:p><w:del w:id="1" w:author="x"><w:r><w:delText>Total 999.00</w:delText></w:r></w:del><w:ins w:id="2" w:author="x"><w:r><w:t>Total 10.00</w:t></w:r></w:ins></w:p>',
      '<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> DATE \\@ "yyyy" </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>2024</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>',
      '<w:sectPr><w:headerReference w:type="even" r:id="rEven"/><w:headerReference w:type="default" r:id="rHead"/><w:footerReference w:type="default" r:id="rFoot"/></w:sectPr>',
    ].join('');
    const rels =
      '<Relationship Id="rHead" Target="header1.xml"/><Relationship Id="rEven" Target="header2.xml"/><Relationship Id="rFoot" Target="footer1.xml"/>';
    const doc = await readOfficeDocument(
      docx(
        body,
        {
          'word/header1.xml': `<w:hdr NS>${p('ACME UAB')}</w:hdr>`,
          'word/header2.xml': `<w:hdr NS>${p('EVEN PAGES')}</w:hdr>`,
          'word/footer1.xml': `<w:ftr NS>${p('Page footer')}</w:ftr>`,
        },
        rels,
      ),
      'a.docx',
    );
    expect(rowsOf(doc)).toEqual(['ACME UAB', 'Invoice No: | A-7', 'Line one', 'Line two', 'Total 10.00', '2024', 'Page footer']);
  });

  it('reads text boxes once, after their paragraph', async () => {
    const box = `<w:r><mc:AlternateContent xmlns:mc="x"><mc:Choice Requires="wps"><w:drawing><wp:anchor><a:graphic><a:graphicData><wps:wsp><wps:txbx><w:txbxContent>${p('In the box')}</w:txbxContent></wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice><mc:Fallback><w:pict><v:shape><v:textbox><w:txbxContent>${p('In the box')}</w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r>`;
    const doc = await readOfficeDocument(docx(`<w:p><w:r><w:t>Before</w:t></w:r>${box}</w:p>${p('After')}`), 'a.docx');
    expect(rowsOf(doc)).toEqual(['Before', 'In the box', 'After']);
  });
});

/** An xlsx of one or more sheets: [name, sheetData XML, state?]. */
function xlsx(sheets: [string, string, string?][], opts: { strings?: string[]; styles?: string; date1904?: boolean } = {}): Uint8Array {
  const files: Record<string, Uint8Array> = {
    'xl/workbook.xml': strToU8(
      `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">${opts.date1904 ? '<workbookPr date1904="1"/>' : ''}<sheets>${sheets.map(([name, , state], i) => `<sheet name="${name}" sheetId="${i + 1}" r:id="rId${i + 1}"${state ? ` state="${state}"` : ''}/>`).join('')}</sheets></workbook>`,
    ),
    'xl/_rels/workbook.xml.rels': strToU8(
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${sheets.map((_, i) => `<Relationship Id="rId${i + 1}" Target="worksheets/sheet${i + 1}.xml"/>`).join('')}</Relationships>`,
    ),
  };
  sheets.forEach(([, data], i) => (files[`xl/worksheets/sheet${i + 1}.xml`] = strToU8(`<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${data}</sheetData></worksheet>`)));
  if (opts.strings) files['xl/sharedStrings.xml'] = strToU8(`<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${opts.strings.map((s) => `<si><t>${s}</t></si>`).join('')}</sst>`);
  if (opts.styles) files['xl/styles.xml'] = strToU8(`<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${opts.styles}</styleSheet>`);
  return zipSync(files);
}

describe('Excel (xlsx)', () => {
  const styles =
    '<numFmts><numFmt numFmtId="164" formatCode="dd.mm.yyyy"/><numFmt numFmtId="165" formatCode="#,##0.00\\ &quot;EUR&quot;"/></numFmts><cellXfs><xf numFmtId="0"/><xf numFmtId="4"/><xf numFmtId="14"/><xf numFmtId="164"/><xf numFmtId="165"/><xf numFmtId="10"/></cellXfs>';

  it('shows numbers with their number formats: amounts, built-in and custom dates, percentages', async () => {
    const data =
      '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" s="1"><v>1234.5</v></c></row>' +
      '<row r="2"><c r="A2" t="s"><v>1</v></c><c r="B2" s="2"><v>45366</v></c><c r="C2" s="3"><v>45366</v></c></row>' +
      '<row r="3"><c r="A3" t="inlineStr"><is><t>Total</t></is></c><c r="B3" s="4"><v>99</v></c><c r="C3" s="5"><v>0.21</v></c><c r="D3"><v>7</v></c></row>';
    const doc = await readOfficeDocument(xlsx([['S', data]], { strings: ['Subtotal', 'Date'], styles }), 'a.xlsx');
    expect(rowsOf(doc)).toEqual(['Subtotal | 1,234.50', 'Date | 2024-03-15 | 15.03.2024', 'Total | 99.00 EUR | 21.00% | 7']);
  });

  it('places cells by their column: empty columns take no room, a long text flows over empty cells', async () => {
    const data =
      '<row r="1"><c r="A1" t="inlineStr"><is><t>Northwind Office Supplies Ltd, 12 Harbour Street</t></is></c></row>' +
      '<row r="3"><c r="A3" t="inlineStr"><is><t>No.</t></is></c><c r="D3" t="inlineStr"><is><t>Amount</t></is></c></row>' +
      '<row r="4"><c r="A4"><v>1</v></c><c r="D4"><v>43.5</v></c></row>';
    const doc = await readOfficeDocument(xlsx([['S', data]]), 'a.xlsx');
    expect(rowsOf(doc)).toEqual(['Northwind Office Supplies Ltd, 12 Harbour Street', 'No. | Amount', '1 | 43.5']);
    const [head, row] = [doc.pages[0]!.lines[1]!, doc.pages[0]!.lines[2]!];
    expect(row.words[1]!.box.left).toBe(head.words[1]!.box.left);
    // Columns B and C are empty: "Amount" sits right after "No." and its gap, not three columns away.
    expect(head.words[1]!.box.left - head.words[0]!.box.left).toBeLessThan(0.1);
  });

  it('makes each visible sheet a page and leaves hidden sheets out', async () => {
    const row = (t: string) => `<row r="1"><c r="A1" t="inlineStr"><is><t>${t}</t></is></c></row>`;
    const doc = await readOfficeDocument(
      xlsx([
        ['One', row('first sheet')],
        ['Secret', row('hidden sheet'), 'hidden'],
        ['Empty', ''],
        ['Two', row('second sheet')],
      ]),
      'a.xlsx',
    );
    expect(doc.pages.map((pg) => pg.lines.map((l) => l.text))).toEqual([['first sheet'], ['second sheet']]);
    expect(doc.pages.map((pg) => pg.page)).toEqual([1, 2]);
  });

  it('reads dates of the 1904 date system', () => {
    expect(formatCell(43904, 'yyyy-mm-dd', true)).toBe('2024-03-15');
    expect(formatCell(45366, 'yyyy-mm-dd')).toBe('2024-03-15');
  });
});

/** An OpenDocument spreadsheet or text with the given office:body content. */
function odf(kind: 'spreadsheet' | 'text', body: string, extra: Record<string, string> = {}): Uint8Array {
  const ns =
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"';
  return zipSync({
    mimetype: [strToU8(`application/vnd.oasis.opendocument.${kind}`), { level: 0 }],
    'content.xml': strToU8(`<office:document-content ${ns}>${body.includes('<office:body>') ? body : `<office:body><office:${kind}>${body}</office:${kind}></office:body>`}</office:document-content>`),
    ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, strToU8(v)])),
  });
}

describe('OpenDocument (odt, ods)', () => {
  it('expands repeated cells and rows only where they hold text, and leaves hidden sheets out', async () => {
    const cell = (t: string, attrs = '') => `<table:table-cell${attrs}><text:p>${t}</text:p></table:table-cell>`;
    const body =
      '<office:automatic-styles><style:style style:name="ta2" style:family="table"><style:table-properties table:display="false"/></style:style></office:automatic-styles>' +
      '<office:body><office:spreadsheet>' +
      `<table:table table:name="A"><table:table-row>${cell('Total')}<table:table-cell table:number-columns-repeated="2"/>${cell('121.00')}<table:table-cell table:number-columns-repeated="16380"/></table:table-row>` +
      `<table:table-row table:number-rows-repeated="2">${cell('x', ' table:number-columns-repeated="2"')}</table:table-row>` +
      '<table:table-row table:number-rows-repeated="1048000"><table:table-cell table:number-columns-repeated="16384"/></table:table-row></table:table>' +
      `<table:table table:name="B" table:style-name="ta2"><table:table-row>${cell('hidden')}</table:table-row></table:table>` +
      '</office:spreadsheet></office:body>';
    const doc = await readOfficeDocument(odf('spreadsheet', body), 'a.ods');
    expect(doc.pages).toHaveLength(1);
    expect(rowsOf(doc)).toEqual(['Total | 121.00', 'x | x', 'x | x']);
  });

  it('reads spaces, tabs, line breaks, spans, lists and tables of a text document; notes and comments are left out', async () => {
    const body =
      '<text:h>Invoice</text:h><text:p>No:<text:tab/>A-7<text:s text:c="3"/><text:span>(copy)</text:span></text:p>' +
      '<text:p>First<text:line-break/>Second<text:note><text:note-body><text:p>a footnote</text:p></text:note-body></text:note><office:annotation><text:p>a comment</text:p></office:annotation></text:p>' +
      '<text:list><text:list-item><text:p>Item one</text:p></text:list-item></text:list>' +
      '<table:table><table:table-row><table:table-cell><text:p>Total</text:p></table:table-cell><table:covered-table-cell/><table:table-cell><text:p>5.00</text:p></table:table-cell></table:table-row></table:table>';
    const doc = await readOfficeDocument(odf('text', body), 'a.odt');
    expect(doc.pages[0]!.lines.map((l) => l.text)).toEqual(['Invoice', 'No: A-7 (copy)', 'First', 'Second', 'Item one', 'Total 5.00']);
    expect(rowsOf(doc)).toContain('Total | 5.00');
  });
});

/** RTF bytes from a latin1 string (the format is 7-bit; \'hh escapes carry the code page bytes). */
const rtf = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'));

describe('RTF', () => {
  it('decodes code page bytes by the font charset, \\u escapes with their fallback skipped', async () => {
    const doc = await readOfficeDocument(
      rtf(
        "{\\rtf1\\ansi\\ansicpg1252\\deff0{\\fonttbl{\\f0\\fcharset0 Arial;}{\\f1\\fcharset186 Arial Baltic;}}\\f1 Pardav\\'ebjas \\'e0\\'e8\\par\\f0 Caf\\'e9 \\u8364\\'80 \\uc2\\u382\\'3f\\'3f.\\par}",
      ),
      'a.rtf',
    );
    expect(doc.pages[0]!.lines.map((l) => l.text)).toEqual(['Pardavėjas ąč', 'Café € ž.']);
  });

  it('skips font tables, style sheets, document info, field instructions and unknown destinations', async () => {
    const doc = await readOfficeDocument(
      rtf(
        '{\\rtf1\\ansi{\\fonttbl{\\f0 Arial;}}{\\colortbl;\\red0\\green0\\blue0;}{\\stylesheet{\\s0 Normal;}}{\\info{\\title Secret title}}{\\*\\generator Writer;}{\\*\\unknowndest junk}' +
          'Date: {\\field{\\*\\fldinst DATE \\\\@ "yyyy"}{\\fldrslt 2024-03-05}}\\par Price \\{net\\} 5\\\\6\\tab 7\\par}',
      ),
      'a.rtf',
    );
    expect(doc.pages[0]!.lines.map((l) => l.text)).toEqual(['Date: 2024-03-05', 'Price {net} 5\\6 7']);
  });

  it('puts a table row (\\cell … \\row) on one line, a cell of two paragraphs on two lines in its column', async () => {
    const doc = await readOfficeDocument(
      rtf('{\\rtf1\\ansi Head\\par\\trowd\\cellx3000\\cellx6000\\pard\\intbl Seller:\\par ACME\\cell Buyer:\\cell\\row\\trowd\\cellx3000\\cellx6000\\pard\\intbl Total\\cell 121.00\\cell\\row\\pard Thanks\\par}'),
      'a.rtf',
    );
    expect(rowsOf(doc)).toEqual(['Head', 'Seller: | Buyer:', 'ACME', 'Total | 121.00', 'Thanks']);
  });
});

describe('Word 97 (doc)', () => {
  it('reads paragraphs and table rows (cell and row marks)', async () => {
    const doc = await readOfficeDocument(wordDoc('Sąskaita\rTotal\x07121.00\x07\x07VAT\x0721.00\x07\x07Thanks\r'), 'a.doc');
    expect(rowsOf(doc)).toEqual(['Sąskaita', 'Total | 121.00', 'VAT | 21.00', 'Thanks']);
  });
});

describe('files that cannot be read', () => {
  const zipOf = (files: Record<string, string>) => zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, strToU8(v)])));
  /** A compound file whose directory names these streams (UTF-16LE), like an encrypted OOXML package or an .xls. */
  const compound = (...streams: string[]) => {
    const b = Buffer.alloc(4096);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(b);
    streams.forEach((s, i) => Buffer.from(s, 'utf16le').copy(b, 1024 + i * 128));
    return new Uint8Array(b);
  };
  const encryptedDoc = () => {
    const bytes = Buffer.from(wordDoc('secret\r'));
    // Set fEncrypted in the FIB (the WordDocument stream starts on a sector boundary with 0xA5EC).
    for (let at = 512; at < bytes.length; at += 512) {
      if (bytes[at] === 0xec && bytes[at + 1] === 0xa5) {
        bytes[at + 11] = bytes[at + 11]! | 0x01;
        break;
      }
    }
    return new Uint8Array(bytes);
  };

  it('inflates no more than the limits allow: one part, all parts together, the number of parts', () => {
    const sheets = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`xl/worksheets/sheet${i + 1}.xml`, strToU8('x'.repeat(1000))]));
    const bytes = zipSync(sheets);
    const all = () => true;
    expect(openZip(bytes, all, { partBytes: 1000, totalBytes: 16_000, parts: 16 }).names).toHaveLength(16);
    expect(() => openZip(bytes, all, { partBytes: 999, totalBytes: 16_000, parts: 16 })).toThrow(BadZip);
    // Each part within its own limit, but 16 of them together are too much (a zip bomb of many parts).
    expect(() => openZip(bytes, all, { partBytes: 1000, totalBytes: 15_999, parts: 16 })).toThrow(/larger than 15999 bytes together/);
    expect(() => openZip(bytes, all, { partBytes: 1000, totalBytes: 16_000, parts: 15 })).toThrow(/more than 15 parts/);
    // Parts not asked for are neither inflated nor counted.
    expect(openZip(bytes, (n) => n.endsWith('sheet1.xml'), { partBytes: 1000, totalBytes: 1000, parts: 1 }).text('xl/worksheets/sheet1.xml')).toHaveLength(1000);
    expect(ZIP_LIMITS.totalBytes).toBeLessThan(ZIP_LIMITS.partBytes * 16);
  });

  it.each<[string, () => Uint8Array, string, RegExp | string]>([
    ['a truncated docx', () => fixture('invoice-en.docx').subarray(0, 1200), 'a.docx', /^The docx file is damaged and cannot be read/],
    ['a truncated xlsx', () => fixture('invoice-en.xlsx').subarray(0, 900), 'a.xlsx', /^The xlsx file is damaged and cannot be read/],
    ['an odt whose content.xml is not XML', () => zipOf({ mimetype: 'application/vnd.oasis.opendocument.text', 'content.xml': '<office:document-content><office:body><office:text><text:p>' }), 'a.odt', /^The odt file is damaged/],
    ['a docx without its document part', () => zipOf({ '[Content_Types].xml': '<Types/>', 'word/styles.xml': '<w:styles/>' }), 'a.docx', OFFICE_MSG.unknown],
    ['an xml part with a DOCTYPE', () => zipOf({ 'word/document.xml': '<!DOCTYPE x [<!ENTITY a "aaaa">]><w:document><w:body/></w:document>' }), 'a.docx', /^The docx file is damaged/],
    ['random bytes named .docx', () => new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]), 'a.docx', OFFICE_MSG.damaged('docx')],
    ['text named .rtf', () => strToU8('hello, not rtf'), 'a.rtf', OFFICE_MSG.damaged('rtf')],
    ['a password-protected docx (encrypted package)', () => compound('EncryptionInfo', 'EncryptedPackage'), 'a.docx', OFFICE_MSG.protected],
    ['a password-protected odt', () => zipOf({ mimetype: 'application/vnd.oasis.opendocument.text', 'content.xml': 'x', 'META-INF/manifest.xml': '<manifest:file-entry><manifest:encryption-data/></manifest:file-entry>' }), 'a.odt', OFFICE_MSG.protected],
    ['a password-protected doc', encryptedDoc, 'a.doc', OFFICE_MSG.protected],
    ['a legacy xls workbook', () => compound('Workbook'), 'a.xls', OFFICE_MSG.xls],
    ['a document without text', () => docx('<w:p/><w:p><w:r><w:t>   </w:t></w:r></w:p>'), 'a.docx', OFFICE_MSG.noText],
  ])('refuses %s with the product message and a reason', async (_name, bytes, fileName, detail) => {
    const r = await refusal(readOfficeDocument(bytes(), fileName));
    expect(r.message).toBe(UNSUPPORTED_MESSAGE);
    if (typeof detail === 'string') expect(r.detail).toBe(detail);
    else expect(r.detail).toMatch(detail);
  });
});

describe('office recognition (both recognisers)', () => {
  const recogniser = new LocalRecogniser();
  afterAll(() => recogniser.close());

  it('the local recogniser reads an office file through the shared extraction', async () => {
    const file = officeFile(INVOICE_EN, 'docx');
    const fields = mapExpenseToFields(await recogniser.analyzeExpense({ bytes: fixture(file), mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', fileName: file }));
    expect(header(fields)).toEqual(expectedHeader(INVOICE_EN));
  });

  it("reads the words from LibreOffice's PDF when there is one: positions as on its page images", async () => {
    const file = officeFile(INVOICE_EN, 'docx');
    const pdf = fixture(INVOICE_EN.file);
    const words = await officeWords({ bytes: fixture(file), mime: '', fileName: file, officePdf: pdf });
    expect(words.source).toBe('pdf-text');
    const fromPdf = mapExpenseToFields(await recogniser.analyzeExpense({ bytes: pdf, mime: 'application/pdf', fileName: INVOICE_EN.file }));
    const fromOffice = mapExpenseToFields(await recogniseOffice({ bytes: fixture(file), mime: '', fileName: file, officePdf: pdf }));
    expect(header(fromOffice)).toEqual(expectedHeader(INVOICE_EN));
    expect(fromOffice.amount_total!.box).toEqual(fromPdf.amount_total!.box);
  });

  it('falls back to the file’s own text when the PDF has no text layer or cannot be opened', async () => {
    const file = officeFile(INVOICE_LT, 'odt');
    const blank = await PDFDocument.create();
    blank.addPage();
    for (const officePdf of [await blank.save(), new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31])]) {
      const words = await officeWords({ bytes: fixture(file), mime: '', fileName: file, officePdf });
      expect(words.source).toBe('office');
    }
  });
});
