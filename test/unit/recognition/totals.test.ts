import { describe, expect, it } from 'vitest';
import { classifyLabel, extractTotals, isCashRounding } from '../../../lambdas/core/recognition/extract/totals';
import { checkTotals, extractVatLines, vatMatches } from '../../../lambdas/core/recognition/extract/vat-lines';
import { extractDocument } from '../../../lambdas/core/recognition/extract';
import { textDocument, textRows } from './helpers';

describe('receipt totals', () => {
  it.each([
    ['TOTAL', 'total'],
    ['NETT TOTAL', 'total_final'],
    ['GRAND TOTAL', 'total_final'],
    ['TOTAL SALES (INCLUSIVE OF GST)', 'total_final'],
    ['TOTAL SALES (EXCLUDING GST)', 'subtotal'],
    ['SUB-TOTAL', 'subtotal'],
    ['Suma be PVM', 'subtotal'],
    ['Iš viso su PVM', 'total_final'],
    ['Mokėtina suma', 'total_final'],
    ['ROUNDING ADJ', 'rounding'],
    ['Rounding', 'rounding'],
    // An item whose name holds the letters of a rounding label is no rounding.
    ['B. Bean Bitterground Fish Head (S)', 'none'],
    ['CASH', 'paid'],
    ['CHANGE', 'change'],
    ['TOTAL QTY', 'ignore'],
    ['GST SUMMARY', 'ignore'],
    ['GST 6%', 'tax'],
    ['VAT total', 'tax'],
    ['PVM 21 %', 'tax'],
    // OCR slips: one letter, or T read as I in thin print.
    ['T0TAL', 'total'],
    ['IUIAL', 'total'],
    ['SUBIUIAL', 'subtotal'],
    ['CHANCE', 'change'],
    // An amount including the tax is no tax, its "Total" misread or not; "excl ." spaced as read.
    ['1 6% supplies (Inc. GST)', 'total'],
    ['Total 6% supplies (excl . GST)', 'subtotal'],
    // Not label words however read.
    ['VITAL', 'none'],
    ['DIGITAL', 'none'],
  ])('label %s is %s', (label, kind) => {
    expect(classifyLabel(label).kind).toBe(kind);
  });

  it("takes no table's column headers (Qty read Oty) for the label of the first item's amount", () => {
    const t = extractTotals(
      textRows(['Oty  Description   Total  TAX', '1    D      8.00  SR', 'Omellete Item', '1    D     15.00  SR', 'Noodle Item', 'TOTAL :  23.00', 'CASH :  23.00']),
    );
    expect([t.total?.value, t.tax?.value]).toEqual(['23.00', undefined]);
  });

  it('adds up the bases of supplies printed per tax rate to the base that, with the tax, makes the total', () => {
    const t = extractTotals(
      textRows([
        'O.C. WHITE   2.13   12   25.56',
        'Total 0% supplies:          54.31',
        'TWIG-CHOC    1.33   10   13.30',
        'Total 6% supplies (excl. GST):   13.30',
        'GST:                         0.80',
        'Total 6% supplies (Inc. GST):   14.10',
        'Total 0% supplies:          54.31',
        'Total Payable:              68.41',
      ]),
    );
    expect([t.total?.value, t.subtotal?.value, t.tax?.value]).toEqual(['68.41', '67.61', '0.80']);
    // A credit: negative supplies and tax.
    const credit = extractTotals(
      textRows(['Total 0% supplies:   39.01', 'Total 6% supplies (excl. GST):   -17.73', 'GST:   -1.07', 'Total 6% supplies (Inc. GST):   -18.80', 'Total Payable:   20.21']),
    );
    expect([credit.total?.value, credit.subtotal?.value, credit.tax?.value]).toEqual(['20.21', '21.28', '-1.07']);
    // A speck read as a minus before the tax: the bases and the tax without it make the total; a minus no sum
    // explains names no tax.
    const withTax = (tax: string) => extractTotals(textRows(['Total 0% supplies:   54.31', 'Total 6% supplies (excl. GST):   13.30', `GST:   ${tax}`, 'Total Payable:   68.41']));
    const speck = withTax('-0.80');
    expect([speck.total?.value, speck.subtotal?.value, speck.tax?.value]).toEqual(['68.41', '67.61', '0.80']);
    const unexplained = withTax('-0.50');
    expect([unexplained.subtotal?.value, unexplained.tax?.value]).toEqual([undefined, undefined]);
  });

  it('takes the rounded total confirmed by cash − change over the unrounded one', () => {
    const t = extractTotals(
      textRows([
        'Sub-total                  127.37',
        'Total Sales Incl GST       127.37',
        'Rounding Adj                -0.02',
        'Total After Adj Incl GST   127.35',
        'CASH                       150.00',
        'Item Count 12   Change Amt  22.65',
        'GST Summary     Amount      Tax',
        'SR @ 0%         127.37      0.00',
        'Total           127.37      0.00',
      ]),
    );
    expect(t.total?.value).toBe('127.35');
    expect(t.reasons).toContain('paid-change');
  });

  it('finds the total from arithmetic when its own label is unreadable', () => {
    const t = extractTotals(
      textRows([
        'ITEM A                      10.00',
        'ITEM B                       6.98',
        'TOTAL TAX                    1.02',
        'T0TA|                       18.00',
        'CASH                        20.00',
        'CHANGE                       2.00',
      ]),
    );
    expect(t.total?.value).toBe('18.00');
  });

  it('uses any labelled amount as the tendered one (ACCEPTED TOTAL − CHANGE)', () => {
    const t = extractTotals(textRows(['TOTAL AMOUNT        1.50', 'ACCEPTED TOTAL      2.00', 'CHANGE              0.50']));
    expect(t.total?.value).toBe('1.50');
  });

  it('takes a total label with a rate over the tax included in a printed amount for the tax, not the total', () => {
    const t = extractTotals(
      textRows(['201026 SCONE - M  1  7.50  0  7.50 S', 'ROUNDING ADJ  0.00', 'DUE  7.50', 'PAY  20.00', 'CHANGE  12.50', '(TOTAL INCLUDED GST @ 6% : 0.42)']),
    );
    expect(t.total?.value).toBe('7.50');
    expect(t.tax?.value).toBe('0.42');
    // A total with a rate that is no such share of another amount stays the total.
    expect(extractTotals(textRows(['SUBTOTAL  20.00', 'GST 6%  1.20', 'TOTAL INCL GST 6%  21.20'])).total?.value).toBe('21.20');
  });

  it('reads a count in brackets after a label as part of it, and a tax table header as no label of one amount', () => {
    expect(classifyLabel('SUBTOTAL (QTY 4)').kind).toBe('subtotal');
    expect(classifyLabel('TOTAL (3 ITEMS)').kind).toBe('total');
    const rows = textRows(['SUBTOTAL (QTY 4)  RM41.43', 'ROUNDING  RM0.02', 'SUBTOTAL (QTY 4)  RM41.45', 'CASH  RM51.50', 'CHANGE CASH  RM10.05', 'RATE  NET(RM) GST(RM)  TOTAL(RM)', 'S 6.00% 39.09  2.34  41.43']);
    expect(extractTotals(rows, { itemsSum: 41.43 }).total?.value).toBe('41.45');
  });

  it('reads DUE alone as the total to pay and PAY as the amount paid', () => {
    expect(classifyLabel('DUE').kind).toBe('total_final');
    expect(classifyLabel('PAY').kind).toBe('paid');
    expect(classifyLabel('AMOUNT DUE').kind).toBe('total_final');
    expect(classifyLabel('DUE DATE').kind).not.toBe('total_final');
    const t = extractTotals(textRows(['KAYA PUFF  4  1.60  6.40 S', 'SLICE CAKE  1  8.70  8.70 S', 'QTY  5  15.10', 'DUE  15.10', 'PAY  15.10', 'CHANGE  0.00']));
    expect(t.total?.value).toBe('15.10');
    expect(t.total!.confidence).toBeGreaterThanOrEqual(90);
  });

  it('takes change printed with a minus after it as given back', () => {
    const rows = textRows(['TOTAL SALES AMOUNT  33.00', 'GST 6%  1.98', 'ROUNDING ADJUSTMENT  0.02', 'TOTAL  35.00', 'CASH  55.00', 'CHANGE RETURNED  20.00-']);
    expect(extractTotals(rows, { itemsSum: 33 }).total?.value).toBe('35.00');
  });

  it('reads the label from the line above when the amount stands alone', () => {
    const t = extractTotals(textRows(['TOTAL :', '9.00', 'PLEASE COME AGAIN']));
    expect(t.total?.value).toBe('9.00');
    expect(t.total?.label?.text).toBe('TOTAL :');
  });

  it('finds subtotal and tax that add up to the total', () => {
    const t = extractTotals(textRows(['Total excl. VAT:     218.80', 'VAT total:            41.45', 'Total due (EUR):     260.25']));
    expect([t.total?.value, t.subtotal?.value, t.tax?.value]).toEqual(['260.25', '218.80', '41.45']);
  });

  it("takes no zero-rated line's tax of 0 for the document's where it prints a positive tax", () => {
    const summary = ['GST Summary   Amount(RM)   GST (RM)', 'S=GST @ 6% :      66.98      4.02', 'Z=GST @ 0% :       0.00      0.00'];
    const t = extractTotals(textRows(['TOTAL              71.00', 'Cash               71.00', 'GST @6%             4.02', ...summary]));
    expect([t.total?.value, t.tax?.value, t.subtotal?.value]).toEqual(['71.00', '4.02', undefined]);
    // A document taxed at 0 only still has its tax of 0 and its total for base.
    const zero = extractTotals(textRows(['TOTAL              71.00', 'Cash               71.00', 'GST @0%             0.00']));
    expect([zero.total?.value, zero.tax?.value, zero.subtotal?.value]).toEqual(['71.00', '0.00', '71.00']);
  });

  it('prefers the total printed below the rounding line', () => {
    const t = extractTotals(textRows(['Total RM Incl. of GST      31.47', 'Rounding Adj               -0.02', 'Total                      31.45']));
    expect(t.total?.value).toBe('31.45');
    expect(t.reasons).toContain('rounded');
  });

  it('takes the cash-rounded total when the rounding adjustment\'s own amount was not read', () => {
    const rows = textRows([
      'Total Sales (Inclusive GST) RM   177.22',
      'Rounding Adjustment RM',
      'Rounding RM                      177.20',
      'CREDIT RM                        177.20',
      'CHANGE RM                           .00',
    ]);
    // The items add up to the amount before rounding; the rounded one is what was paid.
    const t = extractTotals(rows, { itemsSum: 177.22 });
    expect(t.total?.value).toBe('177.20');
    expect(t.reasons).toContain('rounded');
    // Without a rounding line printed, nothing says the lower amount is a rounding.
    const unrounded = extractTotals(textRows(['Total Sales (Inclusive GST) RM   177.22', 'Total RM                         177.20', 'CREDIT RM                        177.20']), { itemsSum: 177.22 });
    expect(unrounded.reasons).not.toContain('rounded');
  });

  it('does not trust a total that what was settled contradicts', () => {
    // One copy of each amount, one of them misread: which one cannot be told, so the total is not sure.
    const slipped = extractTotals(textRows(['TOTAL SALES (INCLUSIVE GST) RM   61.66', 'CREDIT RM   61.65', 'CHANGE RM   0.00']));
    expect(slipped.total?.value).toBe('61.66');
    expect(slipped.reasons).toContain('contradicted');
    expect(slipped.total!.confidence).toBeLessThan(90);
    // A rounded total printed, misread, below the total before rounding.
    const rounded = extractTotals(
      textRows(['TOTAL SALES (INCLUSIVE GST) RM   14.38', 'ROUNDING ADJUSTMENT RM   0.02', 'ROUNDING RM   14.10', 'CASH RM   20.00', 'CHANGE RM   5.60']),
      { itemsSum: 14.38 },
    );
    expect(rounded.reasons).toContain('contradicted');
    expect(rounded.total!.confidence).toBeLessThan(90);
  });

  it('trusts a total that what was settled confirms, rounds or cannot outweigh', () => {
    const agreed = extractTotals(textRows(['TOTAL RM   41.65', 'CASH RM   50.00', 'CHANGE RM   8.35']));
    expect(agreed.reasons).not.toContain('contradicted');
    // Paid in cash, rounded to 5 cents, with no rounded total printed: the printed total stays, and is sure.
    const cash = extractTotals(textRows(['SUBTOTAL   2.28', 'TOTAL (GST INCL)   2.28', 'CASH   3.00', 'ROUNDING ADJUSTMENTS   0.02', 'CHANGE DUE   0.70']));
    expect(cash.total?.value).toBe('2.28');
    expect(cash.reasons).not.toContain('contradicted');
    // The total printed twice against a change misread: the two copies outweigh the one.
    const twice = extractTotals(textRows(['SubTotal   85.20', 'Net Total   85.20', 'Cash   100.20', 'CHANGE   5.00']));
    expect(twice.total?.value).toBe('85.20');
    expect(twice.reasons).not.toContain('contradicted');
    expect(twice.total!.confidence).toBeGreaterThanOrEqual(90);
    // Paid partly in cash, partly by card: the tenders together settle the total.
    const split = extractTotals(textRows(['TOTAL RM   50.00', 'CASH RM   20.00', 'VISA RM   30.00', 'CHANGE RM   0.00']));
    expect(split.total?.value).toBe('50.00');
    expect(split.reasons).not.toContain('contradicted');
  });

  it('takes no amount for the tax that is more than the highest VAT rate of its base', () => {
    // The base under a label that names the tax, the tax unlabelled: 77.18 is no tax on 4.62.
    const lines = ['KEDAI ABC', 'SUBTOTAL  :  81.80', 'TOTAL  :  81.80', 'TOTAL EXCLUDED TAX  :  77.18', ':  4.62', 'CASH  85.00', 'CASH CHANGE  3.20'];
    const summary = ['TAX SUMMARY', 'TAX CODE %  AMOUNT(MYR)  TAX(MYR)', 'SR  6  77.18  4.62'];
    const { fields } = extractDocument(textDocument([...lines, ...summary]));
    expect(fields.amount_total?.value).toBe('81.80');
    expect(fields.amount_total_base?.value).toBe('77.18');
    expect(fields.amount_tax?.value).toBe('4.62');
    // Two items that happen to make the total are no base and tax.
    const items = extractTotals(textRows(['Qty  Tax  RM', 'Durafile H399  200 S  116.60', 'Name Badge Clip  2  SR  42.40', 'Total Amt Payable :  159.00']));
    expect(items.tax?.value).not.toBe('116.60');
  });

  it("takes a tax summary's nets for the base where they and its tax make the total", () => {
    const lines = ['KEDAI ABC', 'BUTA SHOGA YAKI SET  19.90', 'TOTAL AMOUNT :  24.37', 'CASH  30.00', 'CHANGE  5.63', 'GST SUMMARY  AMOUNT RM  TAX RM'];
    const { fields } = extractDocument(textDocument([...lines, 'SR 6%  22.99  1.38']));
    expect(fields.amount_tax?.value).toBe('1.38');
    expect(fields.amount_total_base?.value).toBe('22.99');
    // Nets that do not make the total with the tax are no base.
    const off = extractDocument(textDocument([...lines, 'SR 6%  22.50  1.35'])).fields;
    expect(off.amount_total_base).toBeUndefined();
  });

  it('is as sure of the total as of its surest printed copy', () => {
    const rows = textRows(['Total Amount:  $8.20', 'GST @6%:  $0.46', 'Nett Total:  $8.20', 'CASH  $8.20', 'Change  $0.00']);
    // The strongest label's copy read with little confidence; the other total line and the cash read surely.
    const weak = (text: string, confidence: number) => rows.filter((r) => r.text.startsWith(text)).forEach((r) => r.words.forEach((w) => (w.confidence = confidence)));
    weak('Nett Total', 80);
    weak('Total Amount', 99);
    weak('CASH', 98);
    const t = extractTotals(rows);
    expect(t.total?.value).toBe('8.20');
    expect(t.total!.confidence).toBeGreaterThanOrEqual(90);
    // A copy that disagrees is no second reading.
    const other = textRows(['Total Amount:  $8.30', 'Nett Total:  $8.20', 'Change  $0.00']);
    other.filter((r) => r.text.startsWith('Nett')).forEach((r) => r.words.forEach((w) => (w.confidence = 80)));
    expect(extractTotals(other).total!.confidence).toBeLessThan(90);
  });

  it('does not trust a total labelled as rounded that is no 5-cent amount', () => {
    // "TOTAL ROUNDED RM 7.15" read as 7.16: the total before rounding and the items agree with the misreading.
    const lines = (rounded: string) => ['SPRAYER SX-260# 550ML   4 X 1.79   7.16', 'TOTAL INCL. GST   RM 7.16', 'ROUNDING ADJUSTMENT   -RM 0.01', `TOTAL ROUNDED   RM ${rounded}`, 'CASH   RM 20.20', 'CHANGE   RM 13.05'];
    const slipped = extractTotals(textRows(lines('7.16')), { itemsSum: 7.16 });
    expect(slipped.reasons).toContain('contradicted');
    expect(slipped.total!.confidence).toBeLessThan(90);
    const right = extractTotals(textRows(lines('7.15')), { itemsSum: 7.16 });
    expect(right.total?.value).toBe('7.15');
    expect(right.total!.confidence).toBeGreaterThanOrEqual(90);
  });

  it('does not take a rounded total whose misread digit was put right for a contradiction of itself', () => {
    const t = extractTotals(textRows(['SUB TOTAL      64.00', 'GST 6%          3.84', 'ROUNDING ADJ    0.01', 'TOTAL ROUNDED  67.95']));
    expect(t.total?.value).toBe('67.85');
    expect(t.reasons).not.toContain('contradicted');
  });

  it('knows cash rounding to 5 cents', () => {
    expect(isCashRounding(177.22, 177.2)).toBe(true);
    expect(isCashRounding(177.23, 177.25)).toBe(true);
    expect(isCashRounding(177.22, 177.25)).toBe(false);
    expect(isCashRounding(177.2, 177.2)).toBe(false);
  });

  it('corrects a total one misread digit away from what the other amounts add up to', () => {
    const t = extractTotals(textRows(['SUB TOTAL      64.00', 'GST 6%          3.84', 'ROUNDING ADJ    0.01', 'NET TOTAL      67.95']));
    expect(t.total?.value).toBe('67.85');
    expect(t.reasons.at(-1)).toBe('corrected 67.95 → 67.85');
    // Two digits apart is not a slip: the printed total stays.
    expect(extractTotals(textRows(['SUB TOTAL      64.00', 'GST 6%          3.84', 'NET TOTAL      61.95'])).total?.value).toBe('61.95');
  });

  it('finds nothing in a text without amounts', () => {
    const t = extractTotals(textRows(['THANK YOU', 'PLEASE COME AGAIN']));
    expect(t.total).toBeUndefined();
  });
});

describe('VAT lines', () => {
  it('reads net, VAT and gross per rate and checks them', () => {
    const lines = extractVatLines(textRows(['VAT rate      Net      VAT     Gross', '21%        181.30    38.07    219.37', '9%          37.50     3.38     40.88']));
    expect(lines.map((l) => [l.rate, l.net, l.vat, l.gross])).toEqual([
      [21, 181.3, 38.07, 219.37],
      [9, 37.5, 3.38, 40.88],
    ]);
    expect(checkTotals({ total: 260.25, subtotal: 218.8, tax: 41.45, vatLines: lines })).toEqual({ ok: true, problems: [] });
  });

  it('reads a one-amount VAT line against the known base', () => {
    const lines = extractVatLines(textRows(['PVM 21 %:        73,21 EUR']), { subtotal: 348.6, tax: 73.21 });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ rate: 21, vat: 73.21, net: 348.6, gross: 421.81 });
  });

  it("reads a line whose tax a till rounded unit by unit, but the line's own rate to the cent first", () => {
    // 8 × 16.85 including 6 %: each unit's tax 0.95, 7.60 in all, where 127.20 × 6 % is 7.632.
    const lines = extractVatLines(textRows(['GST Summary   Amount(RM)   Tax(RM)', 'S = 6%        127.20       7.60', 'Z = 0%          2.35        .00']));
    expect(lines.map((l) => [l.rate, l.net, l.vat])).toEqual([
      [6, 127.2, 7.6],
      [0, 2.35, 0],
    ]);
    // More than units' rounding apart is no VAT line.
    expect(extractVatLines(textRows(['S = 6%        127.20       7.40']))).toEqual([]);
  });

  it('rejects rows whose amounts do not fit the rate', () => {
    expect(extractVatLines(textRows(['VAT 21%      100.00     25.00']))).toEqual([]);
    expect(extractVatLines(textRows(['PVM 21 %:        70,00']), { subtotal: 348.6, tax: 73.21 })).toEqual([]);
  });

  it('checks VAT arithmetic and reports what does not add up', () => {
    expect(vatMatches(100, 21, 21)).toBe(true);
    expect(vatMatches(37.5, 9, 3.38)).toBe(true);
    expect(vatMatches(100, 21, 21.5)).toBe(false);
    const bad = checkTotals({
      total: 130,
      subtotal: 100,
      tax: 21,
      vatLines: [
        { rate: 21, net: 100, vat: 21, gross: 120 },
        { rate: 9, net: 10, vat: 2 },
      ],
    });
    expect(bad.ok).toBe(false);
    expect(bad.problems).toEqual([
      'VAT 21%: 100 + 21 ≠ 120',
      'VAT 9%: 10 × 9% ≠ 2',
      'VAT lines add up to 23, tax is 21',
      'VAT line bases add up to 110, base is 100',
      '100 + 21 ≠ 130',
    ]);
  });
});
