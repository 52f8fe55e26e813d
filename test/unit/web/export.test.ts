import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { currencyCode } from '../../../shared/currency';
import { buildCsv } from '../../../web/src/features/export/lib/csv';
import {
  DEFAULT_EXPORT_KEYS,
  addField,
  csvHeader,
  defaultExportFields,
  amountColumns,
  fieldKeyOf,
  knownExportFields,
  moveField,
  pdfTitle,
  removeField,
  renameField,
} from '../../../web/src/features/export/lib/fields';
import { buildPdf } from '../../../web/src/features/export/lib/pdf';
import { defaultReportName, exportFileName, exportTable, exportValue } from '../../../web/src/features/export/lib/table';
import { exportIsaf, serverExportCalls } from '../../../web/src/features/export/api/export';
import { ISAF_EXPORT_MAX } from '../../../shared/schemas/content';
import { receipt } from './receipt-fixture';
import { withCompanyAsNow } from '../../../web/src/features/receipts/lib/row-rules';
import { companySchema } from '../../../lambdas/core/content/schema';
import { emptyContent, setValues } from '../../../lambdas/core/content/tree';
import { exportValue as serverExportValue, type ExportDocument as ServerExportDocument } from '../../../lambdas/core/export/fields';

describe('export field list', () => {
  it('starts with the ten default fields in the spec order', () => {
    expect(defaultExportFields().map((f) => f.key)).toEqual([
      'user',
      'type',
      'date',
      'currency',
      'status',
      'total',
      'tax',
      'supplier',
      'category',
      'notes',
    ]);
    expect(DEFAULT_EXPORT_KEYS).toHaveLength(10);
  });

  it('moves a field to where it was dropped', () => {
    const moved = moveField(defaultExportFields(), 'notes', 'user');
    expect(moved.map((f) => f.key).slice(0, 3)).toEqual(['notes', 'user', 'type']);
    const down = moveField(defaultExportFields(), 'user', 'date');
    expect(down.map((f) => f.key).slice(0, 4)).toEqual(['type', 'date', 'user', 'currency']);
    expect(moveField(defaultExportFields(), 'user', 'nope').map((f) => f.key)).toEqual([...DEFAULT_EXPORT_KEYS]);
  });

  it('renames a field, ignoring a blank name', () => {
    const renamed = renameField(defaultExportFields(), 'supplier', '  Vendor name ');
    expect(renamed.find((f) => f.id === 'supplier')).toEqual({ id: 'supplier', key: 'supplier', label: 'Vendor name' });
    expect(renameField(renamed, 'supplier', '   ').find((f) => f.id === 'supplier')!.label).toBe('Vendor name');
  });

  it('adds a new field only if its name is non-blank, once', () => {
    const fields = defaultExportFields();
    expect(addField(fields, '   ')).toHaveLength(10);
    const added = addField(fields, 'Document ID');
    expect(added).toHaveLength(11);
    expect(added[10]).toEqual({ id: 'document_id', key: 'document_id', label: 'Document ID' });
    expect(addField(added, 'document id')).toHaveLength(11);
    expect(addField(fields, '!!!')).toHaveLength(10);
    expect(fieldKeyOf(' Amount  total ')).toBe('amount_total');
  });

  it("adds a field named by the edit screen's label with that field's values; table columns and hidden fields are not offered", () => {
    const schema = [
      { id: 'document_id', label: 'Invoice number', category: 'datapoint' as const, parent_schema_id: 'basic_info', hidden: false },
      { id: 'amount_total_base', label: 'Subtotal', category: 'datapoint' as const, parent_schema_id: 'amounts', hidden: false },
      { id: 'iban', label: 'IBAN', category: 'datapoint' as const, parent_schema_id: 'payment', hidden: true },
      { id: 'line_items_tuple', label: 'Line item', category: 'tuple' as const, parent_schema_id: 'line_items', hidden: false },
      { id: 'quantity', label: 'Quantity', category: 'datapoint' as const, parent_schema_id: 'line_items_tuple', hidden: false },
    ];
    const known = knownExportFields(schema);
    expect(known).toEqual([
      { key: 'document_id', label: 'Invoice number' },
      { key: 'amount_total_base', label: 'Subtotal' },
      // then the record's file name and company (a file of the all-companies view tells its companies apart)
      { key: 'file', label: 'File' },
      { key: 'company', label: 'Company' },
      { key: 'company_code', label: 'Company code' },
    ]);
    expect(addField(defaultExportFields(), 'Company code', known)[10]!.key).toBe('company_code');
    const added = addField(defaultExportFields(), 'invoice Number', known);
    expect(added[10]).toEqual({ id: 'document_id', key: 'document_id', label: 'invoice Number' });
    expect(addField(defaultExportFields(), 'amount total base', known)[10]!.key).toBe('amount_total_base');
    expect(addField(defaultExportFields(), 'Something else', known)[10]!.key).toBe('something_else');
    const doc = { ...receipt({}), content: [{ id: 'document_id', schema_id: 'document_id', category: 'datapoint' as const, content: { value: 'INV-7', page: 1, position: null, confidence: 99 } }] };
    expect(exportTable([doc], added, 'csv')).toEqual({ headers: [...added.map((f) => f.label.toUpperCase())], rows: [expect.arrayContaining(['INV-7'])] });
  });

  it("names a label that the supplier's and the customer's fields share with its section, so each is offered and added", () => {
    const schema = [
      { id: 'supplier', label: 'Supplier', category: 'section' as const, parent_schema_id: null, hidden: false },
      { id: 'supplier_street', label: 'Street', category: 'datapoint' as const, parent_schema_id: 'supplier', hidden: false },
      { id: 'supplier_vat_id', label: 'Supplier VAT ID', category: 'datapoint' as const, parent_schema_id: 'supplier', hidden: false },
      { id: 'customer', label: 'Customer', category: 'section' as const, parent_schema_id: null, hidden: false },
      { id: 'customer_street', label: 'Street', category: 'datapoint' as const, parent_schema_id: 'customer', hidden: false },
      { id: 'customer_zipcode', label: 'Zip code', category: 'datapoint' as const, parent_schema_id: 'customer', hidden: false },
    ] as unknown as Parameters<typeof knownExportFields>[0];
    const known = knownExportFields(schema);
    expect(known.slice(0, 4)).toEqual([
      { key: 'supplier_street', label: 'Supplier street' },
      { key: 'supplier_vat_id', label: 'Supplier VAT ID' },
      { key: 'customer_street', label: 'Customer street' },
      // a label of one field only keeps its own
      { key: 'customer_zipcode', label: 'Zip code' },
    ]);
    const both = addField(addField(defaultExportFields(), 'Supplier street', known), 'Customer street', known);
    expect(both.slice(10).map((f) => [f.key, f.label])).toEqual([
      ['supplier_street', 'Supplier street'],
      ['customer_street', 'Customer street'],
    ]);
  });

  it('adds no second column of a header already in the list', () => {
    const known = [{ key: 'amount_total', label: 'Total' }];
    const fields = defaultExportFields();
    expect(fields.some((f) => csvHeader(f) === 'TOTAL')).toBe(true);
    expect(addField(fields, 'Total', known)).toEqual(fields);
    expect(addField(fields, ' total ', known)).toEqual(fields);
  });

  it('removes a field', () => {
    expect(removeField(defaultExportFields(), 'tax').map((f) => f.key)).not.toContain('tax');
  });

  it('upper-cases CSV headers and makes PDF titles readable', () => {
    expect(csvHeader({ label: 'supplier' })).toBe('SUPPLIER');
    expect(csvHeader({ label: 'Vendor name' })).toBe('VENDOR NAME');
    expect(pdfTitle({ label: 'supplier' })).toBe('Supplier');
    expect(pdfTitle({ label: 'amount_total_base' })).toBe('Amount total base');
  });
});

describe('export values and files', () => {
  const doc = {
    ...receipt({ notes: 'lunch', category: 'Food', status: 'ready', receipt_type: 'invoice', supplierCustomerName: 'Client, "Big" UAB' }),
    content: [
      { id: 'amount_tax', schema_id: 'amount_tax', category: 'datapoint' as const, content: { value: '2.17', page: 1, position: null, confidence: 99 } },
      { id: 'iban', schema_id: 'iban', category: 'datapoint' as const, content: { value: 'LT12 1000', page: 1, position: null, confidence: 99 } },
    ],
  };

  it('writes the currency as its ISO code: the euro sign and lower case as EUR, none as none', () => {
    expect(exportValue(receipt({ currency: '€' }), 'currency')).toBe('EUR');
    expect(exportValue(receipt({ currency: ' usd ' }), 'currency')).toBe('USD');
    expect(exportValue(receipt({ currency: '' }), 'currency')).toBe('');
    expect(currencyCode('')).toBe('EUR');
    expect(currencyCode('€')).toBe('EUR');
  });

  it('takes each field from the document', () => {
    expect(exportValue(doc, 'user')).toBe('Ona Onaitė');
    expect(exportValue(doc, 'type')).toBe('Invoice');
    expect(exportValue(doc, 'date')).toBe('2024-03-05');
    expect(exportValue(doc, 'currency')).toBe('EUR');
    expect(exportValue(doc, 'status')).toBe('Ready');
    expect(exportValue(doc, 'total')).toBe('12.50');
    expect(exportValue(doc, 'tax')).toBe('2.17');
    expect(exportValue(doc, 'supplier')).toBe('Client, "Big" UAB');
    expect(exportValue(doc, 'category')).toBe('Food');
    expect(exportValue(doc, 'notes')).toBe('lunch');
    expect(exportValue(doc, 'iban')).toBe('LT12 1000');
    expect(exportValue(doc, 'original_file_name')).toBe('receipt.jpg');
    expect(exportValue(doc, 'file')).toBe('receipt.jpg');
    expect(exportValue(doc, 'receipt_id')).toBe('r1');
    expect(exportValue(doc, 'unknown_field')).toBe('');
  });

  it('writes an added field as the server-built files do: the record fields by name, any other as a content field', () => {
    // the same document as the server stores it: the list row's fields, of which the export reads its own
    const serverDoc: ServerExportDocument = {
      ...doc,
      content: setValues(emptyContent(companySchema()), [
        { id: 'amount_tax', value: '2.17' },
        { id: 'iban', value: 'LT12 1000' },
      ]),
    };
    // 'document_number' is a list-row field, not an export field: both files leave it empty
    for (const key of ['file', 'original_file_name', 'receipt_id', 'created_at', 'company', 'company_name', 'company_code', 'iban', 'amount_tax', 'document_number', 'unknown_field']) {
      expect({ key, value: exportValue(doc, key) }).toEqual({ key, value: serverExportValue(serverDoc, key) });
    }
    expect(serverExportValue(serverDoc, 'file')).toBe('receipt.jpg');
    // the company, so that a file of the all-companies view tells the companies' documents apart
    expect(serverExportValue(serverDoc, 'company')).toBe('Alpha UAB');
    expect(serverExportValue(serverDoc, 'company_code')).toBe('111');
  });

  it('names the company as the companies list has it now (a document keeps the name of its upload)', () => {
    const companies = [{ company_id: doc.company_id!, name: 'Alpha Group UAB', code: '222' }];
    const now = withCompanyAsNow(doc, companies);
    expect([exportValue(now, 'company'), exportValue(now, 'company_code')]).toEqual(['Alpha Group UAB', '222']);
    // a company the list does not hold (no longer the user's): the name and code the document kept
    expect(withCompanyAsNow(doc, [])).toBe(doc);
    expect(exportValue(withCompanyAsNow(doc, []), 'company')).toBe('Alpha UAB');
  });

  it('takes TAX from the VAT lines when the document has no tax total, as the server-built files do', () => {
    const vatLine = (tax: string) => ({
      id: `t-${tax}`,
      schema_id: 'vat_lines_tuple',
      category: 'tuple' as const,
      content: null,
      children: [{ id: `x-${tax}`, schema_id: 'vat_line_tax', category: 'datapoint' as const, content: { value: tax, page: 1, position: null, confidence: 99 } }],
    });
    const withLines = { ...receipt({}), content: [{ id: 'vat_lines', schema_id: 'vat_lines', category: 'multivalue' as const, content: null, children: [vatLine('21.00'), vatLine('4.50'), vatLine('')] }] };
    expect(exportValue(withLines, 'tax')).toBe('25.50');
    expect(exportValue({ ...receipt({}), content: [] }, 'tax')).toBe('');
  });

  it('writes the CSV as Excel with Lithuanian settings reads it: semicolons, and a decimal comma in amount columns only', () => {
    const fields = [...defaultExportFields(), { id: 'n', key: 'document_id', label: 'Number' }, { id: 'b', key: 'amount_total_base', label: 'Net' }];
    const withNet = { ...doc, content: [...(doc.content ?? []), { id: 'b1', schema_id: 'amount_total_base', category: 'datapoint' as const, content: { value: '10.33', page: 1, position: null, confidence: 99 }, children: [] }, { id: 'd1', schema_id: 'document_id', category: 'datapoint' as const, content: { value: '2024.01', page: 1, position: null, confidence: 99 }, children: [] }] };
    const table = exportTable([withNet], fields, 'csv');
    const columns = amountColumns(fields, [{ id: 'amount_total_base', type: 'amount' }, { id: 'document_id', type: 'string' }]);
    const lines = buildCsv(table, 'semicolon', columns).split('\r\n');
    expect(lines[0]).toBe('USER;TYPE;DATE;CURRENCY;STATUS;TOTAL;TAX;SUPPLIER;CATEGORY;NOTES;NUMBER;NET');
    // amounts with a comma; the date and the document number as printed
    expect(lines[1]).toBe('Ona Onaitė;Invoice;2024-03-05;EUR;Ready;12,50;2,17;"Client, ""Big"" UAB";Food;lunch;2024.01;10,33');
    expect(Papa.parse<string[]>(buildCsv(table, 'semicolon', columns), { delimiter: ';' }).data[1]![11]).toBe('10,33');
    // the default stays comma-separated with a decimal point
    expect(buildCsv(table, 'comma', columns).split('\r\n')[1]).toContain(',12.50,2.17,');
  });

  it('builds a CSV with upper-cased headers in the chosen order, quoted where needed', () => {
    const fields = moveField(renameField(defaultExportFields(), 'supplier', 'Customer'), 'supplier', 'user');
    const csv = buildCsv(exportTable([doc, receipt({ receipt_id: 'r2', total: '-3.00', notes: '=HYPERLINK("x")' })], fields, 'csv'));
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('CUSTOMER,USER,TYPE,DATE,CURRENCY,STATUS,TOTAL,TAX,CATEGORY,NOTES');
    expect(lines[1]).toBe('"Client, ""Big"" UAB",Ona Onaitė,Invoice,2024-03-05,EUR,Ready,12.50,2.17,Food,lunch');
    const parsed = Papa.parse<string[]>(csv).data;
    expect(parsed[2]![6]).toBe('-3.00');
    // a cell a spreadsheet would run as a formula is defused
    expect(parsed[2]![9]!.startsWith("'=")).toBe(true);
  });

  it('uses readable titles for the PDF table', () => {
    expect(exportTable([doc], defaultExportFields(), 'pdf').headers.slice(0, 3)).toEqual(['User', 'Type', 'Date']);
  });

  it('builds a PDF', async () => {
    const blob = await buildPdf(exportTable([doc], defaultExportFields(), 'pdf'), { title: 'report-2024-06-10' });
    const bytes = new Uint8Array(await blob.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
    expect(bytes.length).toBeGreaterThan(1000);
  });

  it('a PDF of more columns than a page holds goes on over more pages, each column keeping room for a word', async () => {
    const pages = async (columns: number) => {
      const table = { headers: Array.from({ length: columns }, (_, i) => `Column ${i + 1}`), rows: [Array.from({ length: columns }, () => 'Lietuvos Respublikos prekyba UAB')] };
      const bytes = new Uint8Array(await (await buildPdf(table, { title: 'wide' })).arrayBuffer());
      return new TextDecoder('latin1').decode(bytes).match(/\/Type \/Page\b/g)?.length ?? 0;
    };
    expect(await pages(10)).toBe(1);
    expect(await pages(26)).toBeGreaterThan(1);
  });

  it("names the file 'report-' plus the current date, with the extension once", () => {
    const now = new Date(2024, 5, 9);
    expect(defaultReportName(now)).toBe('report-2024-06-09');
    expect(exportFileName('', 'csv', now)).toBe('report-2024-06-09.csv');
    expect(exportFileName('March costs', 'pdf', now)).toBe('March costs.pdf');
    expect(exportFileName('a.csv', 'csv', now)).toBe('a.csv');
    expect(exportFileName('x/y:z', 'xml', now)).toBe('x-y-z.xml');
  });
});

describe('XML export calls', () => {
  const row = (i: number, company_id: string, company_code: string) => ({ receipt_id: `R${i}`, company_id, company_code });

  it('makes one call per company and per 100 documents, each to a file of its own', () => {
    const rows = [...Array.from({ length: 230 }, (_, i) => row(i, 'c1', 'ACME')), row(999, 'c2', 'BETA')];
    const calls = serverExportCalls(rows);
    expect(calls.map((c) => [c.companyId, c.receiptIds.length, c.suffix])).toEqual([
      ['c1', 100, '-ACME-1'],
      ['c1', 100, '-ACME-2'],
      ['c1', 30, '-ACME-3'],
      ['c2', 1, '-BETA'],
    ]);
    expect(calls.flatMap((c) => c.receiptIds)).toEqual(rows.map((r) => r.receipt_id));
  });

  it("names each company's file by the company's code as it is now, not the code the documents were uploaded under", () => {
    const rows = [row(1, 'c1', 'OLD-1'), row(2, 'c2', 'BETA')];
    const calls = serverExportCalls(rows, 100, [{ company_id: 'c1', code: 'NEW-1' }]);
    expect(calls.map((c) => c.suffix)).toEqual(['-NEW-1', '-BETA']);
  });

  it('takes another limit per call (i.SAF: 300, one file of POST /receipts/export-isaf)', () => {
    const calls = serverExportCalls(Array.from({ length: 301 }, (_, i) => row(i, 'c1', 'ACME')), ISAF_EXPORT_MAX);
    expect(calls.map((c) => [c.receiptIds.length, c.suffix])).toEqual([
      [300, '-1'],
      [1, '-2'],
    ]);
  });

  it("asks for i.SAF with the ids in the body (a list's 300 do not fit a URL) and the company's code as it is now (digits)", async () => {
    const asked: { path: string; body: unknown; query: Record<string, unknown> }[] = [];
    const api = {
      post: async (path: string, body: unknown, opts: { query: Record<string, unknown> }) => {
        asked.push({ path, body, query: opts.query });
        return { mime: 'application/xml', base64: Buffer.from('<iSAFFile/>').toString('base64'), name: 'isaf.xml' };
      },
    } as unknown as Parameters<typeof exportIsaf>[0];
    const ids = Array.from({ length: ISAF_EXPORT_MAX }, (_, i) => `01ISAF${String(i).padStart(20, '0')}`);
    const blob = await exportIsaf(api, 'c1', ids, 'LT-304 112 299');
    expect(await blob.text()).toBe('<iSAFFile/>');
    expect(asked).toEqual([{ path: '/receipts/export-isaf', body: { receipt_ids: ids }, query: { company_id: 'c1', registration_number: '304112299' } }]);
    await exportIsaf(api, 'c1', ['R9'], undefined);
    expect(asked[1]).toEqual({ path: '/receipts/export-isaf', body: { receipt_ids: ['R9'] }, query: { company_id: 'c1' } });
  });

  it('names no company and no part for up to 100 documents of one company', () => {
    expect(serverExportCalls(Array.from({ length: 100 }, (_, i) => row(i, 'c1', 'ACME')))).toEqual([{ companyId: 'c1', receiptIds: Array.from({ length: 100 }, (_, i) => `R${i}`), suffix: '' }]);
  });
});
