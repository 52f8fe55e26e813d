/**
 * Line items. Invoices: a table under a header row ("No. | Code | Description | Qty | Unit | Price |
 * VAT % | Amount"), cells assigned to the header's columns by position (`item-table.ts`). Receipts without a
 * header: rows between the top and the first total that end with an amount ("2 x 3.50  7.00";
 * `item-receipt.ts`). What both share is in `item-rows.ts`.
 */
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
      if (items.length) return items;
    }
  }
  return receiptItems(rows);
}
