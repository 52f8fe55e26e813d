import Papa from 'papaparse';
import { FORMULA_CELL } from '../../../../../shared/csv-safety';
import { stripForbiddenChars } from '../../../../../shared/text';
import type { ExportTable } from './table';

/**
 * How the file writes columns and amounts: as most programs read CSV, or as Excel reads it with Lithuanian (and
 * most continental) settings — semicolons between columns and a decimal comma; a comma-separated file opens there
 * as one column, and `230.00` is not read as a number.
 */
export const CSV_FORMATS = {
  comma: { label: 'Commas, decimal point (1234.56)', delimiter: ',', decimal: '.' },
  semicolon: { label: 'Semicolons, decimal comma (1234,56): Excel in Lithuanian', delimiter: ';', decimal: ',' },
} as const;
export type CsvFormat = keyof typeof CSV_FORMATS;
export const isCsvFormat = (v: unknown): v is CsvFormat => typeof v === 'string' && v in CSV_FORMATS;

const PLAIN_AMOUNT = /^-?\d+(\.\d+)?$/;

/**
 * The CSV text of an export table (quoted where needed, CRLF line ends), in the given format; the cells of
 * `amountColumns` (column indexes) are written with the format's decimal mark. Control characters other than tab,
 * CR and LF and lone surrogates are left out, as in the server's files (shared/text.ts). Cells that a spreadsheet
 * would run as a formula get a leading quote by the server's rule: only a plain number (-12.10, -12,10) stays as it
 * is (shared/csv-safety.ts).
 */
export function buildCsv(table: ExportTable, format: CsvFormat = 'comma', amountColumns: ReadonlySet<number> = new Set()): string {
  const { delimiter, decimal } = CSV_FORMATS[format];
  const clean = table.rows.map((row) => row.map(stripForbiddenChars));
  const rows = decimal === '.' ? clean : clean.map((row) => row.map((cell, i) => (amountColumns.has(i) && PLAIN_AMOUNT.test(cell) ? cell.replace('.', decimal) : cell)));
  return Papa.unparse({ fields: table.headers.map(stripForbiddenChars), data: rows }, { quotes: false, delimiter, newline: '\r\n', escapeFormulae: FORMULA_CELL, header: true });
}

/** The file's bytes: UTF-8 with a BOM so spreadsheet programs read diacritics (ė, š, ž) right. */
export function csvBlob(csv: string): Blob {
  return new Blob(['\ufeff', csv], { type: 'text/csv;charset=utf-8' });
}
