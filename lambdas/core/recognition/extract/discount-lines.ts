/**
 * A discount on the whole receipt as a line of its own. A till prints a coupon or member discount between the items'
 * sum and the total (`SUB-TOTAL 15.60`, `COUPON DISCOUNT 8.40`, `GRAND TOTAL 7.20`): the items alone then do not add
 * up to what was paid. Where taking the labelled discounts off the items' sum gives the total (to the cent, or to
 * the total's cash rounding), each discount becomes a line with a negative amount, so that the lines add up to the
 * document as printed, as an accounting system's import of the lines expects.
 */
import { formatAmount, roundMoney, toFiveCents } from './amounts';
import type { LineItem } from './item-rows';
import { foundInRow, type Row } from './rows';
import { labelledAmounts, type LabelledAmount } from './totals';

/** Does `sum` come to `total`: to the cent, or rounded to the nearest 5 cents? */
function comesTo(sum: number, total: number): boolean {
  return Math.abs(sum - total) < 0.005 || Math.abs(toFiveCents(sum) - total) < 0.005;
}

function discountLine(d: LabelledAmount): LineItem {
  const value = Math.abs(d.amount.value);
  const label = d.labelText.replace(/[\s:=.-]+$/, '').trim();
  const start = Math.max(0, d.labelRow.text.indexOf(label));
  return {
    description: foundInRow(d.labelRow, start, start + label.length, label),
    total_price: foundInRow(d.row, d.amount.index, d.amount.index + d.amount.raw.length, formatAmount(-value)),
  };
}

/**
 * The discount lines that make `items` add up to `total`, or none: the labelled discounts of the document (one
 * amount, the rightmost, per row; none of 0; none on a row the items took in), taken off the items' sum, must give
 * the total.
 */
export function discountLines(rows: Row[], items: LineItem[], total: number): LineItem[] {
  const amounts = items.map((li) => (li.total_price ? Number(li.total_price.value) : NaN));
  if (!amounts.length || !amounts.every(Number.isFinite)) return [];
  const sum = roundMoney(amounts.reduce((a, b) => a + b, 0));
  if (comesTo(sum, total)) return [];
  // A discount row the items took in as one of them is counted there already.
  const itemRow = (r: Row) => items.some((li) => li.row && li.row.page === r.page && Math.abs(li.row.box.top - r.box.top) < 1e-6);
  const discounts = labelledAmounts(rows).filter((a) => a.kind === 'discount' && a.fromRight === 0 && Math.abs(a.amount.value) >= 0.01 && !itemRow(a.row));
  if (!discounts.length) return [];
  const off = roundMoney(discounts.reduce((s, d) => s + Math.abs(d.amount.value), 0));
  return comesTo(roundMoney(sum - off), total) ? discounts.map(discountLine) : [];
}
