import { describe, expect, it } from 'vitest';
import { currencyFromText, findAmounts, findRates, formatAmount, parseAmount } from '../../../lambdas/core/recognition/extract/amounts';

describe('amounts', () => {
  it.each([
    ['9.00', 9],
    ['1,234.56', 1234.56],
    ['1.234,56', 1234.56],
    ['1 234,56', 1234.56],
    ['1\u00a0234,56', 1234.56],
    ["1'234.56", 1234.56],
    ['RM8.60', 8.6],
    ['RM 14.10', 14.1],
    ['RM.34.80', 34.8],
    ['Total Incl. GST@6% RM.34.80', 34.8],
    ['$8.20', 8.2],
    ['€ 12,50', 12.5],
    ['12,50 EUR', 12.5],
    ['-0.02', -0.02],
    ['-.02', -0.02],
    ['0.02-', -0.02],
    ['(3.00)', -3],
    ['15.56SR', 15.56],
    ['TOTAL : 1,007.50', 1007.5],
    ['Suma be PVM: 348,60 EUR', 348.6],
    // One group of thousands before two decimals, its comma read as a full stop (or the other way round).
    ['122 pcs @ 18.90  2.305.80 SR', 2305.8],
    ['2,305,80', 2305.8],
  ])('%s → %d', (text, value) => {
    expect(parseAmount(text)).toBeCloseTo(value, 6);
  });

  it.each([['Tel 03-5121 3881'], ['TD01167104'], ['1.234.567.89'], ['1,234,567,89'], ['ABC'], ['25/12/2018']])('finds no money amount in %s', (text) => {
    expect(findAmounts(text)).toEqual([]);
  });

  it('reads an amount with letters read for some of its digits', () => {
    expect(findAmounts('TOTAL 1O.00').map((a) => a.value)).toEqual([10]);
    expect(findAmounts('Total: l5.90  RM2B.50  Z4.I0').map((a) => a.value)).toEqual([15.9, 28.5, 24.1]);
    // A 6 read as b and a 9 as g, as in dates.
    expect(findAmounts('TOTAL 1b.90 RM4g.50').map((a) => a.value)).toEqual([16.9, 49.5]);
    expect(findAmounts('ROUNDING O.05 O.OO').map((a) => a.raw)).toEqual(['0.05']);
    // An S in front is as often a dollar sign; words, codes and letters alone stay text.
    expect(findAmounts('Nett Total: S8.20').map((a) => a.value)).toEqual([8.2]);
    expect(findAmounts('NO.12 SO.OO BIO.SO OIL.50')).toEqual([]);
  });

  it('does not join a quantity and an amount into thousands', () => {
    expect(findAmounts('3 210.00').map((a) => a.value)).toEqual([210]);
    // A count, a quantity and an amount: digits before the space-grouped number make them columns.
    expect(findAmounts('1 3 210.00 EUR').map((a) => a.value)).toEqual([210]);
    // A count with its mark glued to it ("*4", "x2") before the amount.
    expect(findAmounts('FM4 T1000055 *4 252.00 ZR').map((a) => a.value)).toEqual([252]);
    expect(findAmounts('x2 100.80').map((a) => a.value)).toEqual([100.8]);
    // Cells joined by two spaces stay apart even with a decimal comma.
    expect(findAmounts('21  147,00').map((a) => a.value)).toEqual([147]);
  });

  it('reads thousands grouped by spaces before a decimal point as one number', () => {
    expect(findAmounts('Total  EUR 15 100.80').map((a) => [a.value, a.raw])).toEqual([[15100.8, 'EUR 15 100.80']]);
    expect(findAmounts('Subtotal  1 234 567.89 EUR').map((a) => a.value)).toEqual([1234567.89]);
  });

  it('reads integers and thousands only when asked to', () => {
    expect(findAmounts('Qty 3')).toEqual([]);
    expect(findAmounts('Qty 3', { requireDecimals: false })[0]!.value).toBe(3);
    expect(findAmounts('1,234', { requireDecimals: false })[0]!.value).toBe(1234);
    expect(findAmounts('0,125', { requireDecimals: false })[0]!.value).toBe(0.125);
  });

  it('reads a point and three decimals alone as a decimal quantity, as a value stored with a point reads back', () => {
    expect(findAmounts('52.114', { requireDecimals: false }).map((a) => a.value)).toEqual([52.114]);
    expect(findAmounts('1.459', { requireDecimals: false }).map((a) => a.value)).toEqual([1.459]);
    expect(findAmounts('1.459')).toEqual([]);
  });

  it('takes no size printed with its unit for an amount', () => {
    expect(findAmounts('COCA COLA 0.75L  12.50').map((a) => a.value)).toEqual([12.5]);
    expect(findAmounts('FOIL 30CM*7.62M  *S')).toEqual([]);
    expect(findAmounts('BERAS 1.50KG  3.00 SR').map((a) => a.value)).toEqual([3]);
    // A quantity with its unit stays a quantity where numbers without decimals are asked for.
    expect(findAmounts('2.5KG', { requireDecimals: false }).map((a) => a.value)).toEqual([2.5]);
    // A tax code or a tax class after an amount stays an amount, as does a unit after a space or a currency.
    expect(findAmounts('15.56SR  12.50 L  RM7.62M').map((a) => a.value)).toEqual([15.56, 12.5, 7.62]);
    // A unit written out is one after a space too: a pump's litres ("35.10 LITRE PUMP # 02").
    expect(findAmounts('35.10 LITRE PUMP # 02')).toEqual([]);
    expect(findAmounts('1.250 KG  12.50').map((a) => a.value)).toEqual([12.5]);
  });

  it('takes no time of day before AM or PM for an amount', () => {
    expect(findAmounts('MON-SAT 7.30AM-6.00PM')).toEqual([]);
    expect(findAmounts('SUN 7.30 am - 2.00 pm')).toEqual([]);
    // Not with a currency, nor past twelve hours or sixty minutes.
    expect(findAmounts('RM6.00 PM  13.00 PM  6.75PM').map((a) => a.value)).toEqual([6, 13, 6.75]);
  });

  it('reads cents after a currency and its full stop, the leading zero left out', () => {
    expect(findAmounts('2485 LABOOST DRINKING WATER  RM.50 S').map((a) => a.value)).toEqual([0.5]);
    expect(findAmounts('RM.34.80').map((a) => a.value)).toEqual([34.8]);
    expect(findAmounts('RM.500')).toEqual([]);
  });

  it('keeps the currency printed with an amount', () => {
    expect(findAmounts('RM8.60')[0]!.currency).toBe('MYR');
    expect(findAmounts('12,50 €')[0]!.currency).toBe('EUR');
    expect(currencyFromText('Total due (EUR): 260.25')).toBe('EUR');
    expect(currencyFromText('Iš viso: 10,00 Eur')).toBe('EUR');
    expect(currencyFromText('TOTAL RM 9.00')).toBe('MYR');
    expect(currencyFromText('TOTAL 9.00')).toBeUndefined();
    // The ringgit's RM in brackets after a column's label, or as a column's header.
    expect(currencyFromText('GST Summary  Amount(RM)  Tax (RM)')).toBe('MYR');
    expect(currencyFromText('QTY  RM  RM CODE')).toBe('MYR');
    expect(currencyFromText('FORM 12 ARMY')).toBeUndefined();
  });

  it('formats amounts with two decimals, more when printed', () => {
    expect(formatAmount(9)).toBe('9.00');
    expect(formatAmount(1234.5)).toBe('1234.50');
    expect(formatAmount(0.1234)).toBe('0.1234');
    expect(formatAmount(-0.02)).toBe('-0.02');
  });

  it('finds VAT rates', () => {
    expect(findRates('PVM 21 %: 73,21').map((r) => r.value)).toEqual([21]);
    expect(findRates('GST @6%').map((r) => r.value)).toEqual([6]);
    expect(findRates('SR @ 5,5 %').map((r) => r.value)).toEqual([5.5]);
    expect(findRates('DISC 130%')).toEqual([]);
  });
});
