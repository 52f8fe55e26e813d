import { strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  boundedXlsx,
  MAX_SHEET_ROWS,
  readWorkbook,
  sniffWorkbook,
  WORKBOOK_MSG,
  XLSX_MAX_UNCOMPRESSED_BYTES,
} from '../../../lambdas/core/master-data/import/workbook';
import { workbookBytes } from '../../support/workbooks';

const rows = [['Pavadinimas', 'Kodas'], ['Ąžuolas UAB', 123456789], ['Beržas', '0012']];

/** Rewrites the declared uncompressed size of one entry (its local header and its central directory record). */
function lieAboutSize(zip: Uint8Array, size: number, entry?: string): Uint8Array {
  const buf = Buffer.from(zip);
  const name = entry ? Buffer.from(entry) : undefined;
  for (const [signature, sizeAt, nameAt] of [
    [[0x50, 0x4b, 0x03, 0x04], 22, 30],
    [[0x50, 0x4b, 0x01, 0x02], 24, 46],
  ] as const) {
    let at = buf.indexOf(Buffer.from(signature));
    while (name && at >= 0 && !buf.subarray(at + nameAt, at + nameAt + name.length).equals(name)) at = buf.indexOf(Buffer.from(signature), at + 4);
    expect(at).toBeGreaterThanOrEqual(0);
    buf.writeUInt32LE(size, at + sizeAt);
  }
  return new Uint8Array(buf);
}

describe('reading import workbooks', () => {
  it('reads .xlsx and legacy .xls files written by SheetJS alike, cells as text', () => {
    for (const type of ['xlsx', 'xls'] as const) {
      const bytes = workbookBytes(rows, type);
      const sheet = readWorkbook(bytes);
      expect(sheet.kind).toBe(type);
      expect(sheet.firstRow).toBe(1);
      expect(sheet.rows).toEqual([['Pavadinimas', 'Kodas'], ['Ąžuolas UAB', '123456789'], ['Beržas', '0012']]);
    }
  });

  it('reads long codes stored as numbers with all their digits, not as Excel shows them (1.23457E+11)', () => {
    const long = [['Name', 'Code', 'VAT'], ['Alpha UAB', 123456789012, 100012345678], ['Beta UAB', 123456789099, 0.5]];
    for (const type of ['xlsx', 'xls'] as const) {
      const sheet = readWorkbook(workbookBytes(long, type));
      expect(sheet.rows.slice(1)).toEqual([
        ['Alpha UAB', '123456789012', '100012345678'],
        ['Beta UAB', '123456789099', '0.5'],
      ]);
    }
  });

  it('tells the type by content, not by name', () => {
    expect(sniffWorkbook(workbookBytes(rows, 'xlsx'))).toBe('xlsx');
    expect(sniffWorkbook(workbookBytes(rows, 'xls'))).toBe('xls');
    // A zip that is not a workbook (a .docx, say), a PNG, a text file.
    expect(sniffWorkbook(zipSync({ 'word/document.xml': strToU8('<w/>') }))).toBeNull();
    expect(sniffWorkbook(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]))).toBeNull();
    expect(() => readWorkbook(strToU8('Name,Code\nAlfa,1\n'))).toThrow(WORKBOOK_MSG.notWorkbook);
  });

  it('refuses a zip bomb by the declared sizes before inflating', () => {
    const bomb = lieAboutSize(zipSync({ 'xl/workbook.xml': strToU8('<x/>') }), XLSX_MAX_UNCOMPRESSED_BYTES + 1);
    expect(() => boundedXlsx(bomb)).toThrow(WORKBOOK_MSG.tooLargeUnpacked);
    expect(() => readWorkbook(bomb)).toThrow(WORKBOOK_MSG.tooLargeUnpacked);
  });

  it('never lets a part grow past its declared size: the parser only sees what was checked', () => {
    const many = Array.from({ length: 300 }, (_, i) => [`Supplier ${i}`, String(i)]);
    const xlsx = workbookBytes([['Name', 'Code'], ...many], 'xlsx');
    const real = unzipSync(xlsx)['xl/worksheets/sheet1.xml']!.length;
    // The sheet declares 2,000 bytes and inflates to far more.
    const lying = lieAboutSize(xlsx, 2000, 'xl/worksheets/sheet1.xml');
    expect(real).toBeGreaterThan(10_000);
    expect(unzipSync(boundedXlsx(lying))['xl/worksheets/sheet1.xml']!.length).toBe(2000);
    let read: string[][] = [];
    try {
      read = readWorkbook(lying).rows;
    } catch (error) {
      expect((error as Error).name).toBe('WorkbookProblem');
    }
    // At most the rows that fit in the declared 2,000 bytes.
    expect(read.filter((r) => r.some((c) => c !== '')).length).toBeLessThan(50);
  });

  it('refuses an archive that is not readable', () => {
    const broken = workbookBytes(rows, 'xlsx').slice(0, 400);
    expect(() => readWorkbook(broken)).toThrow();
  });

  it('keeps header cells such as __proto__ as plain array cells', () => {
    const sheet = readWorkbook(workbookBytes([['Name', '__proto__', 'constructor'], ['Alfa', 'polluted', 'x']], 'xlsx'));
    expect(sheet.rows[1]).toEqual(['Alfa', 'polluted', 'x']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(sheet.rows[0])).toBe(Array.prototype);
  });

  it('numbers rows from the top of the sheet when the data starts lower', () => {
    const sheet = readWorkbook(workbookBytes([['Name', 'Code'], ['Alfa', '1']], 'xlsx', 'B4'));
    expect(sheet.firstRow + sheet.rows.findIndex((r) => r.includes('Name'))).toBe(4);
    expect(sheet.rows.find((r) => r.includes('Alfa'))).toEqual(['', 'Alfa', '1']);
  });

  it('refuses a sheet with more rows than the limit', () => {
    expect(WORKBOOK_MSG.tooManyRows).toBe(`The sheet has more than ${MAX_SHEET_ROWS} rows; split it into smaller files`);
    const many = Array.from({ length: 52 }, (_, i) => [`n${i}`]);
    expect(() => readWorkbook(workbookBytes(many, 'xlsx'), { maxRows: 50 })).toThrow('The sheet has more than 50 rows; split it into smaller files');
    expect(readWorkbook(workbookBytes(many.slice(0, 50), 'xls'), { maxRows: 50 }).rows).toHaveLength(50);
  });
});
