/**
 * CSV export (RFC 4180): a header row of the column titles upper-cased, one row per document. UTF-8 with
 * a byte-order mark so spreadsheet programs read Lithuanian letters right; CRLF line ends. Control characters other
 * than tab, CR and LF and lone surrogates are left out of the cells (shared/text.ts).
 */
import { isFormulaCell } from '../../../shared/csv-safety';
import { stripForbiddenChars } from '../../../shared/text';
import { exportTable, type ExportColumn, type ExportDocument } from './fields';

export function csvCell(raw: string): string {
  const value = stripForbiddenChars(raw);
  // Cells starting with = + - @ are formulas to spreadsheets; a leading quote keeps them text (shared/csv-safety.ts).
  const safe = isFormulaCell(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) || safe !== safe.trim() ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function buildCsv(docs: ExportDocument[], columns: ExportColumn[]): string {
  const header = columns.map((c) => csvCell(c.title.toUpperCase()));
  const rows = exportTable(docs, columns).map((r) => r.map(csvCell).join(','));
  return `\ufeff${[header.join(','), ...rows].join('\r\n')}\r\n`;
}
