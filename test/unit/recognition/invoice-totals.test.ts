import { describe, expect, it } from 'vitest';
import { extractTotals } from '../../../lambdas/core/recognition/extract/totals';
import { extractVatLines } from '../../../lambdas/core/recognition/extract/vat-lines';
import { textRows } from './helpers';

const picked = (t: ReturnType<typeof extractTotals>) => [t.total?.value, t.subtotal?.value, t.tax?.value];

describe('invoice totals as suppliers print them', () => {
  it('takes a net total followed by its tax and their sum for the base, the sum for the total', () => {
    const rows = textRows(['Net total:              3,040.00 EUR', 'VAT 21%:                  638.40 EUR', 'Total:                  3,678.40 EUR']);
    // The items add up to the net: no support for it either.
    expect(picked(extractTotals(rows, { itemsSum: 3040 }))).toEqual(['3678.40', '3040.00', '638.40']);
    // A till's "NETT TOTAL" below the tax is still the amount paid.
    expect(picked(extractTotals(textRows(['SUBTOTAL     10.00', 'GST 6%        0.60', 'NETT TOTAL   10.60', 'CASH         20.00', 'CHANGE        9.40'])))).toEqual([
      '10.60',
      '10.00',
      '0.60',
    ]);
  });

  it("reads a credit note's negative total, base and tax", () => {
    const rows = textRows(['Suma be PVM:        -608,00', 'PVM 21 %:           -127,68', 'Iš viso su PVM:     -735,68']);
    const t = extractTotals(rows, { itemsSum: -608 });
    expect(picked(t)).toEqual(['-735.68', '-608.00', '-127.68']);
    expect(t.reasons).toContain('credit');
    // A negative amount among positive totals makes no credit note (a credit of some supplies on a receipt: totals.test).
    const mixed = extractTotals(textRows(['Total 0% supplies:   39.01', 'Total 6% supplies (excl. GST):   -17.73', 'GST:   -1.07', 'Total Payable:   20.21']));
    expect([mixed.total?.value, mixed.reasons]).toEqual(['20.21', expect.not.arrayContaining(['credit'])]);
  });

  const multiRate = ['Suma be PVM:         529,30', 'PVM 21 %:             45,99', 'PVM 9 %:              18,50', 'PVM 5 %:               1,24', 'PVM 0 %:               0,00', 'Iš viso su PVM:      595,03'];

  it('adds up the taxes printed one line per rate to the tax that, with the base, makes the total', () => {
    expect(picked(extractTotals(textRows(multiRate)))).toEqual(['595.03', '529.30', '65.73']);
    // Rate lines that do not add up with the base to the total name no tax.
    const off = extractTotals(textRows(multiRate.map((l) => l.replace('18,50', '18,60'))));
    expect([off.subtotal?.value, off.tax?.value]).toEqual([undefined, undefined]);
  });

  it('reads one-amount rate lines as VAT lines where together they make the tax', () => {
    const lines = extractVatLines(textRows(multiRate), { subtotal: 529.3, tax: 65.73, total: 595.03 });
    expect(lines.map((l) => [l.rate, l.vat, l.net])).toEqual([
      [21, 45.99, undefined],
      [9, 18.5, undefined],
      [5, 1.24, undefined],
    ]);
    // Not where they do not.
    expect(extractVatLines(textRows(multiRate), { subtotal: 529.3, tax: 60, total: 589.3 })).toEqual([]);
  });

  it('takes the total before a payment, not the balance left to pay', () => {
    const rows = textRows(['Subtotal              1,000.00', 'VAT 21%                 210.00', 'Total                 1,210.00', 'Amount paid             500.00', 'Balance due             710.00']);
    expect(picked(extractTotals(rows, { itemsSum: 1000 }))).toEqual(['1210.00', '1000.00', '210.00']);
    // Nothing paid in between: the amount due is the total.
    expect(extractTotals(textRows(['Subtotal   1,000.00', 'VAT 21%   210.00', 'Balance due   1,210.00'])).total?.value).toBe('1210.00');
  });
});

describe('totals labels as German, Latvian, Estonian and Polish suppliers print them', () => {
  it.each([
    ['Summe netto:', 'USt. 20 %:', 'Gesamtbetrag:'],
    ['Zwischensumme:', 'MwSt. 20 %:', 'Rechnungsbetrag:'],
    ['Nettobetrag:', 'USt. 20 %:', 'Zu zahlen:'],
    ['Summa bez PVN:', 'PVN 20 %:', 'Kopā apmaksai:'],
    ['Kokku käibemaksuta:', 'Käibemaks 20 %:', 'Tasuda:'],
    ['Razem netto:', 'VAT 20 %:', 'Do zapłaty:'],
  ])('reads "%s", "%s" and "%s" as the base, the tax and the total', (base, tax, total) => {
    const rows = textRows([`${base.padEnd(40)}22,00`, `${tax.padEnd(41)}4,40`, `${total.padEnd(40)}26,40`]);
    expect(picked(extractTotals(rows))).toEqual(['26.40', '22.00', '4.40']);
  });
});
