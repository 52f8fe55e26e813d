/**
 * Line items. Invoices: a table under a header row ("No. | Code | Description | Qty | Unit | Price |
 * VAT % | Amount"), cells assigned to the header's columns by position (`item-table.ts`). Receipts without a
 * header: rows between the top and the first total that end with an amount ("2 x 3.50  7.00";
 * `item-receipt.ts`). What both share is in `item-rows.ts`.
 */
import { amountsEqual, findAmounts, formatAmount } from './amounts';
import { receiptItems } from './item-receipt';
import type { LineItem } from './item-rows';
import { headerColumns, tableItems } from './item-table';
import type { Row } from './rows';

export type { LineItem } from './item-rows';

export function extractLineItems(rows: Row[]): LineItem[] {
  for (let i = 0; i < rows.length; i++) {
    const cols = headerColumns(rows[i]!);
    if (cols) {
      const items = tableItems(rows, i, cols);
      if (items.length) return items.map(signedByCount);
    }
  }
  return receiptItems(rows).map(signedByCount);
}

/** A negative count right before the row's last amount and a tax code, if any: "… 2.13  0  1  0  -1  2.13". */
const COUNT_BEFORE_AMOUNT = /(?<![\d.,])(-\d+)\s+\S*?(\d+[.,]\d{2})\s*[A-Z]{0,3}\s*$/;

/**
 * A returned item: its count right before its amount is negative, and the unit price printed first on its row times
 * that count is the amount but for its sign. The amount is then negative, as returns are, whether the minus was
 * printed or the reading lost it ("O.C. WHITE  2.13  0  1  0  -1  2.13", the items adding up to the total only so).
 */
function signedByCount(item: LineItem): LineItem {
  const total = item.total_price;
  const text = item.row?.value;
  if (!total || !text || Number(total.value) <= 0) return item;
  const m = COUNT_BEFORE_AMOUNT.exec(text);
  const price = findAmounts(text)[0];
  if (!m || !price || price.index >= m.index) return item;
  const count = Number(m[1]);
  if (!amountsEqual(price.value * count, -Number(total.value))) return item;
  return { ...item, total_price: { ...total, value: formatAmount(-Number(total.value)) } };
}
