/**
 * What the two readings of line items (a table under a header, receipt rows) share: the item's shape, the rows
 * that sum the items up rather than being items (totals, counts), units of measure, and when a description
 * names an item.
 */
import type { LineItemFieldId } from '../types';
import { findAmounts } from './amounts';
import type { Found, Row } from './rows';
import { classifyLabel } from './totals';

export type LineItem = Partial<Record<LineItemFieldId, Found>> & { row?: Found };

export function formatQuantity(v: number): string {
  return Number.isInteger(v) ? String(v) : String(Math.round(v * 1000) / 1000);
}

/** A row's text without the amount it ends with: its label. */
export function rowLabel(row: Row): string {
  return row.text.replace(/[\d.,\s%:€$-]+$/g, '');
}

const TOTALS_KINDS = ['total_final', 'total', 'subtotal', 'tax', 'rounding', 'paid', 'change'];

export function isTotalsRow(row: Row): boolean {
  const label = rowLabel(row);
  const k = classifyLabel(label).kind;
  return TOTALS_KINDS.includes(k) && /\p{L}{3,}/u.test(label) && !/^\d/.test(row.text.trim());
}

/** A label that starts with a total word ("Total Qty:", "Sub Total", "Jumlah"). */
export const SUMMARY_START = /^\W*(sub[\s-]*total|total|grand\s*total|jumlah|tot)\b/i;

/** A count of the items as a label ("No. Qtys:", "Item(s) :", "Items="). */
const COUNT_LABEL = /\b(no\.?\s*(of\s*)?)?(qtys?|qty\(s\)|quantity|items?|item\(s\)|item\s*count)\s*[:=]/gi;

/** A count of the items opening a row: its label and number ("QTY:  6  ", "No. of Items: 3 "). */
const LEADING_COUNT = /^\W*(no\.?\s*(of\s*)?)?(qtys?|qty\(s\)|quantity|items?|item\(s\)|item\s*count)\s*[:=]\s*\d+(?:[.,]\d+)?\s+/i;

/** A row of item counts and nothing else ("No. Qtys:  1.00 No. Items:  1"); not one that an item runs into. */
function countsRow(text: string): boolean {
  // A count word and numbers only ("QTY  1  7.50" under the items): the items counted and summed.
  if (/^\W*(qtys?|qty\(s\)|quantity|items?|item\(s\))\s+[\d.,\s]+$/i.test(text.trim())) return true;
  const rest = text.replace(COUNT_LABEL, '');
  return rest !== text && !/\p{L}/u.test(rest);
}

/**
 * A row with an amount that sums the items up rather than being one:
 * - its label starts with a total word, whatever follows ("Total Qty:  7  51.42": the items counted and summed);
 * - or it holds counts of the items and nothing else ("No. Qtys:  1.00 No. Items:  1"), or a count word and numbers ("QTY  1  7.50");
 * - or it starts with a count, a totals label follows, and its amount is the sum of the items before it
 *   ("2  SUB TOTAL  295.00" after 150.00 and 145.00). A count alone does not tell ("1 COLGATE TOTAL 12.90" is an item).
 */
export function summaryRow(row: Row, items: LineItem[]): boolean {
  const amounts = findAmounts(row.text);
  const label = rowLabel(row).trim();
  // After the items, a total word starts their summary with or without an amount ("TOTAL QUANTITY  2"), also after
  // the items' count ("QTY:  6  TOTAL AMOUNT:  31.60").
  const afterCount = label.replace(LEADING_COUNT, '');
  if ((SUMMARY_START.test(label) || (afterCount !== label && SUMMARY_START.test(afterCount))) && (amounts.length > 0 || items.length > 0)) return true;
  if (!amounts.length) return false;
  if (countsRow(row.text)) return true;
  if (!items.length || !/^\d/.test(row.text.trim()) || !TOTALS_KINDS.includes(classifyLabel(label).kind)) return false;
  const sum = items.reduce((s, it) => s + Number(it.total_price?.value ?? NaN), 0);
  return Math.abs(amounts[amounts.length - 1]!.value - sum) < 0.005;
}

/** A total of the supplies at one tax rate ("Total 0% supplies: 39.01"), which a table of items grouped by rate prints after each group. */
export function rateTotalRow(row: Row): boolean {
  return isTotalsRow(row) && classifyLabel(rowLabel(row)).rate !== undefined;
}

/** Whether more items follow the rate totals from row `i` on: the first row after them reads as an item. */
export function itemsGoOn(rows: Row[], i: number, isItem: (row: Row) => boolean): boolean {
  let j = i;
  while (j < rows.length && rows[j]!.page === rows[i]!.page && rateTotalRow(rows[j]!)) j++;
  const next = rows[j];
  return !!next && next.page === rows[i]!.page && !isTotalsRow(next) && isItem(next);
}

/** Units of measure printed beside an item's numbers ("3 UNIT *", "2 PCS"): no item's name. */
const UNIT_WORDS = /^(units?|pcs?|pieces?|ea|each|nos?|kgs?|gm?|ltrs?|ml|box(es)?|pkts?|ctns?|sets?|pairs?|rolls?|btls?|bottles?|packs?)$/i;

/** Whether a description names an item: a word of three letters or more that is not a unit. */
export function namesItem(description: string | undefined): boolean {
  return (description?.match(/\p{L}{3,}/gu) ?? []).some((w) => !UNIT_WORDS.test(w));
}
