/**
 * CSV cells a spreadsheet would run as a formula (CSV/DDE injection): the one rule of every CSV the product writes
 * (the server's CSV export, the export pop-up's CSV in the browser and the NSOFT import file).
 *
 * A cell starting with = + - @, a tab or a carriage return is a formula to Excel and LibreOffice, and is written with
 * a leading ' so that it stays text. Only a plain number (optionally negative, with a decimal point or comma: -12.10,
 * -12,10) is left as it is, so amounts stay numbers; "-2+3+cmd|' /C calc'!A0" starts with a minus and a digit too,
 * and is prefixed.
 */

/** A cell starting with a formula character that is not a plain number. For Papa.unparse's `escapeFormulae`. */
export const FORMULA_CELL = /^(?!-?\d+([.,]\d+)?$)[=+\-@\t\r]/;

/** True when a spreadsheet would run the cell as a formula: it gets a leading ' . */
export function isFormulaCell(value: string): boolean {
  return FORMULA_CELL.test(value);
}
