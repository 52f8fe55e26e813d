import { describe, expect, it } from 'vitest';
import { readyCheck } from '../../../lambdas/core/documents/content';
import { extractDocument } from '../../../lambdas/core/recognition/extract';
import { toAnalyzeExpenseResult } from '../../../lambdas/core/recognition/expense';
import { mapExpenseToFields } from '../../../lambdas/core/recognition/map-fields';
import { textDocument } from './helpers';

const head = ["DOMINO'S PIZZA SDN BHD", 'NO.12, JALAN PERMAS JAYA 10,', '81750 MASAI JOHOR', 'INVOICE NO: 7163', 'DATE: 27/04/18'];
const lines = (extraction: ReturnType<typeof extractDocument>) => extraction.lineItems.map((li) => [li.description?.value, li.total_price?.value]);

describe('a discount on the whole receipt', () => {
  it('is a line of its own where taking it off the items gives the total', () => {
    const doc = textDocument([...head, '1 6"HT (KB) P50C-PSI      15.60', 'SUB-TOTAL :      15.60', 'COUPON DISCOUNT :      8.40', 'GRAND TOTAL :      7.20', 'PAYMENT :      10.00', 'CHANGE DUE :      2.80']);
    const extraction = extractDocument(doc);
    expect(extraction.fields.amount_total?.value).toBe('7.20');
    expect(lines(extraction)).toEqual([
      ['1 6"HT (KB) P50C-PSI', '15.60'],
      ['COUPON DISCOUNT', '-8.40'],
    ]);
    // The lines now add up to the total: the items' check of the ready rule passes.
    const fields = mapExpenseToFields(toAnalyzeExpenseResult(doc, extraction));
    expect(readyCheck(fields, 'receipt', '2026-01-01').checks).toContain('Σ line items = total');
  });

  it('is no line where it does not take the items to the total, nor where the items took it in', () => {
    const open = extractDocument(textDocument([...head, 'WHOLEMEAL BREAD      3.00', 'MILK 1L      5.00', 'SUBTOTAL      8.00', 'MEMBER DISCOUNT      1.00', 'TOTAL      6.50']));
    expect(lines(open)).toEqual([
      ['WHOLEMEAL BREAD', '3.00'],
      ['MILK 1L', '5.00'],
    ]);
    // Read as an item above the total, the discount row is counted among the items already.
    const taken = extractDocument(textDocument([...head, 'WHOLEMEAL BREAD      3.00', 'MILK 1L      5.00', 'MEMBER DISCOUNT      1.00', 'TOTAL      8.00']));
    expect(lines(taken)).toEqual([
      ['WHOLEMEAL BREAD', '3.00'],
      ['MILK 1L', '5.00'],
      ['MEMBER DISCOUNT', '1.00'],
    ]);
  });
});
