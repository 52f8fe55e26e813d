import { describe, expect, it } from 'vitest';
import { buildIsaf, documentTotals } from '../../../lambdas/core/export/isaf';
import { accountingLines } from '../../../lambdas/core/integrations/lines';
import { buildNsoftCsv, nsoftRows } from '../../../lambdas/core/integrations/nsoft';
import { rivileRecords } from '../../../lambdas/core/integrations/rivile';
import { exportDoc } from './fixtures';

const sum = (values: string[]) => (Math.round(values.reduce((s, v) => s + Math.round(Number(v) * 100), 0)) / 100).toFixed(2);
const options = { registrationNumber: '304999999', createdAt: new Date('2026-03-01T08:00:00Z'), software: { company: 'Receipts Capture', name: 'Receipts Capture', version: '0.1.0' } };

/** What Rivile (I07) and NSOFT (rows) book for the document: net, VAT and gross sums, and NSOFT's DOC_TOTAL. */
function booked(doc: ReturnType<typeof exportDoc>) {
  const i07 = rivileRecords(doc).i06.I07;
  const rows = nsoftRows(doc);
  return {
    rivile: { net: sum(i07.map((l) => l.I07_SUMA)), vat: sum(i07.map((l) => l.I07_PVM)) },
    nsoft: { net: sum(rows.map((r) => r.NET_AMOUNT)), vat: sum(rows.map((r) => r.VAT_AMOUNT)), gross: sum(rows.map((r) => r.GROSS_AMOUNT)), docTotal: rows[0]!.DOC_TOTAL },
  };
}

// A shop receipt of 10 items at 0.99 EUR gross, 21 %, printed as 8.18 + 1.72 = 9.90.
const shopReceipt = exportDoc({
  fields: { document_id: 'KVITAS-77', issue_date: '2025-10-07', supplier_name: 'UAB Maxima LT', supplier_code: '123033512', amount_total_base: '8.18', amount_tax: '1.72', amount_total: '9.90' },
  lineItems: Array.from({ length: 10 }, (_, i) => ({ description: `Bandelė ${i}`, quantity: '1', vat_rate: '21', total_price: '0.99' })),
  vatLines: [{ vat_line_rate: '21', vat_line_base: '8.18', vat_line_tax: '1.72', vat_line_total: '9.90' }],
});

describe('accounting lines: the document VAT and net per rate to the cent, as i.SAF', () => {
  it('books the shop receipt of 10 x 0.99 gross as 8.18 net and 1.72 VAT in Rivile and NSOFT, as i.SAF reports it', () => {
    expect(documentTotals(shopReceipt, '2025-10-07')).toEqual([expect.objectContaining({ taxableValue: '8.18', amount: '1.72' })]);
    expect(buildIsaf([shopReceipt], options)).toContain('<TaxableValue>8.18</TaxableValue>');
    expect(booked(shopReceipt)).toEqual({ rivile: { net: '8.18', vat: '1.72' }, nsoft: { net: '8.18', vat: '1.72', gross: '9.90', docTotal: '9.90' } });
    // Still the ten line items, the rounding difference on one of them.
    const lines = accountingLines(shopReceipt, '2025-10-07');
    expect(lines).toHaveLength(10);
    expect(lines.every((l) => !l.fromTotals)).toBe(true);
    expect(lines.filter((l) => l.net !== 0.82 || l.tax !== 0.17)).toHaveLength(1);
  });

  it('puts the VAT of many small net lines rounded one by one right: 30 x 0.05 and 120 x 0.335 x 0.15', () => {
    const small = exportDoc({
      fields: { document_id: 'SMALL-0', issue_date: '2025-10-16', supplier_name: 'Kavinė', amount_total_base: '1.50', amount_tax: '0.32', amount_total: '1.82' },
      lineItems: Array.from({ length: 30 }, (_, i) => ({ description: `Item ${i}`, quantity: '1', vat_rate: '21', total_price: '0.05' })),
      vatLines: [{ vat_line_rate: '21', vat_line_base: '1.50', vat_line_tax: '0.32', vat_line_total: '1.82' }],
    });
    expect(booked(small)).toEqual({ rivile: { net: '1.50', vat: '0.32' }, nsoft: { net: '1.50', vat: '0.32', gross: '1.82', docTotal: '1.82' } });
    const big = exportDoc({
      type: 'invoice',
      fields: { document_id: 'PARD-2025-BIG', issue_date: '2025-10-31', customer_name: 'UAB Pirkėjas', amount_total_base: '6.00', amount_tax: '1.26', amount_total: '7.26' },
      lineItems: Array.from({ length: 120 }, (_, i) => ({ product_code: `P-${i}`, description: `Varžtas ${i}`, quantity: '0.335', unit_price_without_vat: '0.15', vat_rate: '21', total_price: '0.05' })),
      vatLines: [{ vat_line_rate: '21', vat_line_base: '6.00', vat_line_tax: '1.26', vat_line_total: '7.26' }],
    });
    expect(booked(big)).toEqual({ rivile: { net: '6.00', vat: '1.26' }, nsoft: { net: '6.00', vat: '1.26', gross: '7.26', docTotal: '7.26' } });
    expect(rivileRecords(big).i06.I07).toHaveLength(120);
  });

  it('matches each rate of a document of two rates on its own, the rounding difference on the first largest line', () => {
    const doc = exportDoc({
      fields: { document_id: 'TWO-1', issue_date: '2025-10-07', supplier_name: 'UAB Maxima LT', amount_total_base: '1.64', amount_tax: '0.24', amount_total: '1.88' },
      lineItems: [
        { description: 'Bread', quantity: '1', vat_rate: '21', total_price: '0.41' },
        { description: 'Milk', quantity: '1', vat_rate: '21', total_price: '0.41' },
        { description: 'Book', quantity: '1', vat_rate: '9', total_price: '0.41' },
        { description: 'Map', quantity: '1', vat_rate: '9', total_price: '0.41' },
      ],
      vatLines: [
        { vat_line_rate: '21', vat_line_base: '0.82', vat_line_tax: '0.17' },
        { vat_line_rate: '9', vat_line_base: '0.82', vat_line_tax: '0.07' },
      ],
    });
    const lines = accountingLines(doc, '2025-10-07');
    expect(lines.map((l) => [l.rate, l.net, l.tax])).toEqual([
      [21, 0.41, 0.08],
      [21, 0.41, 0.09],
      [9, 0.41, 0.03],
      [9, 0.41, 0.04],
    ]);
  });

  it('checks a document without VAT lines against its net and VAT totals as a whole: line items of two rates are booked', () => {
    const doc = exportDoc({
      fields: { document_id: 'NV-1', issue_date: '2025-10-07', supplier_name: 'UAB Maxima LT', amount_total_base: '200.00', amount_tax: '30.00', amount_total: '230.00' },
      lineItems: [
        { description: 'A', quantity: '1', vat_rate: '21', total_price: '100.00' },
        { description: 'B', quantity: '1', vat_rate: '9', total_price: '100.00' },
      ],
    });
    expect(accountingLines(doc, '2025-10-07').map((l) => [l.net, l.rate, l.tax, l.taxCode, l.fromTotals])).toEqual([
      [100, 21, 21, 'PVM1', false],
      [100, 9, 9, 'PVM2', false],
    ]);
    expect(booked(doc).nsoft).toEqual({ net: '200.00', vat: '30.00', gross: '230.00', docTotal: '230.00' });
  });

  it('books the VAT totals when a rate differs by more than a cent per line, even when the sums over all rates agree', () => {
    // The line rates are swapped against the VAT lines: 100 at 21 % and 50 at 9 % read as 50 at 21 % and 100 at 9 %.
    const swapped = exportDoc({
      fields: { document_id: 'SW-1', issue_date: '2025-10-07', supplier_name: 'UAB Maxima LT', amount_total_base: '150.00', amount_tax: '25.50', amount_total: '175.50' },
      lineItems: [
        { description: 'A', quantity: '1', vat_rate: '21', total_price: '50.00' },
        { description: 'B', quantity: '1', vat_rate: '9', total_price: '100.00' },
      ],
      vatLines: [
        { vat_line_rate: '21', vat_line_base: '100.00', vat_line_tax: '21.00' },
        { vat_line_rate: '9', vat_line_base: '50.00', vat_line_tax: '4.50' },
      ],
    });
    expect(accountingLines(swapped, '2025-10-07')).toEqual([
      expect.objectContaining({ net: 100, tax: 21, rate: 21, fromTotals: true }),
      expect.objectContaining({ net: 50, tax: 4.5, rate: 9, fromTotals: true }),
    ]);
  });

  it('books the VAT totals when the line VAT amounts as read do not give the document VAT', () => {
    const doc = exportDoc({
      fields: { document_id: 'V-1', issue_date: '2025-10-07', supplier_name: 'UAB Maxima LT', amount_total_base: '100.00', amount_tax: '21.00', amount_total: '121.00' },
      lineItems: [
        { description: 'A', quantity: '1', vat_rate: '21', vat: '12.10', total_price: '50.00' },
        { description: 'B', quantity: '1', vat_rate: '21', vat: '10.50', total_price: '50.00' },
      ],
      vatLines: [{ vat_line_rate: '21', vat_line_base: '100.00', vat_line_tax: '21.00' }],
    });
    expect(accountingLines(doc, '2025-10-07')).toEqual([expect.objectContaining({ net: 100, tax: 21, fromTotals: true })]);
  });
});

describe('accounting lines: no tolerance that grows with the amount', () => {
  it('books the VAT totals when one line was misread as 9,009.00 instead of 9,000.00 on a document of 10,000.00 net', () => {
    const doc = exportDoc({
      fields: { document_id: 'PP-10K', issue_date: '2025-10-07', supplier_name: 'UAB Statyba', supplier_code: '302222222', amount_total_base: '10000.00', amount_tax: '2100.00', amount_total: '12100.00' },
      lineItems: [
        { description: 'Concrete', quantity: '1', vat_rate: '21', total_price: '9009.00' },
        { description: 'Delivery', quantity: '1', vat_rate: '21', total_price: '1000.00' },
      ],
      vatLines: [{ vat_line_rate: '21', vat_line_base: '10000.00', vat_line_tax: '2100.00' }],
    });
    expect(rivileRecords(doc).i06.I07).toEqual([expect.objectContaining({ I07_KODAS: 'RC-PVM1', I07_SUMA: '10000.00', I07_PVM: '2100.00' })]);
    expect(booked(doc).nsoft).toEqual({ net: '10000.00', vat: '2100.00', gross: '12100.00', docTotal: '12100.00' });
  });

  it('books the VAT totals when gross line totals are off by more than a cent per line', () => {
    const doc = exportDoc({
      fields: { document_id: 'G-1', issue_date: '2025-10-07', supplier_name: 'UAB Maxima LT', amount_total_base: '8.18', amount_tax: '1.72', amount_total: '9.90' },
      lineItems: [
        { description: 'A', quantity: '1', vat_rate: '21', total_price: '4.95' },
        { description: 'B', quantity: '1', vat_rate: '21', total_price: '4.98' },
      ],
      vatLines: [{ vat_line_rate: '21', vat_line_base: '8.18', vat_line_tax: '1.72' }],
    });
    expect(accountingLines(doc, '2025-10-07')).toEqual([expect.objectContaining({ net: 8.18, tax: 1.72, fromTotals: true })]);
  });
});

describe('accounting lines: the names of lines made from the VAT totals', () => {
  it('names them by the document category, never by the i.SAF invoice type (SF, KS)', () => {
    const doc = { ...exportDoc({ fields: { document_id: 'F-1', issue_date: '2025-10-07', supplier_name: 'UAB Degalai', document_category: 'SF', amount_total: '121.00', amount_tax: '21.00' } }), category: 'Kuras' };
    expect(rivileRecords(doc).i06.I07).toEqual([expect.objectContaining({ I07_PAV: 'Kuras' })]);
    expect(nsoftRows(doc)).toEqual([expect.objectContaining({ ITEM_NAME: 'Kuras' })]);
    const uncategorised = { ...doc, category: null };
    expect(rivileRecords(uncategorised).i06.I07).toEqual([expect.objectContaining({ I07_PAV: 'Services' })]);
    expect(nsoftRows(uncategorised)).toEqual([expect.objectContaining({ ITEM_NAME: '' })]);
  });
});

describe('Rivile and NSOFT: the currency code as i.SAF reads it', () => {
  it('writes €, eur and no currency as EUR and other codes trimmed in upper case', () => {
    const inCurrency = (currency: string) => exportDoc({ fields: { document_id: 'C-1', issue_date: '2025-10-07', supplier_name: 'Seller', amount_total: '121.00', amount_tax: '21.00', currency } });
    for (const [typed, code] of [
      ['€', 'EUR'],
      [' eur ', 'EUR'],
      ['', 'EUR'],
      [' usd', 'USD'],
    ] as const) {
      expect(rivileRecords(inCurrency(typed)).i06.I06_VAL_KODAS).toBe(code);
      expect(nsoftRows(inCurrency(typed))[0]!.CURRENCY).toBe(code);
    }
    expect(buildNsoftCsv(inCurrency('€'))).toContain(';EUR;');
  });
});
