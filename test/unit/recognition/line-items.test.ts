import { describe, expect, it } from 'vitest';
import { extractLineItems } from '../../../lambdas/core/recognition/extract/line-items';
import { extractDocument } from '../../../lambdas/core/recognition/extract';
import { documentRows } from '../../../lambdas/core/recognition/extract/rows';
import { textDocument, textRows } from './helpers';

describe('receipt items without a header row', () => {
  it('reads the rows above the first total that end with an amount', () => {
    const items = extractLineItems(textRows(['KEDAI RUNCIT MAJU', 'MILO 1KG  7.00', 'ROTI GARDENIA  2.90', 'TOTAL  9.90']));
    expect(items.map((i) => [i.description?.value, i.total_price?.value])).toEqual([
      ['MILO 1KG', '7.00'],
      ['ROTI GARDENIA', '2.90'],
    ]);
  });

  it("takes nothing above the seller's name for an item (a filing number written on the paper)", () => {
    const lines = ['LIM SENG THO HARDWARE TRADING', 'NO 7, JALAN IPOH BATU 5', '51200 KUALA LUMPUR', 'TAX INVOICE', 'SIMEN(S)', '3.00  X  2.00  6.00  SR', 'TOTAL :  6.00'];
    const items = (ls: string[]) => extractDocument(textDocument(ls)).lineItems.map((li) => li.total_price?.value);
    expect(items(lines)).toEqual(['6.00']);
    expect(items(['3.18 12:012', ...lines])).toEqual(['6.00']);
  });

  it('takes a returned item, its count before its amount negative, for a negative amount, its minus printed or not', () => {
    const items = (amount: string) =>
      extractLineItems(
        textRows([
          'Description   U.P   Iss  Exc  D  Sale   Amt (RM)',
          `O.C. WHITE    2.13   0    1   0   -1    ${amount}`,
          'WHOLEMEAL     2.78   5    0   0    5    13.90',
          'Total 0% supplies:                     11.77',
        ]),
      ).map((i) => i.total_price?.value);
    expect(items('2.13')).toEqual(['-2.13', '13.90']);
    expect(items('-2.13')).toEqual(['-2.13', '13.90']);
    // A count that does not make the amount with the price is no return of it.
    expect(items('4.26')).toEqual(['4.26', '13.90']);
  });

  it('keeps the quantity and the price each out of the description', () => {
    const [item] = extractLineItems(textRows(['KEDAI RUNCIT MAJU', 'MILO 1KG  2 x 3.50  7.00', 'TOTAL  7.00']));
    expect([item!.description?.value, item!.quantity?.value, item!.price_per_unit?.value, item!.total_price?.value]).toEqual(['MILO 1KG', '2', '3.50', '7.00']);
  });

  it('reads a row with a price each after "@" as the description of the item on the next row, whose code it is not', () => {
    const items = extractLineItems(
      textRows(['LORY FILLET 300UP 6KG  @63.00', 'FM4 T1000055  *4  252.00 ZR', 'BERAS 10KG 5% ISTIMEWA @53.50', '9556606389892  *1  53.50 ZR', 'Total Sales (Incl. GST)  RM305.50']),
    );
    expect(items.map((i) => [i.description?.value, i.total_price?.value])).toEqual([
      ['LORY FILLET 300UP 6KG', '252.00'],
      ['BERAS 10KG 5% ISTIMEWA', '53.50'],
    ]);
  });

  it('takes a row whose words are single letters around digits for an item, but not a quantity and a price', () => {
    const items = extractLineItems(textRows(['PB D/S Tape 12mm  1.90 T', "H/C A4 400'S  9.90 T", 'Total RM Incl. of GST  11.80']));
    expect(items.map((i) => [i.description?.value, i.total_price?.value])).toEqual([
      ['PB D/S Tape 12mm', '1.90'],
      ["H/C A4 400'S", '9.90'],
    ]);
    const priced = extractLineItems(textRows(['YONGCHUN LOKAN NNDRN  RM62.50', '@5 X RM 12.50', 'YONGCHUN LOKAH HNDRN  RM79.00', 'C5 X RM 15.80', 'Total Sales (Inclusive GST) RM  141.50']));
    expect(priced.map((i) => i.total_price?.value)).toEqual(['62.50', '79.00']);
  });

  it('takes no number with the other decimal mark for an amount: one document prints one', () => {
    const items = extractLineItems(
      textRows(['BOOK TA .K (TAMAN DAYA) SDN BHD', 'NO.53 55,57 & 59, JALAN SAGU 18,', 'TAMAN DAYA,', 'KF MODELLING CLAY KIDDY FISH  1 PC * 9.00  9.00', 'Total :  9.00', 'Cash  10.00', 'Change  1.00']),
    );
    expect(items.map((i) => i.total_price?.value)).toEqual(['9.00']);
  });

  it("goes on across a tax rate's total to the next group of items", () => {
    const items = extractLineItems(
      textRows([
        'Description   U.P   Iss   Sale   Amt(RM)',
        'O.C. WHITE   2.13   12   12   25.56',
        'WHOLEMEAL   2.78   5   5   13.90',
        'Total 0% supplies:          54.31',
        'TWIG-CHOC   1.33   10   10   13.30',
        'Total 6% supplies (excl. GST):   13.30',
        'GST:                         0.80',
        'Total Payable:              68.41',
        'Cash                        70.00',
      ]),
    );
    expect(items.map((i) => i.total_price?.value)).toEqual(['25.56', '13.90', '13.30']);
  });

  it("takes a whole number alone under an amount's header for no amount where money prints its decimals", () => {
    const table = (mark: string) =>
      extractLineItems(
        textRows([
          'Description   Qty    U.price   Total  TAX',
          `Teh (B)                          ${mark}`,
          '              1 x    2.20      2.20   SR',
          'Cham (B)',
          '              1 x    2.20      2.20   SR',
          'TOTAL :                        4.40',
        ]),
      ).map((i) => [i.description?.value.replace(/\s+/g, ' '), i.total_price?.value]);
    // A speck read as "1" under Total beside the first name: the names still go with the numbers under them.
    expect(table('1')).toEqual([
      ['Teh (B) 1', '2.20'],
      ['Cham (B)', '2.20'],
    ]);
    expect(table('')).toEqual([
      ['Teh (B)', '2.20'],
      ['Cham (B)', '2.20'],
    ]);
    // Beside a price with decimals a whole number under Total is the line's total printed without them.
    const whole = extractLineItems(textRows(['QTY  CODE&DESC                 PRICE    TOTAL', '1    NH DELICADERMA CR 50M     76.00    76 SR', 'TOTAL :                                76.00']));
    expect(whole.map((i) => i.total_price?.value)).toEqual(['76.00']);
  });

  it('goes on the same way in a table under a header row', () => {
    const items = extractLineItems(
      textRows([
        'Description      Qty   Price    Amount',
        'O.C. WHITE        12    2.13     25.56',
        'WHOLEMEAL          5    2.78     13.90',
        'Total 0% supplies:               39.46',
        'TWIG-CHOC         10    1.33     13.30',
        'Total 6% supplies (excl. GST):   13.30',
        'GST:                              0.80',
        'Total Payable:                    53.56',
      ]),
    );
    expect(items.map((i) => [i.description?.value, i.quantity?.value, i.total_price?.value])).toEqual([
      ['O.C. WHITE', '12', '25.56'],
      ['WHOLEMEAL', '5', '13.90'],
      ['TWIG-CHOC', '10', '13.30'],
    ]);
  });

  it('ends at a total that names no rate, whatever follows', () => {
    const items = extractLineItems(textRows(['MILO 1KG  7.00', 'Sub Total  7.00', 'ROTI GARDENIA  2.90', 'TOTAL  9.90']));
    expect(items.map((i) => i.total_price?.value)).toEqual(['7.00']);
  });
});

describe('rows that sum the items up', () => {
  it('ends a table at a row whose label starts with a total word, though its words are a count', () => {
    const items = extractLineItems(
      textRows([
        'Description        Qty   Price   Amount',
        'BRAISED PORK RICE   2.0   7.00    14.00',
        'JASMINE GREEN TEA   2.0   2.30     4.60',
        'Total Qty:          4             18.60',
        'Total Sales (Inclusive of GST)    18.60',
      ]),
    );
    expect(items.map((i) => [i.description?.value, i.total_price?.value])).toEqual([
      ['BRAISED PORK RICE', '14.00'],
      ['JASMINE GREEN TEA', '4.60'],
    ]);
  });

  it("takes no whole number after an amount in a table's amount column for the amount: a tax code read as a digit", () => {
    const items = extractLineItems(
      textRows([
        'Qty  Description               Amount',
        '1    8" PANDAN KAYA CAKE       55.00 1',
        '2    HOTDOG BUN                 5.60 T',
        '7    TOTAL                     60.60',
        'CASH                          100.00',
      ]),
    );
    expect(items.map((i) => [i.description?.value, i.total_price?.value])).toEqual([
      ['8" PANDAN KAYA CAKE', '55.00'],
      ['HOTDOG BUN', '5.60'],
    ]);
    // A column of whole amounts stays one.
    const whole = extractLineItems(textRows(['Qty  Description       Amount', '1    RICE BAG          55', '2    BUN               6', 'TOTAL                  61.00']));
    expect(whole.map((i) => i.total_price?.value)).toEqual(['55.00', '6.00']);
  });

  it('ends at a count before a subtotal that is the sum of the items', () => {
    const items = extractLineItems(
      textRows(['1  HH GUINESS 12 GLASSES  150.00', '1  HH TIGER 12 GLASSES  145.00', '2  SUB TOTAL  295.00', 'SERVICE CHARGE 10%  29.50', 'NET TOTAL  343.95']),
    );
    expect(items.map((i) => i.total_price?.value)).toEqual(['150.00', '145.00']);
  });

  it('ends at a count before a subtotal after one item, the total word read short', () => {
    const items = extractLineItems(textRows(['1  FISHBALL NOODLE  7.00', '1  SUB TOTA  7.00', 'GST 6%  0.42', 'TOTAL  7.40']));
    expect(items.map((i) => i.total_price?.value)).toEqual(['7.00']);
  });

  it('takes no row of item counts for an item, but keeps an item that runs into one', () => {
    const counts = extractLineItems(textRows(['27" T.S BASIN BESAR', '400002  1.00 X  21.32  21.32', 'No. Qtys:  1.00 No. Items:  1', 'TOTAL  22.60']));
    expect(counts.map((i) => i.total_price?.value)).toEqual(['21.32']);
    // The count opens the items' summary: what follows it sums them up.
    const summary = extractLineItems(
      textRows(['PAN MEE (DRY)(B)  8.00', 'PAN MEE (DRY)(A)  8.00', 'QTY:  2  TOTAL AMOUNT:  16.00', 'DISCOUNT:  0.00', 'AFTER DISCOUNT:  16.00', 'CASH  20.00']),
    );
    expect(summary.map((i) => i.total_price?.value)).toEqual(['8.00', '8.00']);
    // A count word and numbers alone under the items ("QTY  1  7.50") count and sum them.
    const counted = extractLineItems(textRows(['CODE  DESC  QTY  RM  D%  AMT', '201026 SCONE - M  1  7.50  0  7.50 S', 'QTY  1  7.50', 'DUE  7.50']));
    expect(counted.map((i) => i.total_price?.value)).toEqual(['7.50']);
    // "TOT QTY:" is the total's short form.
    const short = extractLineItems(textRows(['8239 SR: SILICONE GUN  1  15.00  15.00', '2016 SR: PVC WIRE TAPE  2  1.05  2.10', 'TOT QTY:  3  17.10', 'TOTAL INCL GST  17.10']));
    expect(short.map((i) => i.total_price?.value)).toEqual(['15.00', '2.10']);
    const runInto = extractLineItems(textRows(['PLASTIC BAGS  *S', 'QTY(S) : 5  1 X 0.20  0.20', 'TOTAL  0.20']));
    expect(runInto.map((i) => i.total_price?.value)).toEqual(['0.20']);
  });

  it('keeps an item whose name ends with a total word when its amount is no sum of the items before it', () => {
    const items = extractLineItems(textRows(['1 DETTOL SOAP  5.00', '1 MILO 1KG  7.00', '1 COLGATE TOTAL  12.90', 'TOTAL  24.90']));
    expect(items.map((i) => i.total_price?.value)).toEqual(['5.00', '7.00', '12.90']);
  });
});

describe('item names on a row of their own', () => {
  it('keeps the name pending across a row of codes between it and the amount', () => {
    const items = extractLineItems(
      textRows([
        'PILLAR SINK TAP  *S',
        'FZ02 - 6/54',
        '9072351  2 X 23.90  47.80',
        'PLASTIC BAGS  *S',
        '99999  1 X  0.20  0.20',
        'Item(s) : 2  Qty(s) : 3',
        'TOTAL  48.00',
      ]),
    );
    expect(items.map((i) => [i.description?.value, i.total_price?.value])).toEqual([
      ['PILLAR SINK TAP *S', '47.80'],
      ['PLASTIC BAGS *S', '0.20'],
    ]);
  });

  it('takes no size in an item name for its amount ("30CM*7.62M")', () => {
    const items = extractLineItems(
      textRows([
        'ALUMINIUM FOIL 25SQ# 30CM*7.62M  *S',
        'BJ41/2-52 - 24',
        '9069295  1 X  5.50  5.50',
        'SEKOPLAS H/D GARBAGE 89cm*117cm 10s  *S',
        'WA58 - 16',
        '9557002081113  5 X  9.50  47.50',
        'PLASTIC BAGS  *S',
        '99999  1 X  0.20  0.20',
        'Item(s) : 3  Qty(s) : 7',
        'Total Incl. GST@6%  RM 53.20',
      ]),
    );
    expect(items.map((i) => [i.description?.value, i.total_price?.value])).toEqual([
      ['ALUMINIUM FOIL 25SQ# 30CM*7.62M *S', '5.50'],
      ['SEKOPLAS H/D GARBAGE 89cm*117cm 10s *S', '47.50'],
      ['PLASTIC BAGS *S', '0.20'],
    ]);
  });

  it('takes a row of a code, a quantity, a price and their product for an item with nothing else to name it', () => {
    const items = extractLineItems(
      textRows([
        'OPEN CODE-SR ITEM',
        '0025679 U  3x8.00  24.00 S',
        '0025679 U  1x7.00  7.00 S',
        'PD3.20  -3.80',
        'STAR 12X13 (1X180)',
        '0020323 PKT  1x1.00  1.00 S',
        'Item 3  SubTotal Incl GST  28.20',
      ]),
    );
    expect(items.map((i) => [i.description?.value, i.quantity?.value, i.total_price?.value])).toEqual([
      ['OPEN CODE-SR ITEM', '3', '24.00'],
      ['0025679 U', '1', '7.00'],
      ['PD', undefined, '-3.80'],
      ['STAR 12X13 (1X180)', '1', '1.00'],
    ]);
    // Not where the product is not the amount: a price each under an item is no item of its own.
    expect(extractLineItems(textRows(['YONGCHUN LOKAN  RM62.50', '@5 X RM 12.50', 'TOTAL  RM62.50'])).map((i) => i.total_price?.value)).toEqual(['62.50']);
  });

  it('takes an item number run into its code for no amount ("2.2012-0011")', () => {
    const items = extractLineItems(
      textRows([
        '1. 2012-0013  PUNCH CARD WITH HOLE',
        '1 X 11.9000  11.90 SR',
        "2.2012-0011  WORKER'S CARD (1-15) 100'S",
        '(WOC-115)',
        '1 X 3.0000  3.00  SR',
        'TOTAL SALES INCLUSIVE GST @6%  14.90',
      ]),
    );
    expect(items.map((i) => i.total_price?.value)).toEqual(['11.90', '3.00']);
  });

  it('takes a name with a price in it under an amount row once the receipt prints its names there', () => {
    const items = extractLineItems(
      textRows(['1X 000007773877  7.90SR', 'CHILE ANGELENO', '1X 000000388658  2.50SR', 'CUT FRUITS 1.99', '1X 000004291022  4.80SR', 'CHERRY SUNGOLD', 'SUB-TOTAL  15.20']),
    );
    expect(items.map((i) => [i.description?.value, i.total_price?.value])).toEqual([
      ['CHILE ANGELENO', '7.90'],
      ['CUT FRUITS', '2.50'],
      ['CHERRY SUNGOLD', '4.80'],
    ]);
    // The last item, the totals under it.
    const last = extractLineItems(textRows(['1X 000007773877  7.90SR', 'CHILE ANGELENO', '1X 000000388658  2.50SR', 'CUT FRUITS 1.99', 'SUB-TOTAL  10.40']));
    expect(last.map((i) => [i.description?.value, i.total_price?.value])).toEqual([
      ['CHILE ANGELENO', '7.90'],
      ['CUT FRUITS', '2.50'],
    ]);
  });

  it('takes the name printed under an amount row that has none above it', () => {
    const items = extractLineItems(
      textRows(['1x 000002781709  15.50SR', 'BIO ZIP POWDER', '1x 000002781710  9.90SR', 'SOFTENER 1L', 'Sub- total  25.40', 'CASH  50.00']),
    );
    expect(items.map((i) => [i.description?.value, i.total_price?.value])).toEqual([
      ['BIO ZIP POWDER', '15.50'],
      ['SOFTENER 1L', '9.90'],
    ]);
  });
});

describe('item names printed under their numbers in a table', () => {
  it('names each row of numbers by the row of words under it when the first has no name above it', () => {
    const items = extractLineItems(
      textRows([
        'Qty    Description            Total    TAX',
        '1      D                      20.00    SR',
        'Chicken Item',
        '1      D                      15.00    SR',
        'Vege item',
        '1      D                      22.00    SR',
        'Sausage Fried Rice (L)',
        'Total (Excluding GST):         57.00',
      ]),
    );
    expect(items.map((i) => [i.description?.value, i.total_price?.value])).toEqual([
      ['Chicken Item', '20.00'],
      ['Vege item', '15.00'],
      ['Sausage Fried Rice (L)', '22.00'],
    ]);
  });
});

describe('item names printed above their numbers', () => {
  it('names a table row of numbers alone by the row of words above it, and goes on that way', () => {
    const items = extractLineItems(
      textRows([
        'DESCRIPTION  QTY  U.PRICE TOTAL TAX',
        'SMOKED DUCK SPAGHETTI',
        '1X  12.50  12.50 SR',
        'HOT GREEN TEA',
        '1X  3.00  3.00 SR',
        'TOTAL QTY: 2',
        'TOTAL:  15.50',
      ]),
    );
    expect(items.map((i) => [i.description?.value, i.quantity?.value])).toEqual([
      ['SMOKED DUCK SPAGHETTI', '1'],
      ['HOT GREEN TEA', '1'],
    ]);
  });

  it('takes a name with a price in it for the name of the row of numbers under it', () => {
    const items = extractLineItems(
      textRows(['POLY CHOPPING BOARD - 013', '3 UNIT *  4.80  0.00  14.40  SR', 'PLASTIC BOWL - 2.80', '8 UNIT *  2.80  0.00  22.40  SR', 'TOTAL QTY:  11']),
    );
    expect(items.map((i) => [i.description?.value, i.total_price?.value])).toEqual([
      ['POLY CHOPPING BOARD - 013', '14.40'],
      ['PLASTIC BOWL', '22.40'],
    ]);
  });

  it('takes the name above a receipt row whose own words are a count and a unit', () => {
    const items = extractLineItems(
      textRows(['POLY CHOPPING BOARD - 013', '3 UNIT *  4.80  0.00  14.40  SR', 'STAEDTLER LUNA COLOUR PENCIL', '11 UNIT *  4.90  0.00  53.90  SR', 'TOTAL QTY:  14']),
    );
    expect(items.map((i) => [i.description?.value, i.total_price?.value])).toEqual([
      ['POLY CHOPPING BOARD - 013', '14.40'],
      ['STAEDTLER LUNA COLOUR PENCIL', '53.90'],
    ]);
  });
});

describe('tables read as printed, not as the columns fall', () => {
  it('gives a name that runs across the quantity column to the description, and ends at a count with no amount', () => {
    const items = extractLineItems(
      textRows([
        'ITEM                      QTY     U/P    AMOUNT',
        '8710163220987              2    12.00     24.00',
        'PHILIPS 18W/E27/827 ESSENTIAL BULB W/WHI',
        'TOTAL QUANTITY             2',
        'TOTAL                              24.00',
      ]),
    );
    expect(items.map((i) => [i.description?.value, i.quantity?.value, i.total_price?.value])).toEqual([
      ['8710163220987 PHILIPS 18W/E27/827 ESSENTIAL BULB W/WHI', '2', '24.00'],
    ]);
  });

  it('knows a long header read a letter off, and takes the rightmost of two numbers under one amount header', () => {
    const items = extractLineItems(
      textRows(['Descriptior        Qty    Price  Amount', 'Kitchen Lighter     5     3.68   18.40', 'TOTAL :                   18.40']),
    );
    expect(items.map((i) => [i.description?.value, i.quantity?.value, i.total_price?.value])).toEqual([['Kitchen Lighter', '5', '18.40']]);
    const run = extractLineItems(textRows(['ITEM       QTY    UP AMOUNT', 'IKAN BILIS  100   0.25  25.00', 'SUB-TOTAL  25.00']));
    expect(run.map((i) => i.total_price?.value)).toEqual(['25.00']);
  });
});

describe('a table over two pages', () => {
  const pages = (...texts: string[][]) => documentRows({ source: 'ocr', pages: texts.map((lines, i) => textDocument(lines, i + 1).pages[0]!) });
  const amounts = (rows: ReturnType<typeof pages>) => extractLineItems(rows).map((i) => [i.description?.value, i.total_price?.value]);
  const header = 'No.  Description            Qty     Price      Amount';

  it('goes on under its header repeated on the next page, past the subtotal carried over, which is no item', () => {
    const rows = pages(
      ['INVOICE 17', header, '1    Bolts M6              10      1,20       12,00', '2    Nuts M6               20      0,50       10,00', 'Carried forward:                           22,00', 'Page 1 of 2'],
      ['INVOICE 17 (continued)', 'Brought forward:                           22,00', header, '3    Washers 6 mm          30      0,10        3,00', 'Subtotal:                                  25,00', 'VAT 21 %:                                   5,25', 'Total:                                     30,25'],
    );
    expect(amounts(rows)).toEqual([
      ['Bolts M6', '12.00'],
      ['Nuts M6', '10.00'],
      ['Washers 6 mm', '3.00'],
    ]);
  });

  it('goes on with rows in the same columns at the top of the next page, but not past the totals on its own page', () => {
    const page1 = ['INVOICE 17', header, '1    Bolts M6              10      1,20       12,00', '2    Nuts M6               20      0,50       10,00', 'Page 1 of 2'];
    const page2 = ['3    Washers 6 mm          30      0,10        3,00', 'Subtotal:                                  25,00', 'Total:                                     30,25'];
    expect(amounts(pages(page1, page2)).map((i) => i[1])).toEqual(['12.00', '10.00', '3.00']);
    const ended = ['INVOICE 17', header, '1    Bolts M6              10      1,20       12,00', 'Total:                                     12,00'];
    expect(amounts(pages(ended, page2)).map((i) => i[1])).toEqual(['12.00']);
  });
});

describe('quantities and unit prices with three decimals', () => {
  const read = (lines: string[]) => extractLineItems(textRows(lines)).map((i) => [i.quantity?.value, i.unit_price_without_vat?.value, i.total_price?.value]);

  it('reads "45,670" and "1,459" by the decimal mark the money prints: decimals where it is a comma, thousands where it is a point', () => {
    expect(
      read(['Description      Qty       Price      Amount', 'Diesel         45,670     1,459       66,63', 'Petrol 95      38,005     1,569       59,63', 'Total:                           1 126,26']),
    ).toEqual([
      ['45.67', '1.459', '66.63'],
      ['38.005', '1.569', '59.63'],
    ]);
    expect(read(['Description      Qty       Price      Amount', 'Bolts           1.500      0,10      150,00', 'Total:                              150,00'])).toEqual([['1500', '0.10', '150.00']]);
    expect(read(['Description      Qty       Price      Amount', 'Bolts           1,500      0.10      150.00', 'Total:                              150.00'])).toEqual([['1500', '0.10', '150.00']]);
  });
});

describe('item-table headers as European suppliers print them', () => {
  const row = '1    Varžtai M6 cinkuoti   10      vnt.        1,20          12,00';
  const read = (header: string) =>
    extractLineItems(textRows([header, row, 'Iš viso:                                                    12,00'])).map((i) => [
      i.description?.value,
      i.quantity?.value,
      i.unit_price_without_vat?.value,
      i.total_price?.value,
    ]);

  it.each([
    'Nr.  Prekė                 Kiekis  Mato vnt.   Kaina         Suma',
    'Nr.  Paslauga              Kiekis  Mato vnt.   Kaina         Suma',
    'Pos. Bezeichnung           Menge   Einheit     Einzelpreis   Gesamtpreis',
    'Pos. Leistung              Anzahl  ME          E-Preis       Betrag',
    'Pos. Artikel               Menge   Einheit     Preis         Gesamt',
    'Nr.  Nosaukums             Daudzums  Mērv.     Cena          Summa',
    'Nr.  Kirjeldus             Kogus   Ühik        Hind          Summa',
    'Lp.  Nazwa towaru          Ilość   Jm.         Cena netto    Wartość netto',
  ])('reads the description, quantity, price and amount under "%s"', (header) => {
    expect(read(header)).toEqual([['Varžtai M6 cinkuoti', '10', '1.20', '12.00']]);
  });

  it('takes "Artikel" beside a column that describes the item for the code, alone for the item', () => {
    const items = extractLineItems(
      textRows(['Artikel    Bezeichnung           Menge   Einzelpreis   Gesamtpreis', 'A-1001     Schrauben M6            100          0,12         12,00', 'Total:                                                    12,00']),
    );
    expect(items.map((i) => [i.product_code?.value, i.description?.value, i.quantity?.value, i.total_price?.value])).toEqual([['A-1001', 'Schrauben M6', '100', '12.00']]);
  });
});

describe('an item table that ends at totals labelled as German suppliers print them', () => {
  it('takes no row of the totals under the table for an item', () => {
    const items = extractLineItems(
      textRows([
        'Pos. Bezeichnung           Menge   Einzelpreis   Gesamtpreis',
        '1    Schrauben M6            100          0,12         12,00',
        '2    Muttern M6              200          0,05         10,00',
        'Summe netto:                                         22,00',
        'USt. 20 %:                                            4,40',
        'Gesamtbetrag:                                        26,40',
      ]),
    );
    expect(items.map((i) => [i.description?.value, i.total_price?.value])).toEqual([
      ['Schrauben M6', '12.00'],
      ['Muttern M6', '10.00'],
    ]);
  });
});
