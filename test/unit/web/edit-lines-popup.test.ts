import { describe, expect, it } from 'vitest';
import { companySchema } from '../../../lambdas/core/content/schema';
import { addRow, emptyContent } from '../../../lambdas/core/content/tree';
import { formTable, formTables, sameTableRow, type CellState } from '../../../web/src/features/edit-receipt/lib/form';
import { OVERSCAN, rowsToDraw, WINDOW_FROM, withGaps } from '../../../web/src/features/edit-receipt/lib/table-window';

/** An invoice's content with `n` line items, each cell holding its row's number. */
function invoiceWithLines(n: number) {
  const schema = companySchema();
  let doc = emptyContent(schema);
  for (let i = 0; i < n; i++) doc = addRow(doc, schema, 'line_items').doc;
  return { schema, content: doc.items };
}

describe('edit screen: the Lines pop-up of a long invoice', () => {
  it('builds the one table it shows, as the tabs show it', () => {
    const { schema, content } = invoiceWithLines(120);
    const table = formTable(schema, content, 'line_items', 'invoice');
    expect(table?.rows).toHaveLength(120);
    const onTabs = [...formTables(schema, content, 'details', 'invoice'), ...formTables(schema, content, 'advanced', 'invoice')].find((t) => t.id === 'line_items');
    expect(table).toEqual(onTabs);
    expect(formTable(schema, content, 'nope', 'invoice')).toBeNull();
  });

  it('a row renders again only when what it shows changed', () => {
    const { schema, content } = invoiceWithLines(3);
    const rows = formTable(schema, content, 'line_items', 'invoice')!.rows;
    // the same rows built again from the same content (a save answers the whole content) compare equal
    const again = formTable(schema, structuredClone(content), 'line_items', 'invoice')!.rows;
    const none: CellState = { drafts: {}, errors: {}, focusedId: null };
    expect(again[1]).not.toBe(rows[1]);
    expect(sameTableRow(rows[1]!, again[1]!, none, none)).toBe(true);
    const cell = rows[1]!.cells[0]!.id;
    const other = rows[2]!.cells[0]!.id;
    // a key typed in row 2: row 2 renders, rows 1 and 3 do not
    const typed: CellState = { ...none, drafts: { [cell]: 'x' }, focusedId: cell };
    expect(sameTableRow(rows[1]!, rows[1]!, none, typed)).toBe(false);
    expect(sameTableRow(rows[0]!, rows[0]!, none, typed)).toBe(true);
    expect(sameTableRow(rows[2]!, rows[2]!, none, typed)).toBe(true);
    // the next key in the same cell, an error, the focus moving
    expect(sameTableRow(rows[1]!, rows[1]!, typed, { ...typed, drafts: { [cell]: 'xy' } })).toBe(false);
    expect(sameTableRow(rows[1]!, rows[1]!, typed, { ...typed, errors: { [cell]: 'Bad' } })).toBe(false);
    expect(sameTableRow(rows[2]!, rows[2]!, typed, { ...typed, focusedId: other })).toBe(false);
    // a saved value that changed
    const changed = { ...again[1]!, cells: again[1]!.cells.map((c, k) => (k === 0 ? { ...c, value: 'new' } : c)) };
    expect(sameTableRow(rows[1]!, changed, none, none)).toBe(false);
  });

  it('draws the rows in and near the view of a long table, the focused one always, gaps standing in for the others', () => {
    expect(rowsToDraw(WINDOW_FROM, { top: 0, height: 500 }, 37)).toHaveLength(WINDOW_FROM);
    const count = 300;
    const top = rowsToDraw(count, { top: 0, height: 555 }, 37);
    expect(top[0]).toBe(0);
    expect(top[top.length - 1]).toBe(15 + OVERSCAN);
    const mid = rowsToDraw(count, { top: 150 * 37, height: 555 }, 37, [3]);
    expect(mid[0]).toBe(3);
    expect(mid[1]).toBe(150 - OVERSCAN);
    expect(mid).toContain(165);
    expect(withGaps(count, mid).slice(0, 4)).toEqual([{ gap: 3, at: 0 }, { row: 3 }, { gap: 150 - OVERSCAN - 4, at: 4 }, { row: 150 - OVERSCAN }]);
    const end = rowsToDraw(count, { top: count * 37 - 555, height: 555 }, 37);
    expect(end[end.length - 1]).toBe(count - 1);
    // a view left below the rows (many deleted): the last rows
    const past = rowsToDraw(count, { top: 900 * 37, height: 555 }, 37);
    expect(past[past.length - 1]).toBe(count - 1);
    expect(past.length).toBeGreaterThan(15);
    // every row is either drawn or in a gap, once
    const parts = withGaps(count, mid);
    expect(parts.reduce((n, p) => n + ('gap' in p ? p.gap : 1), 0)).toBe(count);
  });
});
