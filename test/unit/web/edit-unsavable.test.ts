import { describe, expect, it } from 'vitest';
import type { SchemaField } from '../../../shared/schemas/content';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { FieldInput, TableSummary } from '../../../web/src/features/edit-receipt/components/FieldForm';
import { FUTURE_ISSUE_DATE, issueDateHint, lineItemsHint, shownCell, totalsHint, unsavableCells, vatLinesHint, unsavableDrafts, type FormField, type FormTable } from '../../../web/src/features/edit-receipt/lib/form';

const field = (id: string, label: string, type: SchemaField['type']) => [id, { label, type }] as const;
const fields = new Map([field('document_id', 'Invoice number', 'string'), field('issue_date', 'Issue date', 'date'), field('amount_total', 'Total', 'amount')]);

describe('values a leave cannot save', () => {
  it('lists the badly formatted and the refused drafts in the form order, with their messages', () => {
    expect(unsavableDrafts({ amount_total: '260,25', issue_date: '25/12/2018' }, {}, fields)).toEqual([
      { id: 'issue_date', label: 'Issue date', message: 'Invalid date format (YYYY-MM-DD)' },
      { id: 'amount_total', label: 'Total', message: 'Invalid amount format (0.00)' },
    ]);
    // the server's refusal of a well-formed value
    expect(unsavableDrafts({ document_id: 'A-1' }, { document_id: 'Company code matches customer/supplier code' }, fields)).toEqual([
      { id: 'document_id', label: 'Invoice number', message: 'Company code matches customer/supplier code' },
    ]);
  });

  it('is empty when a draft is only waiting for its save (a network failure): the leave says so instead', () => {
    expect(unsavableDrafts({ amount_total: '260,25', document_id: 'A-2' }, {}, fields)).toEqual([]);
    expect(unsavableDrafts({}, {}, fields)).toEqual([]);
  });
});

describe('a table on the form while its pop-up is closed', () => {
  const cell = (id: string, schemaId: string, type: SchemaField['type'], value: string) => ({ id, schemaId, type, value, label: schemaId }) as unknown as FormField;
  const table = {
    id: 't1',
    schemaId: 'line_items',
    label: 'Line items',
    columns: [{ id: 'description', label: 'Description' }, { id: 'quantity', label: 'Quantity' }, { id: 'total_price', label: 'Total price' }],
    rows: [
      { id: 'r1', cells: [cell('c1', 'description', 'string', 'Paper'), cell('c2', 'quantity', 'quantity', '2'), cell('c3', 'total_price', 'amount', '31.00')] },
      { id: 'r2', cells: [cell('c4', 'description', 'string', 'Pens'), cell('c5', 'quantity', 'quantity', '1'), cell('c6', 'total_price', 'amount', '2.00')] },
    ],
    grid: undefined,
  } as unknown as FormTable;

  it('shows what was typed, marks what cannot be saved, and counts it', () => {
    const drafts = { c2: '12,5', c3: 'abc', c4: 'Blue pens' };
    expect(shownCell(table.rows[0]!.cells[1]!, drafts, {})).toEqual({ value: '12,5', error: 'Not a number' });
    expect(shownCell(table.rows[1]!.cells[0]!, drafts, {})).toEqual({ value: 'Blue pens' });
    expect(shownCell(table.rows[1]!.cells[2]!, drafts, {})).toEqual({ value: '2.00' });
    expect(unsavableCells(table, drafts, {})).toBe(2);
    const html = renderToStaticMarkup(createElement(TableSummary, { table, onOpen: () => undefined, onAdd: () => undefined, readOnly: false, drafts, errors: {} }));
    expect(html).toContain('Blue pens');
    expect(html).toContain('title="Not a number"');
    expect(html).toContain('2 values of Line items cannot be saved as typed: Open to correct them.');
    const clean = renderToStaticMarkup(createElement(TableSummary, { table, onOpen: () => undefined, onAdd: () => undefined, readOnly: false, drafts: {}, errors: {} }));
    expect(clean).not.toContain('cannot be saved');
    expect(clean).toContain('31.00');
  });
});

describe('an issue date after today', () => {
  it('gets a hint that does not stop its save; other dates and other fields do not', () => {
    expect(issueDateHint('issue_date', '2026-12-07', '2026-12-06')).toBe(FUTURE_ISSUE_DATE);
    expect(issueDateHint('issue_date', ' 2052-01-05 ', '2026-12-06')).toBe(FUTURE_ISSUE_DATE);
    expect(issueDateHint('issue_date', '2026-12-06', '2026-12-06')).toBeUndefined();
    expect(issueDateHint('issue_date', '2026-13', '2026-12-06')).toBeUndefined();
    expect(issueDateHint('due_date', '2027-01-05', '2026-12-06')).toBeUndefined();
    // the form's inputs are drawn with it, and an error of the same field wins
    const date = { id: 'issue_date', schemaId: 'issue_date', label: 'Issue date', type: 'date', required: false, value: '2099-01-01', related: null, content: null, file: null, settings: {} } as unknown as FormField;
    const events = { drafts: {}, errors: {}, readOnly: false, showKeys: false, focusedId: null, onFocus: () => undefined, onChange: () => undefined };
    expect(renderToStaticMarkup(createElement(FieldInput, { field: date, events }))).toContain(FUTURE_ISSUE_DATE);
    expect(renderToStaticMarkup(createElement(FieldInput, { field: date, events: { ...events, errors: { issue_date: 'Invalid date format (YYYY-MM-DD)' } } }))).not.toContain(FUTURE_ISSUE_DATE);
  });
});

describe('the totals do not add up', () => {
  it('Subtotal + Tax total other than Total gets a hint under Total that does not stop a save; cash rounding and missing amounts do not', () => {
    expect(totalsHint({ subtotal: '5.00', tax: '1.00', total: '9.00' })).toBe('Subtotal + Tax total is 6.00: check the amounts');
    expect(totalsHint({ subtotal: '100', tax: '21.00', total: '121' })).toBeUndefined();
    expect(totalsHint({ subtotal: '-10.00', tax: '-2.10', total: '-12.10' })).toBeUndefined();
    // a receipt's rounding to 0.05 moves the total by up to 0.02
    expect(totalsHint({ subtotal: '8.48', tax: '0.51', total: '9.00' })).toBeUndefined();
    expect(totalsHint({ subtotal: '8.46', tax: '0.51', total: '9.00' })).toBe('Subtotal + Tax total is 8.97: check the amounts');
    // one of the three empty or not an amount: nothing to compare
    expect(totalsHint({ subtotal: '', tax: '1.00', total: '9.00' })).toBeUndefined();
    expect(totalsHint({ subtotal: '5.00', tax: '1,00', total: '9.00' })).toBeUndefined();
    // drawn under Total by the form's inputs, where an error of the field wins
    const total = { id: 'amount_total', schemaId: 'amount_total', label: 'Total', type: 'amount', required: false, value: '9.00', related: null, content: null, file: null, settings: {} } as unknown as FormField;
    const events = { drafts: {}, errors: {}, readOnly: false, showKeys: false, focusedId: null, onFocus: () => undefined, onChange: () => undefined, hints: { amount_total: 'Subtotal + Tax total is 6.00: check the amounts' } };
    expect(renderToStaticMarkup(createElement(FieldInput, { field: total, events }))).toContain('Subtotal + Tax total is 6.00: check the amounts');
    expect(renderToStaticMarkup(createElement(FieldInput, { field: total, events: { ...events, errors: { amount_total: 'Invalid amount format (0.00)' } } }))).not.toContain('check the amounts');
  });
});

describe('the line items do not add up', () => {
  it('rows whose Total price make neither the Total nor the Subtotal get a hint under Line items; cash rounding, lines before tax and missing amounts do not', () => {
    // a "Total Qty: 3" row read into the table
    expect(lineItemsHint({ lineTotals: ['4.50', '3.20', '3.00'], subtotal: '', total: '7.70' })).toBe('Line items add up to 10.70: check the lines');
    expect(lineItemsHint({ lineTotals: ['4.50', '3.20'], subtotal: '', total: '7.70' })).toBeUndefined();
    // an invoice's lines priced before VAT add up to the Subtotal
    expect(lineItemsHint({ lineTotals: ['100.00', '50.00'], subtotal: '150.00', total: '181.50' })).toBeUndefined();
    // a cent per row of rounding; the Total rounded to 0.05 for cash
    expect(lineItemsHint({ lineTotals: ['3.33', '3.33', '3.33'], subtotal: '', total: '10.00' })).toBeUndefined();
    expect(lineItemsHint({ lineTotals: ['8.98'], subtotal: '', total: '9.00' })).toBeUndefined();
    // a discount row is negative
    expect(lineItemsHint({ lineTotals: ['12.00', '-2.00'], subtotal: '', total: '10.00' })).toBeUndefined();
    // nothing to compare: no Total, no rows, a row without an amount
    expect(lineItemsHint({ lineTotals: ['4.50'], subtotal: '', total: '' })).toBeUndefined();
    expect(lineItemsHint({ lineTotals: [], subtotal: '', total: '7.70' })).toBeUndefined();
    expect(lineItemsHint({ lineTotals: ['4.50', ''], subtotal: '', total: '7.70' })).toBeUndefined();
    expect(lineItemsHint({ lineTotals: ['4.50', '3,20'], subtotal: '', total: '7.70' })).toBeUndefined();
  });

  it('VAT lines: the ready rule\'s checks of them, the first that fails', () => {
    const line = (base: string, vat: string, gross: string) => ({ base, vat, gross });
    const ok = { lines: [line('1033.39', '217.01', '1250.40')], tax: '217.01', total: '1250.40' };
    expect(vatLinesHint(ok)).toBeUndefined();
    // a line's own arithmetic
    expect(vatLinesHint({ ...ok, lines: [line('1033.39', '200.00', '1250.40')] })).toBe('VAT line 1: Taxable amount + VAT amount is 1233.39: check the line');
    // the lines' VAT against the Tax total, a cent per line
    expect(vatLinesHint({ ...ok, lines: [line('1050.40', '200.00', '1250.40')] })).toBe('VAT amounts add up to 200.00, the Tax total is 217.01: check the lines');
    expect(vatLinesHint({ lines: [line('100.00', '21.00', '121.00'), line('50.00', '4.51', '54.51')], tax: '25.50', total: '175.51' })).toBeUndefined();
    // the lines' Amounts with VAT against the Total; its cash rounding passes
    expect(vatLinesHint({ ...ok, total: '1300.00' })).toBe('Amounts with VAT add up to 1250.40, the Total is 1300.00: check the lines');
    expect(vatLinesHint({ lines: [line('8.47', '0.51', '8.98')], tax: '0.51', total: '9.00' })).toBeUndefined();
    // a summary of taxable amounts and VAT only
    expect(vatLinesHint({ lines: [line('147.17', '8.83', '')], tax: '8.83', total: '156.00' })).toBeUndefined();
    expect(vatLinesHint({ lines: [line('147.17', '8.83', '')], tax: '8.83', total: '166.00' })).toBe('Taxable amounts + VAT amounts add up to 156.00, the Total is 166.00: check the lines');
    // nothing to compare: no lines, amounts missing or not amounts
    expect(vatLinesHint({ lines: [], tax: '1.00', total: '2.00' })).toBeUndefined();
    expect(vatLinesHint({ lines: [line('', '200.00', '')], tax: '', total: '' })).toBeUndefined();
    expect(vatLinesHint({ lines: [line('1033,39', '200.00', '1250.40')], tax: '', total: '' })).toBeUndefined();
  });

  it('is drawn under the table on the form, unless a value of it cannot be saved (that message wins)', () => {
    const cell = (id: string, schemaId: string, value: string) => ({ id, schemaId, type: schemaId === 'total_price' ? 'amount' : 'string', value, label: schemaId }) as unknown as FormField;
    const table = { id: 't1', schemaId: 'line_items', label: 'Line items', columns: [{ id: 'description', label: 'Description' }, { id: 'total_price', label: 'Total price' }], rows: [{ id: 'r1', cells: [cell('c1', 'description', 'Tea'), cell('c2', 'total_price', '4.50')] }], grid: null } as unknown as FormTable;
    const props = { table, onOpen: () => undefined, onAdd: () => undefined, readOnly: false, drafts: {}, errors: {}, hint: 'Line items add up to 4.50: check the lines' };
    expect(renderToStaticMarkup(createElement(TableSummary, props))).toContain('Line items add up to 4.50: check the lines');
    expect(renderToStaticMarkup(createElement(TableSummary, { ...props, drafts: { c2: '4,50' } }))).not.toContain('check the lines');
  });
});

describe('the confidence dot', () => {
  it('is the reading’s while the value is the one read, and none once a value is typed over it', () => {
    const total = { id: 'amount_total', schemaId: 'amount_total', label: 'Total', type: 'amount', required: false, value: '9.00', related: null, content: { value: '9.00', confidence: 97 }, file: null, settings: {} } as unknown as FormField;
    const events = { drafts: {} as Record<string, string>, errors: {}, readOnly: false, showKeys: false, focusedId: null, onFocus: () => undefined, onChange: () => undefined };
    expect(renderToStaticMarkup(createElement(FieldInput, { field: total, events }))).toContain('er-confidence-high');
    expect(renderToStaticMarkup(createElement(FieldInput, { field: total, events: { ...events, drafts: { amount_total: '9.00' } } }))).toContain('er-confidence-high');
    const typed = renderToStaticMarkup(createElement(FieldInput, { field: total, events: { ...events, drafts: { amount_total: '12a.50' } } }));
    expect(typed).toContain('er-confidence-none');
    expect(typed).toContain('Typed or not found');
  });
});
