import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { companySchema } from '../../../lambdas/core/content/schema';
import { addRow, emptyContent, setValues, type ContentDocument } from '../../../lambdas/core/content/tree';
import { buildCsv } from '../../../lambdas/core/export/csv';
import { exportFileName, exportValue, parseExportFields, type ExportDocument } from '../../../lambdas/core/export/fields';
import { exportDoc } from '../integrations/fixtures';
import { buildIsaf, documentTotals, isafTaxCode } from '../../../lambdas/core/export/isaf';
import { buildPdf } from '../../../lambdas/core/export/pdf';
import { buildDocumentsXml } from '../../../lambdas/core/export/xml';

const schema = companySchema();

function content(values: Record<string, string>, vatLines: Record<string, string>[] = []): ContentDocument {
  let doc = emptyContent(schema);
  const updates = Object.entries(values).map(([id, value]) => ({ id, value }));
  for (const line of vatLines) {
    const r = addRow(doc, schema, 'vat_lines');
    doc = r.doc;
    updates.push(...Object.entries(line).map(([k, value]) => ({ id: `${r.rowId}.${k}`, value })));
  }
  return setValues(doc, updates);
}

const doc2025: ExportDocument = {
  receipt_id: 'R2025',
  receipt_type: 'receipt',
  status: 'review',
  created_at: '2025-06-02T10:00:00.000Z',
  user: { name: 'Eglė', surname: 'Jonaitė' },
  category: 'Travel',
  notes: 'Hotel, "Vilnius"',
  original_file_name: 'hotel.pdf',
  content: content(
    { document_id: 'VLN-25', issue_date: '2025-06-01', currency: 'EUR', supplier_name: 'UAB Viešbutis', supplier_code: '302111111', supplier_vat_id: 'LT100001111111', amount_total: '230.00', amount_tax: '30.00', amount_total_base: '200.00' },
    [
      { vat_line_rate: '21', vat_line_base: '100.00', vat_line_tax: '21.00' },
      { vat_line_rate: '9', vat_line_base: '100.00', vat_line_tax: '9.00' },
    ],
  ),
};

const doc2026: ExportDocument = {
  receipt_id: 'R2026',
  receipt_type: 'receipt',
  status: 'ready',
  created_at: '2026-01-20T10:00:00.000Z',
  user: { name: 'Eglė', surname: 'Jonaitė' },
  category: null,
  notes: null,
  content: content(
    { document_id: 'VLN-26', issue_date: '2026-01-15', currency: 'EUR', supplier_name: 'UAB Viešbutis', supplier_code: '302111111', supplier_vat_id: 'LT100001111111', amount_total: '233.00' },
    [
      { vat_line_rate: '21', vat_line_base: '100.00', vat_line_tax: '21.00' },
      { vat_line_rate: '12', vat_line_base: '100.00', vat_line_tax: '12.00' },
    ],
  ),
};

const sale2026: ExportDocument = {
  receipt_id: 'S1',
  receipt_type: 'invoice',
  status: 'archive',
  created_at: '2026-02-01T10:00:00.000Z',
  content: content({ document_id: 'S-1', issue_date: '2026-02-01', customer_name: 'Kliento UAB', customer_vat_id: 'LV40003000000', amount_total_base: '50.00', amount_tax: '2.50', amount_total: '52.50' }),
};

describe('export fields and CSV', () => {
  it('parses the field list and names the file', () => {
    expect(parseExportFields(undefined).map((c) => c.key)).toEqual(['user', 'type', 'date', 'currency', 'status', 'total', 'tax', 'supplier', 'category', 'notes']);
    expect(parseExportFields('total:Sum, ,document_id,supplier:Vendor name')).toEqual([
      { key: 'total', title: 'Sum' },
      { key: 'document_id', title: 'Document id' },
      { key: 'supplier', title: 'Vendor name' },
    ]);
    expect(exportFileName(undefined, new Date('2026-03-04T10:00:00Z'), 'csv')).toBe('report-2026-03-04.csv');
    expect(exportFileName('march/costs', new Date(), 'pdf')).toBe('marchcosts.pdf');
  });

  it('writes an upper-cased header row and one quoted row per document', () => {
    const csv = buildCsv([doc2025, doc2026], parseExportFields(undefined));
    expect(csv.startsWith('\ufeff')).toBe(true);
    const lines = csv.slice(1).trimEnd().split('\r\n');
    expect(lines[0]).toBe('USER,TYPE,DATE,CURRENCY,STATUS,TOTAL,TAX,SUPPLIER,CATEGORY,NOTES');
    expect(lines[1]).toBe('Eglė Jonaitė,Receipt,2025-06-01,EUR,To Review,230.00,30.00,UAB Viešbutis,Travel,"Hotel, ""Vilnius"""');
    // No tax total: the VAT lines add up.
    expect(lines[2]).toBe('Eglė Jonaitė,Receipt,2026-01-15,EUR,Ready,233.00,33.00,UAB Viešbutis,,');
    expect(buildCsv([{ ...doc2026, notes: '=HYPERLINK("x")' }], [{ key: 'notes', title: 'n' }])).toContain(`"'=HYPERLINK(""x"")"`);
  });

  it('leaves DATE empty for a document without an issue date, as the browser does, instead of its upload date', () => {
    const undated = { ...doc2026, content: content({ document_id: 'VLN-27', amount_total: '10.00' }) };
    const csv = buildCsv([undated], [{ key: 'date', title: 'Date' }, { key: 'total', title: 'Total' }]);
    expect(csv.slice(1).trimEnd().split('\r\n')).toEqual(['DATE,TOTAL', ',10.00']);
  });
});

describe('PDF export', () => {
  it('renders a table with an embedded font (and without one)', async () => {
    const require = createRequire(import.meta.url);
    const font = readFileSync(require.resolve('pdfjs-dist/standard_fonts/LiberationSans-Regular.ttf'));
    const bytes = await buildPdf([doc2025, doc2026], parseExportFields(undefined), { title: 'report-2026-03-04', generatedAt: new Date('2026-03-04T10:00:00Z'), fonts: { regular: font } });
    expect(Buffer.from(bytes.slice(0, 5)).toString()).toBe('%PDF-');
    const plain = await buildPdf([doc2025], parseExportFields(undefined), { title: 'Ąžuolas', generatedAt: new Date() });
    expect(plain.length).toBeGreaterThan(500);
  });
});

describe('i.SAF 1.2', () => {
  it('chooses the VAT classifier code by rate and document date', () => {
    expect(isafTaxCode(21, '2025-12-31')).toBe('PVM1');
    expect(isafTaxCode(9, '2025-12-31')).toBe('PVM2');
    expect(isafTaxCode(5, '2026-01-01')).toBe('PVM3');
    expect(isafTaxCode(12, '2026-01-01')).toBe('PVM58');
    expect(isafTaxCode(12, '2025-12-31')).toBeNull();
    expect(isafTaxCode(0, '2026-01-01')).toBeNull();
  });

  it('derives one total from the amounts when there are no VAT lines', () => {
    expect(documentTotals(sale2026, '2026-02-01')).toEqual([{ taxableValue: '50.00', taxCode: 'PVM3', taxPercentage: '5', amount: '2.50' }]);
  });

  it('parses and holds the VAT lines with the right codes for a 2025 and a 2026 document', () => {
    const xml = buildIsaf([doc2025, doc2026, sale2026], {
      registrationNumber: '304 999 999',
      createdAt: new Date('2026-03-01T08:00:00Z'),
      software: { company: 'Receipts Capture', name: 'Receipts Capture', version: '0.1.0' },
    });
    const parsed = new XMLParser({ ignoreAttributes: false, parseTagValue: false, isArray: (name) => ['Invoice', 'DocumentTotal', 'Supplier', 'Customer'].includes(name) }).parse(xml);
    const root = parsed.iSAFFile;
    expect(root['@_xmlns']).toBe('http://www.vmi.lt/cms/imas/isaf');
    expect(root.Header.FileDescription).toMatchObject({ FileVersion: 'iSAF1.2', DataType: 'F', RegistrationNumber: '304999999', FileDateCreated: '2026-03-01T08:00:00' });
    expect(root.Header.FileDescription.SelectionCriteria).toEqual({ SelectionStartDate: '2025-06-01', SelectionEndDate: '2026-02-01' });
    expect(root.MasterFiles.Suppliers.Supplier[0]).toMatchObject({ SupplierID: '302111111', VATRegistrationNumber: 'LT100001111111', Country: 'LT', Name: 'UAB Viešbutis' });
    const [p2025, p2026] = root.SourceDocuments.PurchaseInvoices.Invoice;
    expect(p2025).toMatchObject({ InvoiceNo: 'VLN-25', InvoiceDate: '2025-06-01', InvoiceType: 'SF' });
    expect(p2025.SupplierInfo).toMatchObject({ SupplierID: '302111111', RegistrationNumber: '302111111', Name: 'UAB Viešbutis' });
    const lines = (inv: { DocumentTotals: { DocumentTotal: Record<string, unknown>[] } }) =>
      inv.DocumentTotals.DocumentTotal.map((t) => [t.TaxableValue, t.TaxCode, t.TaxPercentage, t.Amount]);
    expect(lines(p2025)).toEqual([
      ['100.00', 'PVM1', '21', '21.00'],
      ['100.00', 'PVM2', '9', '9.00'],
    ]);
    expect(lines(p2026)).toEqual([
      ['100.00', 'PVM1', '21', '21.00'],
      ['100.00', 'PVM58', '12', '12.00'],
    ]);
    const sale = root.SourceDocuments.SalesInvoices.Invoice[0];
    expect(sale.CustomerInfo).toMatchObject({ VATRegistrationNumber: 'LV40003000000', Country: 'LV', Name: 'Kliento UAB' });
    expect(sale.DocumentTotals.DocumentTotal[0].VATPointDate2).toEqual({ '@_xsi:nil': 'true' });
    // Element order of the XSD: RegistrationAccountDate only on purchases, before DocumentTotals.
    expect(Object.keys(p2025)).toEqual(['InvoiceNo', 'SupplierInfo', 'InvoiceDate', 'InvoiceType', 'SpecialTaxation', 'References', 'VATPointDate', 'RegistrationAccountDate', 'DocumentTotals']);
    expect(Object.keys(sale)).toEqual(['InvoiceNo', 'CustomerInfo', 'InvoiceDate', 'InvoiceType', 'SpecialTaxation', 'References', 'VATPointDate', 'DocumentTotals']);
  });
});

describe('documents XML', () => {
  it('lists documents with their fields, VAT lines and line items', () => {
    const xml = buildDocumentsXml([doc2025], schema, new Date('2026-01-01T00:00:00Z'));
    const parsed = new XMLParser({ ignoreAttributes: false, parseTagValue: false, isArray: (n) => ['Document', 'Field', 'VatLine'].includes(n) }).parse(xml);
    const d = parsed.Documents.Document[0];
    expect(d['@_id']).toBe('R2025');
    expect(d.Fields.Field.find((f: Record<string, string>) => f['@_id'] === 'amount_total')['#text']).toBe('230.00');
    expect(d.VatLines.VatLine).toHaveLength(2);
  });
});

describe('server export values: the currency', () => {
  it('is written as its ISO code, as the browser writes it: the euro sign as EUR, none as none', () => {
    expect(exportValue(exportDoc({ fields: { currency: '€' } }), 'currency')).toBe('EUR');
    expect(exportValue(exportDoc({ fields: { currency: 'usd' } }), 'currency')).toBe('USD');
    expect(exportValue(exportDoc({ fields: {} }), 'currency')).toBe('');
  });
});
