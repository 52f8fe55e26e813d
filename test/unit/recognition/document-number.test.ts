import { describe, expect, it } from 'vitest';
import { extractDocumentId } from '../../../lambdas/core/recognition/extract/header';
import { documentRows } from '../../../lambdas/core/recognition/extract/rows';
import { textDocument, textRows } from './helpers';

const numberOf = (lines: string[]) => extractDocumentId(textRows(lines))?.value;
const sureOf = (lines: string[]) => extractDocumentId(textRows(lines))?.confidence;

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
    expect(numberOf(['FARMASI ABC', 'TAX INVOICE', 'CASHIER : POS1N  M/C. ID :POS7', 'RECEIPT : 71857936  02/03/18 05:16 PM'])).toBe('71857936');
    expect(numberOf(['KEDAI ABC', 'TAX INVOICE', 'RECEIPT NO.[00522899]  19/01/17 10:48'])).toBe('00522899');
  });

  it("is as sure after a bare \"No\" opening the row under the document's title as after a number label", () => {
    const titled = ['ENW HARDWARE CENTRE (M) SDN. BHD.', '14/04/2018 Tax Invoice', 'No. :CS00233521'];
    expect(numberOf(titled)).toBe('CS00233521');
    expect(sureOf(titled)).toBe(sureOf(['ENW HARDWARE CENTRE (M) SDN. BHD.', 'Tax Invoice No. :CS00233521']));
    expect(numberOf(['KEDAI ABC', 'TAX CASH SALES', 'NO.:UOA-CB18-01713'])).toBe('UOA-CB18-01713');
    // Without the title above it, a bare "No" may number anything: less sure.
    expect(sureOf(['ENW HARDWARE CENTRE (M) SDN. BHD.', 'Cashier: Ali', 'No. :CS00233521'])).toBeLessThan(sureOf(titled)!);
    // Words before it on its row, or an address, are not the title's number.
    expect(numberOf(['BILLION SIX ENTERPRISE', 'TAX INVOICE', 'NO 3, JALAN TAMAN JASA 2,'])).toBeUndefined();
    expect(sureOf(['KEDAI ABC', 'TAX INVOICE', 'Points No. 12345'])).toBeLessThan(sureOf(titled)!);
  });

  it('is as sure after a label word read one letter wrong as after the word', () => {
    const printed = sureOf(['KEDAI ABC', 'Invoice No.: CS 67832']);
    expect(numberOf(['KEDAI ABC', 'Involce No.: CS 67832'])).toBe('CS 67832');
    expect(sureOf(['KEDAI ABC', 'Involce No.: CS 67832'])).toBe(printed);
    expect(sureOf(['KEDAI ABC', 'RECElPT NO: CS 67832'])).toBe(printed);
    // A word two letters off is another word: the bare "No" after it counts less.
    expect(sureOf(['KEDAI ABC', 'Involve No.: CS 67832'])).toBeLessThan(printed!);
  });

  it("is as sure after a cash bill's short label, CB# or C/B No, as after BILL NO", () => {
    const bill = sureOf(['KEDAI ABC', 'BILL NO : 87870']);
    expect(numberOf(['KEDAI ABC', 'CB# : 87870  25/FEB/2017 07:43:54'])).toBe('87870');
    expect(sureOf(['KEDAI ABC', 'CB# : 87870'])).toBe(bill);
    expect(sureOf(['KEDAI ABC', 'C/B NO: 87870'])).toBe(bill);
  });

  it('is as sure after a label whose words a hyphen or a full stop joins as after the spaced label', () => {
    const spaced = sureOf(['KEDAI ABC', 'INVOICE NO: POS022881']);
    expect(numberOf(['KEDAI ABC', 'INVOICE.NO: POS022881'])).toBe('POS022881');
    expect(sureOf(['KEDAI ABC', 'INVOICE.NO: POS022881'])).toBe(spaced);
    expect(numberOf(['KEDAI ABC', 'INV-NO.2003160418000001'])).toBe('2003160418000001');
    expect(sureOf(['KEDAI ABC', 'INV-NO.2003160418000001'])).toBe(spaced);
    expect(sureOf(['KEDAI ABC', 'BILL-NO : 87870'])).toBe(sureOf(['KEDAI ABC', 'BILL NO : 87870']));
  });

  it("is a restaurant till's check number, CHK with or without #", () => {
    expect(numberOf(['PAPPARICH BMC', 'TAX INVOICE', '2003 SAIFUL', 'CHK 274898', '15 JUN 18 08:34:31 PM'])).toBe('274898');
    expect(numberOf(['PAPPARICH BMC', 'Chk# 274898'])).toBe('274898');
    // A word that only starts so is no label.
    expect(numberOf(['PAPPARICH BMC', 'CHKN WINGS 274898'])).toBeUndefined();
  });

  it('keeps a series of letters printed a space before its digits', () => {
    expect(numberOf(['KEDAI ABC', 'INVOICE NO.:  CS 67832', 'CASHIER#:  CASHIER'])).toBe('CS 67832');
    expect(numberOf(['KEDAI ABC', 'INVOICE NO :  CS 23304  DATE: 29/12/2017'])).toBe('CS 23304');
    // An amount after the label is no series and number.
    expect(numberOf(['KEDAI ABC', 'INVOICE: RM 125'])).toBeUndefined();
  });

  it("is the till's unlabelled number on the sale's stamp, the row with the date and the time", () => {
    expect(numberOf(['MR. D.I.Y. (M) SDN BHD', '-TAX INVOICE-', 'SPRAYER SX-260# 550ML', 'TOTAL  6.36', '15-07-18 10:35 SH01 ZI33  T2 R000010082'])).toBe('R000010082');
    expect(numberOf(['LAVENDER CONFECTIONERY & BAKERY S/B', 'TAX INVOICE', '14/04/2018 16:14        B999215'])).toBe('B999215');
    // A labelled number wins; shop, cashier and terminal codes are no number; without the time of day it is no stamp.
    expect(numberOf(['KEDAI ABC', 'Receipt No: CS00093091', '15-07-18 10:35 SH01 ZI33  T2 R000010082'])).toBe('CS00093091');
    expect(numberOf(['KEDAI ABC', '15-07-18 10:35 SH01 ZI33  T2 C01'])).toBeUndefined();
    expect(numberOf(['KEDAI ABC', '15-07-18  ITEM A000123456'])).toBeUndefined();
    expect(numberOf(['KEDAI ABC', '15-07-18 10:35  R000010082  B999215'])).toBeUndefined();
  });

  it("is read on the sale's stamp past a piece of a starred rule standing over it", () => {
    const doc = textDocument(['MR. D.I.Y. (M) SDN BHD', 'TOTAL  6.36', '19-04-18 18:04 SH01 ZJ86']);
    const page = doc.pages[0]!;
    const words = page.lines[2]!.words;
    const stamp = { ...words[0]!.box, width: words[words.length - 1]!.box.left + words[words.length - 1]!.box.width - words[0]!.box.left };
    page.lines[2]!.box = stamp;
    const line = (text: string, left: number, top: number, width: number, height: number) => ({
      text,
      words: [{ text, box: { left, top, width, height }, confidence: 95, page: 1 }],
      box: { left, top, width, height },
      confidence: 95,
      page: 1,
    });
    // The number's end of the printed line, read as a line of its own a little higher; a star of the rule above
    // at the left margin, a third of the print's height.
    page.lines.push(line('T1 R000118085', 0.6, stamp.top - stamp.height * 0.2, 0.2, stamp.height));
    page.lines.push(line('*', 0, stamp.top - stamp.height * 0.3, 0.01, stamp.height / 3));
    expect(extractDocumentId(documentRows(doc))?.value).toBe('R000118085');
  });

  it('is read past a speck between the label and the number', () => {
    // A colon's dots read as "1": a character far smaller than the print, read with little confidence.
    const doc = textDocument(['KEDAI ABC', 'Bill No  1  BM-159572', 'Date  15/05/2017 10:49:40 AM']);
    const speck = doc.pages[0]!.lines[1]!.words.find((w) => w.text === '1')!;
    speck.confidence = 45;
    speck.box = { ...speck.box, top: speck.box.top + speck.box.height * 0.3, height: speck.box.height * 0.3 };
    expect(extractDocumentId(documentRows(doc))?.value).toBe('BM-159572');
    // Read with confidence, or as large as the print, it is a character.
    speck.confidence = 90;
    expect(extractDocumentId(documentRows(doc))?.value).not.toBe('BM-159572');
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
