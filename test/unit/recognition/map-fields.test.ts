import { describe, expect, it } from 'vitest';
import { blocksToDocument, toAnalyzeExpenseResult } from '../../../lambdas/core/recognition/expense';
import { extractDocument } from '../../../lambdas/core/recognition/extract';
import { detectDocumentKind, UNSUPPORTED_MESSAGE, UnsupportedDocumentError } from '../../../lambdas/core/recognition/file-type';
import { mapExpenseToFields, normaliseValue } from '../../../lambdas/core/recognition/map-fields';
import { textDocument } from './helpers';

const receipt = textDocument([
  '        SWEET FOREST CAFE',
  '      NO 21,JLN BUNGA KANTAN',
  '     TAMAN P.RAMLEE SETAPAK',
  '      53000 KUALA LUMPUR.',
  '   (GST Reg. No : 999465809408)',
  '          Tax Invoice',
  'INV No.: 593101          Pax(s): 2',
  'Date : 14-02-2018 13:02:42',
  'Smoked Duck Spaghetti',
  '1x        12.50      12.50  SR',
  'Hot Green Tea',
  '2x         2.90       5.80  SR',
  'Total (Inclusive of GST):   30.30',
  'Total:                      30.30',
  'Cash                        50.00',
  'Change                      19.70',
]);

describe('extraction to AnalyzeExpense shape and back', () => {
  it('turns a receipt into SummaryFields, LineItemGroups and Blocks that map back to the fields', () => {
    const result = toAnalyzeExpenseResult(receipt, extractDocument(receipt));
    const doc = result.ExpenseDocuments![0]!;
    const types = doc.SummaryFields!.map((f) => f.Type!.Text);
    expect(types).toEqual(expect.arrayContaining(['VENDOR_NAME', 'VENDOR_ADDRESS', 'INVOICE_RECEIPT_ID', 'INVOICE_RECEIPT_DATE', 'TOTAL']));
    expect(doc.Blocks!.filter((b) => b.BlockType === 'PAGE')).toHaveLength(1);
    expect(doc.Blocks!.filter((b) => b.BlockType === 'WORD').length).toBeGreaterThan(40);
    const f = mapExpenseToFields(result);
    expect(f.supplier_name?.value).toBe('SWEET FOREST CAFE');
    expect(f.supplier_address?.value).toBe('NO 21,JLN BUNGA KANTAN TAMAN P.RAMLEE SETAPAK 53000 KUALA LUMPUR.');
    expect(f.supplier_vat_id?.value).toBe('999465809408');
    expect(f.document_id?.value).toBe('593101');
    expect(f.issue_date?.value).toBe('2018-02-14');
    expect(f.amount_total?.value).toBe('30.30');
    expect(f.line_items.map((l) => [l.description?.value, l.quantity?.value, l.total_price?.value])).toEqual([
      ['Smoked Duck Spaghetti', '1', '12.50'],
      ['Hot Green Tea', '2', '5.80'],
    ]);
    // The Blocks give back the same words.
    const words = blocksToDocument(result).pages[0]!.lines.flatMap((l) => l.words.map((w) => w.text));
    expect(words).toContain('Spaghetti');
  });

  it('normalises values as printed by Textract', () => {
    expect(normaliseValue('date', 'Dec 25, 2018')).toBe('2018-12-25');
    expect(normaliseValue('date', '03/04/2024', { dateFormat: 'MM/DD/YYYY' })).toBe('2024-03-04');
    expect(normaliseValue('amount', '$1,234.50')).toBe('1234.50');
    expect(normaliseValue('amount', '1 234,50 €')).toBe('1234.50');
    expect(normaliseValue('iban', 'lt12 1000 0111 0100 1000')).toBe('LT121000011101001000');
    expect(normaliseValue('iban', 'LT12 1000 0111 0100 1001')).toBeUndefined();
    expect(normaliseValue('currency', '€')).toBe('EUR');
    expect(normaliseValue('rate', '21 %')).toBe('21');
    expect(normaliseValue('date', 'not a date')).toBeUndefined();
  });
});

describe('file types', () => {
  it.each([
    [[0x25, 0x50, 0x44, 0x46, 0x2d], '', '', 'pdf'],
    [[0xff, 0xd8, 0xff, 0xe0], '', '', 'image'],
    [[0x89, 0x50, 0x4e, 0x47], '', '', 'image'],
    [[0x49, 0x49, 0x2a, 0x00], '', '', 'image'],
    [[0x50, 0x4b, 0x03, 0x04], '', 'invoice.docx', 'office'],
    [[0x50, 0x4b, 0x03, 0x04], 'application/vnd.oasis.opendocument.spreadsheet', 'x', 'office'],
    [[0x50, 0x4b, 0x03, 0x04], 'application/zip', 'a.zip', 'unknown'],
    [[0xd0, 0xcf, 0x11, 0xe0], '', 'old.xls', 'office'],
    [[0x3c, 0x3f, 0x78, 0x6d, 0x6c], '', '', 'xml'],
    [[0x68, 0x65, 0x6c, 0x6c, 0x6f], 'text/plain', 'a.txt', 'unknown'],
  ])('%j %s %s → %s', (bytes, mime, name, kind) => {
    expect(detectDocumentKind(new Uint8Array(bytes), mime, name)).toBe(kind);
  });

  it('has one message for files that cannot be recognised', () => {
    const e = new UnsupportedDocumentError('docx');
    expect(e.message).toBe(UNSUPPORTED_MESSAGE);
    expect(UNSUPPORTED_MESSAGE).toBe('Preview cannot be made for this file type');
    expect(e.statusCode).toBe(422);
  });
});
