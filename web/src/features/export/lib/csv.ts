import Papa from 'papaparse';
import type { ExportTable } from './table';

/**
 * Cells that a spreadsheet would run as a formula are prefixed with a quote; a minus followed by a digit is a
 * negative amount, not a formula, and stays as it is.
 */
const FORMULA_START = /^[=+@\t\r]|^-(?![\d.])/;

/** The CSV text of an export table (comma separated, quoted where needed, CRLF line ends). */
export function buildCsv(table: ExportTable): string {
  return Papa.unparse(
    { fields: table.headers, data: table.rows },
    { quotes: false, newline: '\r\n', escapeFormulae: FORMULA_START, header: true },
  );
}

/** The file's bytes: UTF-8 with a BOM so spreadsheet programs read diacritics (ė, š, ž) right. */
export function csvBlob(csv: string): Blob {
  return new Blob(['\ufeff', csv], { type: 'text/csv;charset=utf-8' });
}
