import { describe, expect, it } from 'vitest';
import { extractDocumentId } from '../../../lambdas/core/recognition/extract/header';
import { textRows } from './helpers';

const numberOf = (lines: string[]) => extractDocumentId(textRows(lines))?.value;

describe('the document number', () => {
  it('is read after a number label, also one the reading misspelt', () => {
    expect(numberOf(['SANJUNG REALITI SDN BHD', 'Tax Inv0ice No.: 0714/0601/00601'])).toBe('0714/0601/00601');
    expect(numberOf(['KEDAI ABC', 'INVDICE NO : 18299/102/T0230'])).toBe('18299/102/T0230');
    expect(numberOf(['KEDAI ABC', 'BILL: 28544'])).toBe('28544');
    expect(numberOf(['KEDAI ABC', 'SLIP NO,: 7010385084'])).toBe('7010385084');
    expect(numberOf(['KEDAI ABC', 'TRANS: 364810'])).toBe('364810');
    expect(numberOf(['KEDAI ABC', 'WC5 SWH 01 INV:R000721136'])).toBe('R000721136');
    expect(numberOf(['KEDAI ABC', 'ST:8282 CTR2 ID:2055 TAXINV:21777'])).toBe('21777');
    expect(numberOf(['KEDAI ABC', '30/03/2018  No. : CS-20322'])).toBe('CS-20322');
    expect(numberOf(['RESTAURANT ABC', 'INVOICE', 'Invoice : 9820   Cashier : admin'])).toBe('9820');
    expect(numberOf(['KEDAI ABC', 'INVOICE: 001-9822'])).toBe('001-9822');
  });

  it('keeps a series of letters printed a space before its digits', () => {
    expect(numberOf(['KEDAI ABC', 'INVOICE NO.:  CS 67832', 'CASHIER#:  CASHIER'])).toBe('CS 67832');
    expect(numberOf(['KEDAI ABC', 'INVOICE NO :  CS 23304  DATE: 29/12/2017'])).toBe('CS 23304');
    // An amount after the label is no series and number.
    expect(numberOf(['KEDAI ABC', 'INVOICE: RM 125'])).toBeUndefined();
  });

  it('is no word or date after an invoice label', () => {
    expect(numberOf(['KEDAI ABC', 'Invoice: CASH', 'Invoice : 12/03/2018'])).toBeUndefined();
  });

  it("is not what a bare No numbers after a registration, tax or phone word, nor a house's number", () => {
    expect(numberOf(['KEDAI ABC', 'GST ID NO : 000306020352', 'CO. NO. 373665-A', 'Company Reg #101085-1', 'TEL NO: 03-1234567'])).toBeUndefined();
    expect(numberOf(['KEDAI ABC', 'NO.113G & 115G, JALAN SETIA GEMBILANG'])).toBeUndefined();
    // ...while a document's own label still wins over them.
    expect(numberOf(['KEDAI ABC', 'GST ID NO : 000306020352', 'Receipt No: CS00093091'])).toBe('CS00093091');
  });

  it('takes no "#" run on from an item code for a number label', () => {
    expect(numberOf(['KEDAI ABC', 'CNY DECO A002# 26CM  *S', 'ALUMINIUM FOIL 25SQ# 30CM*7.62M'])).toBeUndefined();
    expect(numberOf(['KEDAI ABC', 'CB#: 87870  21/09/2017 10:20:37 AM'])).toBe('87870');
  });
});
