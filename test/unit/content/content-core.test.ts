import { describe, expect, it } from 'vitest';
import { boxesFromExpense, buildContentFromExtraction, contentFromRecognition } from '../../../lambdas/core/content/build';
import { applyGrid, autoRows, gridFromTemplate, gridProblems, normalisePart, templateKey } from '../../../lambdas/core/content/grid';
import { readArea } from '../../../lambdas/core/content/read';
import { companySchema, defaultSchema, mergeSchemaOverrides } from '../../../lambdas/core/content/schema';
import { addRow, deleteRow, emptyContent, findItem, moveRow, rowsOf, setValues, valueOf } from '../../../lambdas/core/content/tree';
import { validateContent, withErrors } from '../../../lambdas/core/content/validate';
import { toAnalyzeExpenseResult } from '../../../lambdas/core/recognition/expense';
import { extractDocument } from '../../../lambdas/core/recognition/extract';
import type { ExtractedFields } from '../../../lambdas/core/recognition/types';
import { CONTENT_MSG, LINE_ITEM_COLUMNS } from '../../../shared/schemas/content';
import { invoicePage, word } from './fixtures';

const box = { left: 0.1, top: 0.2, width: 0.1, height: 0.02 };
const fv = (value: string, confidence = 90) => ({ value, page: 1, box, confidence });

describe('schema', () => {
  it('has unique ids, the ten line-item columns in order and the spec required fields', () => {
    const schema = defaultSchema();
    expect(new Set(schema.map((f) => f.id)).size).toBe(schema.length);
    expect(schema.filter((f) => f.parent_schema_id === 'line_item').map((f) => f.id)).toEqual([...LINE_ITEM_COLUMNS]);
    const required = schema.filter((f) => f.constraints.required).map((f) => f.id);
    expect(required).toEqual(expect.arrayContaining(['document_id', 'supplier_name']));
    expect(schema.find((f) => f.id === 'amount_total')?.type).toBe('amount');
    expect(schema.find((f) => f.id === 'supplier_street')?.tab).toBe('advanced');
  });

  it('merges only changed datapoints, drops overrides equal to the default and refuses required + hidden', () => {
    const o1 = mergeSchemaOverrides({}, { datapoints: [{ id: 'iban', hidden: true }, { id: 'issue_date', constraints: { required: true } }] });
    expect(o1).toEqual({ iban: { hidden: true }, issue_date: { required: true } });
    const schema = companySchema(o1);
    expect(schema.find((f) => f.id === 'iban')).toMatchObject({ hidden: true });
    expect(schema.find((f) => f.id === 'issue_date')?.constraints.required).toBe(true);
    const o2 = mergeSchemaOverrides(o1, { datapoints: [{ id: 'iban', hidden: false }] });
    expect(o2).toEqual({ issue_date: { required: true } });
    expect(() => mergeSchemaOverrides(o2, { datapoints: [{ id: 'issue_date', hidden: true }] })).toThrow(/required and hidden/);
    expect(() => mergeSchemaOverrides({}, { datapoints: [{ id: 'vat_line_rate', hidden: true }] })).toThrow(/Unknown field/);
  });

  it('locks the fields the spec requires: never optional or hidden, on writing and on reading', () => {
    const locked = defaultSchema().filter((f) => f.locked);
    expect(locked.map((f) => [f.id, f.locked, f.configurable])).toEqual([
      ['document_id', 'Invoice number is always required', true],
      ['supplier_name', 'Supplier name is always required', true],
      ['customer_name', 'Customer name is always required', true],
    ]);
    for (const change of [{ constraints: { required: false } }, { hidden: true }]) {
      for (const id of ['document_id', 'supplier_name', 'customer_name']) {
        expect(() => mergeSchemaOverrides({}, { datapoints: [{ id, ...change }] }), id).toThrow(/is always required/);
      }
    }
    // Leaving it as it is changes nothing; an override stored before the lock is dropped on the next write.
    expect(mergeSchemaOverrides({ document_id: { required: false, hidden: true } }, { datapoints: [{ id: 'document_id', constraints: { required: true }, hidden: false }, { id: 'iban', hidden: true }] })).toEqual({ iban: { hidden: true } });
    const read = companySchema({ document_id: { required: false, hidden: true }, supplier_name: { hidden: true }, iban: { hidden: true } });
    expect(read.find((f) => f.id === 'document_id')).toMatchObject({ hidden: false, constraints: { required: true } });
    expect(read.find((f) => f.id === 'supplier_name')).toMatchObject({ hidden: false, constraints: { required: true } });
    expect(read.find((f) => f.id === 'iban')).toMatchObject({ hidden: true });
  });
});

describe('content tree', () => {
  it('builds content from the recognised field map, with positions and confidence', () => {
    const fields: ExtractedFields = {
      supplier_name: fv('UAB Tiekėjas', 88),
      document_id: fv('INV-7'),
      issue_date: fv('2025-03-04'),
      amount_total: fv('121.00', 97),
      supplier_address: fv('Gedimino pr. 1, Vilnius'),
      vat_lines: [{ vat_rate: fv('21'), amount_net: fv('100.00'), amount_vat: fv('21.00') }],
      line_items: [{ description: fv('Paper'), total_price: fv('121.00') }],
    };
    const doc = buildContentFromExtraction(fields, { pageDocuments: ['scan.pdf'] });
    expect(valueOf(doc, 'supplier_name')).toBe('UAB Tiekėjas');
    expect(valueOf(doc, 'supplier_street')).toBe('Gedimino pr. 1, Vilnius');
    const total = findItem(doc, 'amount_total')!;
    expect(total.content).toMatchObject({ value: '121.00', page: 1, position: box, confidence: 97 });
    expect(total.file).toBe('scan.pdf');
    expect(rowsOf(doc, 'vat_lines')).toEqual([{ vat_line_rate: '21', vat_line_base: '100.00', vat_line_tax: '21.00', vat_line_total: '' }]);
    expect(rowsOf(doc, 'line_items')[0]).toMatchObject({ description: 'Paper', total_price: '121.00', quantity: '' });
    const row = doc.items.find((i) => i.id === 'line_items')!.children[0]!;
    expect(row.id).toMatch(/^line_item-\d+$/);
    expect(row.children[0]!.id).toBe(`${row.id}.item_number`);
    expect(row.children[0]!.parent_content_id).toBe(row.id);
  });

  it('sets values (typed values lose confidence), adds, moves and deletes rows', () => {
    const schema = companySchema();
    let doc = emptyContent(schema);
    doc = setValues(doc, [{ id: 'amount_total', value: '10.00', position: box, page: 1 }]);
    expect(findItem(doc, 'amount_total')!.content).toMatchObject({ value: '10.00', position: box, page: 1, confidence: null });
    doc = setValues(doc, [{ id: 'amount_total', value: '12.00' }]);
    expect(findItem(doc, 'amount_total')!.content).toMatchObject({ value: '12.00', position: box });
    const a = addRow(doc, schema, 'line_items');
    const b = addRow(a.doc, schema, 'line_items');
    const c = addRow(b.doc, schema, 'line_items', a.rowId);
    doc = setValues(c.doc, [{ id: `${b.rowId}.description`, value: 'second' }]);
    expect(doc.items.find((i) => i.id === 'line_items')!.children.map((r) => r.id)).toEqual([a.rowId, c.rowId, b.rowId]);
    doc = moveRow(doc, b.rowId, 0);
    expect(rowsOf(doc, 'line_items')[0]!.description).toBe('second');
    doc = deleteRow(doc, b.rowId);
    expect(rowsOf(doc, 'line_items')).toHaveLength(2);
    expect(() => setValues(doc, [{ id: 'nope', value: 'x' }])).toThrow(/No content item/);
    expect(() => deleteRow(doc, 'line_items')).toThrow(/No row/);
  });
});

describe('validation', () => {
  it('refuses amounts and quantities past 12 digits before the point, which no export writes as typed', () => {
    const schema = companySchema();
    const rows = addRow(emptyContent(schema), schema, 'line_items');
    const doc = setValues(rows.doc, [
      { id: 'amount_total', value: '99999999999999999999.99' },
      { id: 'amount_tax', value: '-999999999999.99' },
      { id: 'amount_total_base', value: '000999999999999.00' },
      { id: `${rows.rowId}.quantity`, value: '1234567890123' },
      { id: `${rows.rowId}.total_price`, value: '1000000000000' },
    ]);
    const errors = validateContent(doc, schema, 'receipt');
    expect(errors.filter((e) => e.message === CONTENT_MSG.tooLarge).map((e) => e.id).sort()).toEqual(['amount_total', `${rows.rowId}.quantity`, `${rows.rowId}.total_price`].sort());
    expect(errors.find((e) => e.id === 'amount_tax' || e.id === 'amount_total_base')).toBeUndefined();
  });
  it('reports required fields, bad amounts and non-ISO dates by content id', () => {
    const schema = companySchema();
    let doc = emptyContent(schema);
    const rows = addRow(doc, schema, 'line_items');
    doc = setValues(rows.doc, [
      { id: 'amount_total', value: '12,5' },
      { id: 'amount_tax', value: '2.105' },
      { id: 'amount_total_base', value: '-10.5' },
      { id: 'issue_date', value: '04/03/2025' },
      { id: 'due_date', value: '2025-02-30' },
      { id: `${rows.rowId}.total_price`, value: 'abc' },
    ]);
    const errors = validateContent(doc, schema, 'receipt');
    expect(errors).toEqual(
      expect.arrayContaining([
        { id: 'document_id', message: CONTENT_MSG.required },
        { id: 'supplier_name', message: CONTENT_MSG.required },
        { id: 'amount_total', message: CONTENT_MSG.amount },
        { id: 'amount_tax', message: CONTENT_MSG.amount },
        { id: 'issue_date', message: CONTENT_MSG.date },
        { id: 'due_date', message: CONTENT_MSG.date },
        { id: `${rows.rowId}.total_price`, message: CONTENT_MSG.amount },
      ]),
    );
    expect(errors.find((e) => e.id === 'amount_total_base')).toBeUndefined();
    // A cost receipt does not need a customer; a sales invoice needs the customer, not the supplier.
    expect(errors.find((e) => e.id === 'customer_name')).toBeUndefined();
    const sales = validateContent(doc, schema, 'invoice').map((e) => e.id);
    expect(sales).toContain('customer_name');
    expect(sales).not.toContain('supplier_name');
    // Hidden fields are never required.
    expect(validateContent(doc, companySchema({ bank_code: { required: true } }), 'receipt').map((e) => e.id)).toContain('bank_code');
    const hidden = companySchema({ bank_code: { required: true, hidden: true } });
    expect(validateContent(doc, hidden, 'receipt').map((e) => e.id)).not.toContain('bank_code');
    // The invoice number is required whatever a stored configuration says.
    expect(validateContent(doc, companySchema({ document_id: { hidden: true, required: false } }), 'receipt').map((e) => e.id)).toContain('document_id');
    const marked = withErrors(doc, errors);
    expect(findItem(marked, 'amount_total')!.error).toEqual({ message: CONTENT_MSG.amount });
    expect(findItem(marked, 'currency')!.error).toBeNull();
  });
});

describe('reading boxes and grids', () => {
  it('reads the words inside a box, normalised for the field', () => {
    const page = invoicePage();
    const amount = readArea(page.words, { left: 0.7, top: 0.79, width: 0.2, height: 0.03 }, { id: 'amount_total', type: 'amount' });
    expect(amount).toMatchObject({ text: '121,00', value: '121.00', block_id: 'w4', confidence: 95 });
    expect(amount.position).toEqual({ left: 0.75, top: 0.8, width: 0.06, height: 0.012 });
    const name = readArea(page.words, { left: 0.0, top: 0.04, width: 0.3, height: 0.03 }, { id: 'supplier_name', type: 'string' });
    expect(name.value).toBe('UAB Tiekėjas');
    const date = readArea([word('d', '04/03/2025', 0.1, 0.1)], { left: 0, top: 0, width: 1, height: 1 }, { id: 'issue_date', type: 'date' }, 'DD/MM/YYYY');
    expect(date.value).toBe('2025-03-04');
  });

  it('drops rows and columns outside the box and needs a page, a column and four coordinates', () => {
    const part = normalisePart({
      document: null,
      page: 1,
      box: { left: 0.04, top: 0.4, width: 0.9, height: 0.12 },
      rows: [{ top_position: 0.3 }, { top_position: 0.44 }, { top_position: 0.6 }, { top_position: 0.44 }],
      columns: [{ schema_id: 'quantity', left_position: 0.48 }, { schema_id: 'description', left_position: 0.04 }, { schema_id: 'total_price', left_position: 0.99 }],
    })!;
    expect(part.rows).toEqual([{ top_position: 0.4 }, { top_position: 0.44 }]);
    expect(part.columns).toEqual([{ schema_id: 'description', left_position: 0.04 }, { schema_id: 'quantity', left_position: 0.48 }]);
    expect(normalisePart({ document: null, page: 1, box: { left: 0.1, top: 0.1, width: 0.2 }, rows: [], columns: [] })).toBeUndefined();
    expect(gridProblems([{ document: null, page: 3, box: { left: 0.1, top: 0.1, width: 0.2 }, rows: [], columns: [{ schema_id: null, left_position: 0.1 }] }], 1)).toEqual([
      'Page 3 does not exist',
      'The grid area needs all four coordinates',
      'Assign a field to at least one column',
    ]);
  });

  it('turns a grid into line items', () => {
    const page = invoicePage();
    const schema = companySchema();
    const { rows, grid } = applyGrid(
      {
        parts: [
          {
            document: 'invoice.pdf',
            page: 1,
            box: { left: 0.04, top: 0.4, width: 0.9, height: 0.12 },
            rows: [{ top_position: 0.44 }, { top_position: 0.48 }],
            columns: [
              { schema_id: 'description', left_position: 0.04 },
              { schema_id: 'quantity', left_position: 0.45 },
              { schema_id: 'total_price', left_position: 0.7 },
            ],
          },
        ],
      },
      [page],
      schema,
      { pageCount: 1 },
    );
    expect(rows.map((r) => Object.fromEntries(Object.entries(r.values).map(([k, v]) => [k, v.value])))).toEqual([
      { description: 'Paper A4', quantity: '2', total_price: '10.50' },
      { description: 'Pens', quantity: '10', total_price: '1.20' },
      { description: 'Stapler', quantity: '1', total_price: '88.00' },
    ]);
    expect(rows[0]!.values.description!.page).toBe(1);
    expect(grid.parts[0]!.rows).toHaveLength(3);
    expect(() => applyGrid({ parts: [{ document: null, page: 1, box: { left: 0.1, top: 0.1, width: 0.5, height: 0.5 }, rows: [], columns: [{ schema_id: 'vat_line_rate', left_position: 0.1 }] }] }, [page], schema, { pageCount: 1 })).toThrow(/Unknown column/);
  });

  it('finds row lines from the printed lines when a template is used', () => {
    const page = invoicePage();
    const rows = autoRows({ left: 0.04, top: 0.4, width: 0.9, height: 0.12 }, page.words);
    expect(rows).toHaveLength(3);
    expect(rows[0]!.top_position).toBe(0.4);
    expect(rows[1]!.top_position).toBeGreaterThan(0.422);
    expect(rows[1]!.top_position).toBeLessThan(0.45);
    const g = gridFromTemplate({ parts: [{ document: null, page: 1, box: { left: 0.04, top: 0.4, width: 0.9, height: 0.12 }, rows: [], columns: [{ schema_id: 'description', left_position: 0.04 }] }] }, [page]);
    expect(g.parts[0]!.rows).toHaveLength(3);
    expect(g.parts[0]!.document).toBe('invoice.pdf');
    expect(templateKey(' 302-123 ', 'UAB X')).toBe('code:302123');
    expect(templateKey('', 'UAB Ėglė')).toBe('name:uabegle');
    expect(templateKey('', '')).toBeUndefined();
    // any length gives a key of bounded length, one per value (a key over 1 KB broke every content answer)
    const long = templateKey('x'.repeat(5000), '')!;
    expect(long.length).toBeLessThan(200);
    expect(long).not.toBe(templateKey(`${'x'.repeat(4999)}y`, ''));
    expect(templateKey('x'.repeat(200), '')).toBe(`code:${'x'.repeat(200)}`);
  });
});

describe('recognition answer', () => {
  it('gives content and word boxes per page from an AnalyzeExpense-shaped answer', () => {
    const ocr = {
      source: 'ocr' as const,
      pages: [
        {
          page: 1,
          width: 1,
          height: 1,
          lines: [
            {
              text: 'Total 12.00',
              box: { left: 0.1, top: 0.5, width: 0.3, height: 0.02 },
              confidence: 90,
              page: 1,
              words: [
                { text: 'Total', box: { left: 0.1, top: 0.5, width: 0.1, height: 0.02 }, confidence: 90, page: 1 },
                { text: '12.00', box: { left: 0.3, top: 0.5, width: 0.1, height: 0.02 }, confidence: 91, page: 1 },
              ],
            },
          ],
        },
        { page: 2, width: 1, height: 1, lines: [] },
      ],
    };
    const found = { value: '12.00', raw: '12.00', page: 1, box: { left: 0.3, top: 0.5, width: 0.1, height: 0.02 }, confidence: 91 };
    const result = toAnalyzeExpenseResult(ocr, { fields: { amount_total: found }, vatLines: [], lineItems: [] } as never);
    const boxes = boxesFromExpense(result, { pageDocuments: ['a.pdf', 'a.pdf'] });
    expect(boxes).toHaveLength(2);
    expect(boxes[0]!.words.map((w) => w.text)).toEqual(['Total', '12.00']);
    expect(boxes[0]!.lines[0]).toMatchObject({ text: 'Total 12.00', word_ids: boxes[0]!.words.map((w) => w.id) });
    expect(boxes[1]).toMatchObject({ page: 2, words: [] });
    const { content } = contentFromRecognition(result);
    expect(valueOf(content, 'amount_total')).toBe('12.00');
  });

  it("gives each value read under a printed label that label as its key, with the label's own box", () => {
    const line = (text: string, top: number, from = 0.1) => {
      let left = from;
      const words = text.split(' ').map((w) => {
        const out = { text: w, box: { left, top, width: w.length * 0.012, height: 0.02 }, confidence: 95, page: 1 };
        left += w.length * 0.012 + 0.012;
        return out;
      });
      return { text, box: { left: from, top, width: left - from - 0.012, height: 0.02 }, confidence: 95, page: 1, words };
    };
    const ocr = {
      source: 'ocr' as const,
      pages: [{ page: 1, width: 1, height: 1, lines: [line('ACME TRADING SDN BHD', 0.05), line('Invoice No: INV-2041', 0.12), line('VAT code LT100002222222', 0.16), line('Date: 04/03/2025', 0.16, 0.6), line('Subtotal 10.00', 0.5), line('Tax 0.60', 0.54), line('Total 10.60', 0.58)] }],
    };
    const { content } = contentFromRecognition(toAnalyzeExpenseResult(ocr, extractDocument(ocr)));
    const keyOf = (id: string) => findItem(content, id)?.related_content;
    expect(valueOf(content, 'amount_total')).toBe('10.60');
    expect(keyOf('amount_total')).toMatchObject({ value: 'Total', page: 1 });
    // the label's box is its own word, left of the value, not the whole line
    const total = findItem(content, 'amount_total')!;
    expect(keyOf('amount_total')!.position!.left).toBeCloseTo(0.1, 5);
    expect(keyOf('amount_total')!.position!.left + keyOf('amount_total')!.position!.width).toBeLessThan(total.content!.position!.left);
    expect(keyOf('document_id')!.value).toMatch(/^Invoice No/);
    // a row that joins two columns: the date's key is the words of its own column
    expect(keyOf('issue_date')!.value).toBe('Date:');
    for (const id of ['document_id', 'issue_date']) {
      const key = keyOf(id)!.position!;
      expect(key.left + key.width).toBeLessThan(findItem(content, id)!.content!.position!.left);
    }
    // a value without a printed label has no key
    expect(keyOf('supplier_name')).toBeNull();
  });
});
