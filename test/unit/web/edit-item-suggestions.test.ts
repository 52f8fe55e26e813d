import { describe, expect, it } from 'vitest';
import { companySchema, defaultSchema } from '../../../lambdas/core/content/schema';
import { addRow, emptyContent } from '../../../lambdas/core/content/tree';
import { itemsQuerySchema } from '../../../shared/schemas/master-data';
import { ITEM_OPTIONS, itemsQuery } from '../../../web/src/features/edit-receipt/api/master-data';
import { formTable, sameTableRow, type CellState } from '../../../web/src/features/edit-receipt/lib/form';
import { FLOAT, floatingListPlace, itemSearch, offersItems } from '../../../web/src/features/edit-receipt/lib/item-suggestions';

const rect = (left: number, top: number, width: number, height: number) => ({ left, top, width, right: left + width, bottom: top + height });

describe("edit screen: a line item's description offers the company's items", () => {
  it('the schema marks the description column, and only it, as offering items', () => {
    const lineColumns = defaultSchema().filter((f) => f.parent_schema_id === 'line_item');
    expect(lineColumns.filter((f) => f.settings.items).map((f) => f.id)).toEqual(['description']);
    // (the company's schema keeps the setting whatever its Visible/Required overrides)
    expect(companySchema({ description: { required: true } }).find((f) => f.id === 'description')?.settings).toEqual({ items: true });
    // the Lines pop-up's cells carry it: the screen decides by the setting, not by the column's id
    const schema = companySchema();
    const doc = addRow(emptyContent(schema), schema, 'line_items').doc;
    const cells = formTable(schema, doc.items, 'line_items', 'receipt')!.rows[0]!.cells;
    expect(cells.filter(offersItems).map((c) => c.schemaId)).toEqual(['description']);
    const renamed = schema.map((f) => (f.id === 'product_code' ? { ...f, settings: { items: true } } : f.id === 'description' ? { ...f, settings: {} } : f));
    const other = formTable(renamed, doc.items, 'line_items', 'receipt')!.rows[0]!.cells;
    expect(other.filter(offersItems).map((c) => c.schemaId)).toEqual(['product_code']);
  });

  it('a row whose cells change the setting renders again', () => {
    const schema = companySchema();
    const doc = addRow(emptyContent(schema), schema, 'line_items').doc;
    const row = formTable(schema, doc.items, 'line_items', 'receipt')!.rows[0]!;
    const none: CellState = { drafts: {}, errors: {}, focusedId: null };
    const without = { ...row, cells: row.cells.map((c) => ({ ...c, settings: {} })) };
    expect(sameTableRow(row, { ...row, cells: row.cells.map((c) => ({ ...c })) }, none, none)).toBe(true);
    expect(sameTableRow(row, without, none, none)).toBe(false);
  });

  it('asks GET /items what its query schema accepts: one company, a few items, the name searched', () => {
    const q = itemsQuery('c1', 'offi');
    expect(itemsQuerySchema.strict().parse(q)).toEqual({ company_id: 'c1', limit: ITEM_OPTIONS, search_name: 'offi' });
    expect(ITEM_OPTIONS).toBeLessThanOrEqual(10);
    expect(itemsQuerySchema.strict().parse(itemsQuery('c1', 'offi', 'cursor'))).toMatchObject({ next: 'cursor' });
    // (no with_external_data: GET /items has none)
    expect(q).not.toHaveProperty('with_external_data');
  });

  it('searches the focused description typed in, on an editable document of a company, until an item is chosen', () => {
    const settings: Record<string, { items?: boolean }> = { 'r1.description': { items: true }, 'r1.quantity': {} };
    const values: Record<string, string> = { 'r1.description': 'Offi', 'r1.quantity': '2' };
    const base = {
      focusedId: 'r1.description',
      typedField: 'r1.description',
      readOnly: false,
      companyId: 'c1',
      settingsOf: (id: string) => settings[id],
      valueOf: (id: string) => values[id] ?? '',
      chosen: null,
    };
    expect(itemSearch(base)).toEqual({ cell: 'r1.description', text: 'Offi' });
    // focused without typing (the list opens as one types), another column, no company, read-only
    expect(itemSearch({ ...base, typedField: null })).toBeNull();
    expect(itemSearch({ ...base, focusedId: 'r1.quantity', typedField: 'r1.quantity' })).toBeNull();
    expect(itemSearch({ ...base, companyId: 'NONE' })).toBeNull();
    expect(itemSearch({ ...base, readOnly: true })).toBeNull();
    // nothing typed; the item just chosen (typing on offers again)
    expect(itemSearch({ ...base, valueOf: () => '  ' })).toBeNull();
    expect(itemSearch({ ...base, chosen: { cell: 'r1.description', name: 'Offi' } })).toBeNull();
    expect(itemSearch({ ...base, chosen: { cell: 'r1.description', name: 'Of' } })).toEqual({ cell: 'r1.description', text: 'Offi' });
  });

  it("floats the list under the cell, over it near the window's bottom, inside the window, hidden once the cell scrolls away", () => {
    const view = { width: 1500, height: 950 };
    const grid = rect(100, 200, 1200, 500);
    const below = floatingListPlace(rect(150, 300, 180, 30), grid, view);
    expect(below).toEqual({ top: 332, left: 150, width: FLOAT.minWidth, maxHeight: FLOAT.height, hidden: false });
    // a wide cell: as wide as it
    expect(floatingListPlace(rect(150, 300, 400, 30), grid, view).width).toBe(400);
    // the last rows near the window's bottom: the list opens upwards, from above the cell
    const above = floatingListPlace(rect(150, 820, 180, 30), grid, view);
    expect(above).toMatchObject({ bottom: 950 - 820 + FLOAT.gap, maxHeight: FLOAT.height });
    expect(above.top).toBeUndefined();
    // a phone: never past the window's right edge
    const phone = floatingListPlace(rect(250, 300, 150, 30), rect(8, 100, 344, 500), { width: 360, height: 740 });
    expect(phone.left + phone.width).toBeLessThanOrEqual(360 - FLOAT.margin);
    expect(phone.left).toBeGreaterThanOrEqual(FLOAT.margin);
    // scrolled out of the grid's view (under its bottom edge, or sideways)
    expect(floatingListPlace(rect(150, 720, 180, 30), grid, view).hidden).toBe(true);
    expect(floatingListPlace(rect(1310, 300, 180, 30), grid, view).hidden).toBe(true);
  });
});
