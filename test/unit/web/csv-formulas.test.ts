import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { csvCell as serverCsvCell } from '../../../lambdas/core/export/csv';
import { isFormulaCell } from '../../../shared/csv-safety';
import { buildCsv } from '../../../web/src/features/export/lib/csv';

const ATTACK = "-2+3+cmd|' /C calc'!A0";

describe('CSV cells a spreadsheet would run as formulas: one rule for the pop-up, the server and NSOFT', () => {
  it('prefixes a cell starting with minus and a digit that is not a plain number, in both formats of the export pop-up', () => {
    const table = { headers: ['NOTES', 'TOTAL'], rows: [[ATTACK, '-12.10']] };
    const comma = Papa.parse<string[]>(buildCsv(table, 'comma', new Set([1])), { delimiter: ',' }).data[1]!;
    expect(comma).toEqual([`'${ATTACK}`, '-12.10']);
    const semicolon = Papa.parse<string[]>(buildCsv(table, 'semicolon', new Set([1])), { delimiter: ';' }).data[1]!;
    expect(semicolon).toEqual([`'${ATTACK}`, '-12,10']);
  });

  it('leaves plain numbers (negative, with a decimal point or comma) as they are and prefixes everything else that starts with = + - @ tab or CR', () => {
    for (const plain of ['-12.10', '-12,10', '-3', '12.5', '0', 'text', '', 'a-1']) expect(isFormulaCell(plain), plain).toBe(false);
    for (const formula of [ATTACK, '-1-1', '-1.5.5', '-.5', '+1', '=1', '@SUM(A1)', '\t-1', '\r1', '-', '-12,10,5']) expect(isFormulaCell(formula), formula).toBe(true);
  });

  it('gives the same cells in the server CSV and the pop-up CSV', () => {
    for (const value of [ATTACK, '-12.10', '-12,10', '-1-1', '+1', '@x', '=1']) {
      const browser = Papa.parse<string[]>(buildCsv({ headers: ['A'], rows: [[value]] }), { delimiter: ',' }).data[1]![0];
      const server = Papa.parse<string[]>(serverCsvCell(value), { delimiter: ',' }).data[0]![0];
      expect(browser, value).toBe(server);
      expect(server!.startsWith("'"), value).toBe(isFormulaCell(value));
    }
  });
});
