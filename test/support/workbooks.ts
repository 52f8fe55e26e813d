/** Workbooks for import tests, written with SheetJS's writer (@e965/xlsx): XLSX or legacy XLS (BIFF8). */
import * as XLSX from '@e965/xlsx';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const XLS_TYPE = 'application/vnd.ms-excel';

/** One sheet holding `rows` (arrays of cell values) from cell A1, or from `origin` (e.g. 'B3'). */
export function workbookBytes(rows: unknown[][], bookType: 'xlsx' | 'xls' = 'xlsx', origin?: string): Uint8Array {
  const sheet = origin ? XLSX.utils.sheet_add_aoa({}, rows, { origin }) : XLSX.utils.aoa_to_sheet(rows);
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, 'Sheet1');
  // Compressed, as spreadsheet programs save them.
  const out = XLSX.write(book, { type: 'array', bookType, compression: true }) as ArrayBuffer;
  return new Uint8Array(out);
}
