import { describe, expect, it } from 'vitest';
import { contentForType, documentKeyText, readyCheck, swapCounterpartyContent } from '../../../lambdas/core/documents/content';
import { buildContentFromExtraction } from '../../../lambdas/core/content/build';
import { valueOf } from '../../../lambdas/core/content/tree';
import type { ExtractedFields, FieldValue } from '../../../lambdas/core/recognition/types';

const v = (value: string, confidence = 99): FieldValue => ({ value, confidence, page: 1, box: { left: 0.1, top: 0.1, width: 0.1, height: 0.02 } });

function complete(): ExtractedFields {
  return {
    supplier_name: v('ACME UAB'),
    document_id: v('INV-7'),
    issue_date: v('2024-03-05'),
    amount_total: v('121.00'),
    amount_total_base: v('100.00'),
    amount_tax: v('21.00'),
    vat_lines: [{ vat_rate: v('21'), amount_net: v('100.00'), amount_vat: v('21.00'), amount_gross: v('121.00') }],
    line_items: [{ total_price: v('60.50') }, { total_price: v('60.50') }],
  };
}

describe('ready rule', () => {
  const today = '2024-06-01';
  it('is ready when every required field is sure and every possible check adds up', () => {
    const res = readyCheck(complete(), 'receipt', today);
    expect(res.ready).toBe(true);
    expect(res.reasons).toEqual([]);
    expect(res.checks).toEqual(expect.arrayContaining(['base + tax = total', 'Σ VAT lines = tax', 'Σ VAT-line gross = total', 'Σ line items = total']));
  });

  it('goes to review for a missing or unsure field, a wrong sum, a future date or nothing to check', () => {
    const low = { ...complete(), document_id: v('INV-7', 80) };
    expect(readyCheck(low, 'receipt', today).reasons).toEqual(['document number read with low confidence (80)']);
    const { supplier_name: _drop, ...noSupplier } = complete();
    expect(readyCheck(noSupplier as ExtractedFields, 'receipt', today).reasons).toContain('supplier missing');
    // An invoice needs the customer, not the supplier.
    expect(readyCheck(complete(), 'invoice', today).reasons).toContain('customer missing');
    const wrong = { ...complete(), amount_tax: v('20.00') };
    expect(readyCheck(wrong, 'receipt', today).reasons).toEqual(expect.arrayContaining(['base + tax = total does not add up', 'Σ VAT lines = tax does not add up']));
    expect(readyCheck({ ...complete(), issue_date: v('2024-07-01') }, 'receipt', today).reasons).toContain('issue date is in the future');
    expect(readyCheck({ ...complete(), issue_date: v('2024-02-30') }, 'receipt', today).reasons).toContain('issue date is not a valid date');
    const bare: ExtractedFields = { supplier_name: v('A'), document_id: v('1'), issue_date: v('2024-01-01'), amount_total: v('5.00'), vat_lines: [], line_items: [] };
    expect(readyCheck(bare, 'receipt', today)).toMatchObject({ ready: false, reasons: ['no arithmetic check could be made'] });
  });

  it('goes to review with an amount the edit screen would refuse: one past 12 digits before the point', () => {
    const huge = { ...complete(), amount_total: v('1000000000121.00'), amount_total_base: v('1000000000100.00'), line_items: [], vat_lines: [] };
    expect(readyCheck(huge, 'receipt', today).reasons).toEqual(expect.arrayContaining(['total is not a valid amount', 'net is not a valid amount']));
    const largest = { ...complete(), amount_total: v('999999999999.99'), amount_total_base: v('999999999978.99'), line_items: [], vat_lines: [] };
    expect(readyCheck(largest, 'receipt', today).reasons).toEqual([]);
  });

  it('needs a check of the total itself: the VAT lines adding up to the tax leave a misread total unseen', () => {
    const summary = { vat_rate: v('6'), amount_net: v('147.17'), amount_vat: v('8.83') };
    const taxOnly: ExtractedFields = { ...complete(), amount_total: v('756.00'), amount_total_base: undefined, amount_tax: v('8.83'), vat_lines: [{ vat_rate: v('6'), amount_vat: v('8.83') }], line_items: [] };
    expect(readyCheck(taxOnly, 'receipt', today)).toMatchObject({ ready: false, reasons: ['no arithmetic check of the total could be made'], checks: ['Σ VAT lines = tax'] });
    // A tax summary of net and VAT without its gross checks the total as the gross would.
    const right: ExtractedFields = { ...taxOnly, amount_total: v('156.00'), vat_lines: [summary] };
    expect(readyCheck(right, 'receipt', today)).toMatchObject({ ready: true, checks: ['Σ VAT lines = tax', 'Σ VAT-line net + VAT = total'] });
    expect(readyCheck({ ...right, amount_total: v('756.00') }, 'receipt', today).reasons).toEqual(['Σ VAT-line net + VAT = total does not add up']);
  });
});

describe('ready rule and the items that add up to the net', () => {
  const today = '2027-06-01';
  // Net total 3,040.00 / VAT 21% 638.40 / Total 3,678.40, with the net read for the total.
  const netAsTotal = (extra: Partial<ExtractedFields> = {}): ExtractedFields => ({
    supplier_name: v('Datenwerk Solutions GmbH'),
    document_id: v('DW-2026-0417'),
    issue_date: v('2026-11-25'),
    amount_total: v('3040.00'),
    vat_lines: [],
    line_items: [{ total_price: v('1200.00') }, { total_price: v('1140.00') }, { total_price: v('700.00') }],
    ...extra,
  });
  const ratedItems = netAsTotal().line_items.map((li) => ({ ...li, vat_rate: v('21') }));

  it('takes no items that print their own VAT rate, added up, for a check of the total', () => {
    expect(readyCheck(netAsTotal({ line_items: ratedItems }), 'invoice', today)).toMatchObject({
      ready: false,
      checks: ['Σ line items (before tax) = total'],
      reasons: expect.arrayContaining(['no arithmetic check of the total could be made']),
    });
    // Right, with the tax read: base + tax = total checks it.
    const right = netAsTotal({ customer_name: v('UAB Baltijos duomenys'), amount_total: v('3678.40'), amount_total_base: v('3040.00'), amount_tax: v('638.40'), line_items: ratedItems });
    expect(readyCheck(right, 'invoice', today)).toMatchObject({ ready: true, checks: ['base + tax = total', 'Σ line items = base'] });
  });

  it('takes no items whose sum times a printed rate is the tax, added up, for a check of the total', () => {
    const onTop = netAsTotal({ amount_tax: v('638.40'), vat_lines: [{ vat_rate: v('21'), amount_vat: v('638.40') }] });
    expect(readyCheck(onTop, 'receipt', today)).toMatchObject({ ready: false, reasons: ['no arithmetic check of the total could be made'] });
    // A tax included in the items' amounts (6 % of 4.00 incl. is 0.23) leaves their sum a check of the total.
    const included = netAsTotal({ amount_total: v('4.00'), amount_tax: v('0.23'), vat_lines: [{ vat_rate: v('6'), amount_vat: v('0.23') }], line_items: [{ total_price: v('4.00') }] });
    expect(readyCheck(included, 'receipt', today)).toMatchObject({ ready: true, checks: ['Σ VAT lines = tax', 'Σ line items = total'] });
  });

  it('takes items that add up to the base for a check of the base, not of the total', () => {
    const baseOnly = netAsTotal({ amount_total: v('3678.40'), amount_total_base: v('3040.00') });
    expect(readyCheck(baseOnly, 'receipt', today)).toMatchObject({ ready: false, checks: ['Σ line items = base'], reasons: ['no arithmetic check of the total could be made'] });
  });
});

describe('ready rule and cash rounding', () => {
  const today = '2024-06-01';
  // SUB TOTAL 7.00, GST 6 % 0.42, ROUNDING ADJ -0.02, NET TOTAL 7.40.
  const rounded = (total: string): ExtractedFields => ({
    supplier_name: v('B & BEST RESTAURANT'),
    document_id: v('00118887'),
    issue_date: v('2018-03-18'),
    amount_total: v(total),
    amount_total_base: v('7.00'),
    amount_tax: v('0.42'),
    vat_lines: [{ vat_rate: v('6'), amount_net: v('7.00'), amount_vat: v('0.42'), amount_gross: v('7.42') }],
    line_items: [{ total_price: v('3.50') }, { total_price: v('3.50') }],
  });

  it('takes a total that is the sum rounded to the nearest 5 cents as adding up', () => {
    expect(readyCheck(rounded('7.40'), 'receipt', today)).toMatchObject({ ready: true, reasons: [] });
    const summary = { vat_rate: v('6'), amount_net: v('7.00'), amount_vat: v('0.42') };
    expect(readyCheck({ ...rounded('7.40'), vat_lines: [summary] }, 'receipt', today).ready).toBe(true);
  });

  it('still sends a total off by more than the rounding to review', () => {
    // 7.42 rounds to 7.40, never to 7.45 nor 7.35.
    for (const total of ['7.45', '7.35', '7.50']) {
      expect(readyCheck(rounded(total), 'receipt', today).reasons).toContain('Σ VAT-line gross = total does not add up');
    }
  });
});

describe('content helpers', () => {
  it('moves the counterparty between supplier and customer when the type changes', () => {
    const fields: ExtractedFields = { supplier_name: v('ACME UAB'), supplier_code: v('123456789'), customer_name: v('Buyer UAB'), vat_lines: [], line_items: [] };
    const content = buildContentFromExtraction(fields);
    const swapped = swapCounterpartyContent(content);
    expect(valueOf(swapped, 'customer_name')).toBe('ACME UAB');
    expect(valueOf(swapped, 'customer_code')).toBe('123456789');
    expect(valueOf(swapped, 'supplier_name')).toBe('Buyer UAB');
    expect(valueOf(swapped, 'supplier_code')).toBe('');
    // The original is untouched, and swapping back restores it.
    expect(valueOf(content, 'supplier_name')).toBe('ACME UAB');
    expect(valueOf(swapCounterpartyContent(swapped), 'supplier_name')).toBe('ACME UAB');
  });

  it('converting keeps the parties where they are when only the type was wrong, else moves the counterparty', () => {
    const build = (f: Partial<ExtractedFields>) => buildContentFromExtraction({ vat_lines: [], line_items: [], ...f });
    // A cost receipt uploaded as a sales invoice: its seller read as the supplier, no customer. As a receipt it keeps
    // the seller as its supplier (moving it would leave the receipt without one).
    const misTyped = build({ supplier_name: v('AEON CO. (M) BHD'), supplier_vat_id: v('002017394688') });
    const asReceipt = contentForType(misTyped, 'receipt');
    expect([valueOf(asReceipt, 'supplier_name'), valueOf(asReceipt, 'supplier_vat_id'), valueOf(asReceipt, 'customer_name')]).toEqual(['AEON CO. (M) BHD', '002017394688', '']);
    // A receipt's supplier becomes an invoice's customer: the counterparty stays the counterparty, both ways
    const asInvoice = contentForType(misTyped, 'invoice');
    expect([valueOf(asInvoice, 'customer_name'), valueOf(asInvoice, 'supplier_name')]).toEqual(['AEON CO. (M) BHD', '']);
    expect(valueOf(contentForType(asInvoice, 'receipt'), 'supplier_name')).toBe('AEON CO. (M) BHD');
    // Both sides named: the counterparty moves, as before
    const both = build({ supplier_name: v('ACME UAB'), customer_name: v('Buyer UAB') });
    expect([valueOf(contentForType(both, 'invoice'), 'customer_name'), valueOf(contentForType(both, 'invoice'), 'supplier_name')]).toEqual(['ACME UAB', 'Buyer UAB']);
    // a customer named by its code alone counts as named
    const byCode = build({ customer_code: v('123456789') });
    expect(valueOf(contentForType(byCode, 'invoice'), 'customer_code')).toBe('123456789');
  });

  it('makes a duplicate key only from counterparty, number and total', () => {
    expect(documentKeyText({ counterparty_name: 'Ąžuolas, UAB', document_number: 'inv-7 ', total: '10.00' })).toBe('azuolasuab|INV7|10.00');
    expect(documentKeyText({ counterparty_name: 'A', document_number: '', total: '10.00' })).toBeNull();
  });
});
