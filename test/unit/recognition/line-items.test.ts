import { describe, expect, it } from 'vitest';
import { extractLineItems } from '../../../lambdas/core/recognition/extract/line-items';
import { textRows } from './helpers';

describe('receipt items without a header row', () => {
  it('reads the rows above the first total that end with an amount', () => {
    const items = extractLineItems(textRows(['KEDAI RUNCIT MAJU', 'MILO 1KG  7.00', 'ROTI GARDENIA  2.90', 'TOTAL  9.90']));
    expect(items.map((i) => [i.description?.value, i.total_price?.value])).toEqual([
      ['MILO 1KG', '7.00'],
      ['ROTI GARDENIA', '2.90'],
    ]);
  });

  it('takes no number with the other decimal mark for an amount: one document prints one', () => {
    const items = extractLineItems(
      textRows(['BOOK TA .K (TAMAN DAYA) SDN BHD', 'NO.53 55,57 & 59, JALAN SAGU 18,', 'TAMAN DAYA,', 'KF MODELLING CLAY KIDDY FISH  1 PC * 9.00  9.00', 'Total :  9.00', 'Cash  10.00', 'Change  1.00']),
    );
    expect(items.map((i) => i.total_price?.value)).toEqual(['9.00']);
  });
});
