import { memo, useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { ContentItem, SchemaField } from '../../../../../shared/schemas/content';
import type { Item } from '../../../../../shared/schemas/master-data';
import { Button } from '../../../components/ui/Button';
import { Icon } from '../../../components/ui/Icon';
import { Modal } from '../../../components/ui/Modal';
import { focusElement, focusLost, useFocusNeighbourOnRemove } from '../../../components/ui/focus';
import { formTable, sameTableRow, type FormTableRow, type ReceiptKind } from '../lib/form';
import { offersItems } from '../lib/item-suggestions';
import { ROW_HEIGHT, rowsToDraw, withGaps, type ScrollView } from '../lib/table-window';
import { FieldInput, SuggestingInput, type FieldEvents, type SuggestionOption } from './FieldForm';

/** The company's items found for what was typed in one cell (of a column with the schema's `items` setting). */
export interface ItemChoice {
  cell: string;
  items: Item[];
}

const NO_ITEMS: Item[] = [];
const itemOption = (item: Item): SuggestionOption => ({ key: item.name_id, label: item.name });

interface RowProps {
  row: FormTableRow;
  /** 0-based place of the row. */
  index: number;
  last: boolean;
  events: FieldEvents;
  /** `from`: the Move up / Move down button used (the focus follows the row to its new place). */
  onMove(rowId: string, position: number, from: HTMLElement): void;
  onDelete(rowId: string): void;
  /** Cells of columns with the `items` setting offer the company's items as they are typed in. */
  offerItems: boolean;
  /** The items found for a cell of this row (null in every other row). */
  itemChoice: ItemChoice | null;
  onChooseItem(cellId: string, item: Item): void;
}

/**
 * One row of the grid. A key typed in a cell renders that cell's row only: a row renders again when something it
 * shows changed (sameTableRow: its cells' values, drafts, errors and focus, its place, the mode), so a table of
 * hundreds of rows stays quick to type in.
 */
const TableRow = memo(
  function TableRow({ row, index, last, events, onMove, onDelete, offerItems, itemChoice, onChooseItem }: RowProps) {
    // a deleted row holding the focus gives it to the next row's (else the previous row's) same control
    const ref = useRef<HTMLTableRowElement>(null);
    useFocusNeighbourOnRemove(ref);
    // Move up on the first row and Move down on the last say they are unavailable (aria-disabled) but keep the
    // focus: the row moved to the top keeps it on its Move up.
    return (
      <tr ref={ref} data-testid="popup-row" aria-rowindex={index + 2}>
        <td className="er-col-no">{index + 1}</td>
        {row.cells.map((cell) => (
          <td key={cell.id}>
            {offerItems && offersItems(cell) ? (
              <SuggestingInput
                field={cell}
                events={events}
                compact
                row={index + 1}
                suggestions={itemChoice?.cell === cell.id ? itemChoice.items : NO_ITEMS}
                optionOf={itemOption}
                onChoose={(item) => onChooseItem(cell.id, item)}
                testId="item"
              />
            ) : (
              <FieldInput field={cell} events={events} compact row={index + 1} />
            )}
          </td>
        ))}
        {!events.readOnly && (
          <td className="er-col-tools">
            <button type="button" className="icon-btn icon-btn-sm" aria-label="Move up" aria-disabled={index === 0 || undefined} onClick={(e) => index > 0 && onMove(row.id, index - 1, e.currentTarget)}>
              <Icon name="chevronLeft" size={14} style={{ transform: 'rotate(90deg)' }} />
            </button>
            <button type="button" className="icon-btn icon-btn-sm" aria-label="Move down" aria-disabled={last || undefined} onClick={(e) => !last && onMove(row.id, index + 1, e.currentTarget)}>
              <Icon name="chevronRight" size={14} style={{ transform: 'rotate(90deg)' }} />
            </button>
            <button type="button" className="icon-btn icon-btn-sm" aria-label="Delete row" onClick={() => onDelete(row.id)}>
              <Icon name="trash" size={14} />
            </button>
          </td>
        )}
      </tr>
    );
  },
  (a, b) =>
    a.index === b.index &&
    a.last === b.last &&
    a.onMove === b.onMove &&
    a.onDelete === b.onDelete &&
    a.offerItems === b.offerItems &&
    a.itemChoice === b.itemChoice &&
    a.onChooseItem === b.onChooseItem &&
    a.events.readOnly === b.events.readOnly &&
    a.events.showKeys === b.events.showKeys &&
    a.events.onFocus === b.events.onFocus &&
    a.events.onChange === b.events.onChange &&
    sameTableRow(a.row, b.row, a.events, b.events),
);

const noChoice = () => undefined;

/**
 * The line-items grid popup and the multivalue popup: every row of one table, editable. A long table draws the
 * rows in and near its view only (lib/table-window.ts), the others stood in for by empty rows of their height.
 * A cell of a column with the schema's `items` setting (a line item's description) offers the company's items as
 * it is typed in, as the supplier's name offers suppliers.
 */
export function TablePopup({
  tableId,
  schema,
  content,
  receiptType,
  events,
  offerItems = false,
  itemChoice = null,
  onChooseItem = noChoice,
  onAdd,
  onDelete,
  onMove,
  onClose,
}: {
  tableId: string;
  schema: SchemaField[];
  content: ContentItem[];
  receiptType: ReceiptKind;
  events: FieldEvents;
  /** The document is a company's and can be edited: cells of columns with the `items` setting offer its items. */
  offerItems?: boolean;
  /** The items found for what was typed in the focused cell. */
  itemChoice?: ItemChoice | null;
  onChooseItem?(cellId: string, item: Item): void;
  onAdd(after?: string): void;
  onDelete(rowId: string): void;
  onMove(rowId: string, position: number): void;
  onClose(): void;
}) {
  const table = useMemo(() => formTable(schema, content, tableId, receiptType), [schema, content, tableId, receiptType]);
  // the row of each cell: the focused cell's row stays drawn wherever the view goes
  const rowOfCell = useMemo(() => new Map((table?.rows ?? []).flatMap((r, i) => r.cells.map((c) => [c.id, i] as const))), [table]);
  const wrap = useRef<HTMLDivElement>(null);
  const [view, setView] = useState<ScrollView>(() => ({ top: 0, height: typeof window === 'undefined' ? 600 : window.innerHeight }));
  const [rowHeight, setRowHeight] = useState(ROW_HEIGHT);
  const frame = useRef(0);
  // Move up / Move down: the focus follows the moved row to its new place (its rows are named by their place, so
  // the button used now belongs to another row), on the same button, once the table has changed.
  const follow = useRef<{ at: number; label: string; from: HTMLElement } | null>(null);
  const moveRow = useCallback(
    (rowId: string, position: number, from: HTMLElement) => {
      follow.current = { at: position, label: from.getAttribute('aria-label') ?? '', from };
      onMove(rowId, position);
    },
    [onMove],
  );
  useLayoutEffect(() => {
    const f = follow.current;
    if (!f) return;
    follow.current = null;
    if (document.activeElement !== f.from && !focusLost()) return;
    const to = wrap.current?.querySelector(`[data-testid="popup-row"][aria-rowindex="${f.at + 2}"]`);
    const button = [...(to?.querySelectorAll<HTMLElement>('button') ?? [])].find((b) => b.getAttribute('aria-label') === f.label);
    focusElement(button);
  }, [table]);
  // Add row: the focus goes to the new row's first cell once the table holds it, so a keyboard user types on at once.
  // The cell is made the focused one first, which keeps its row drawn wherever the view is; then it takes the focus.
  const adding = useRef<{ rows: Set<string>; from: HTMLElement } | null>(null);
  const toFocus = useRef<string | null>(null);
  const addRow = (from: HTMLElement) => {
    if (!table) return;
    adding.current = { rows: new Set(table.rows.map((r) => r.id)), from };
    onAdd(table.rows[table.rows.length - 1]?.id);
  };
  useLayoutEffect(() => {
    const a = adding.current;
    const added = a && table?.rows.find((r) => !a.rows.has(r.id));
    if (!a || !added) return;
    adding.current = null;
    const first = added.cells[0];
    if (!first || (document.activeElement !== a.from && !focusLost())) return;
    toFocus.current = first.id;
    events.onFocus(first.id);
  }, [table, events]);
  useLayoutEffect(() => {
    const id = toFocus.current;
    const input = id ? wrap.current?.querySelector<HTMLElement>(`[data-field-input="${CSS.escape(id)}"]`) : null;
    if (!input) return;
    toFocus.current = null;
    focusElement(input);
  });
  const onScroll = useCallback(() => {
    if (frame.current) return;
    frame.current = window.requestAnimationFrame(() => {
      frame.current = 0;
      const el = wrap.current;
      if (!el) return;
      // a new state only when the view moved by a row or changed its height
      setView((v) => (Math.abs(v.top - el.scrollTop) < rowHeight / 2 && v.height === el.clientHeight ? v : { top: el.scrollTop, height: el.clientHeight }));
    });
  }, [rowHeight]);
  useLayoutEffect(() => {
    const el = wrap.current;
    if (!el) return;
    setView({ top: el.scrollTop, height: el.clientHeight });
    // the rows' height: the average of those drawn first (a row with an error under a field is taller)
    const drawnRows = [...el.querySelectorAll<HTMLElement>('[data-testid="popup-row"]')];
    const h = drawnRows.length ? drawnRows.reduce((sum, r) => sum + r.getBoundingClientRect().height, 0) / drawnRows.length : 0;
    if (h && Math.abs(h - rowHeight) > 0.5) setRowHeight(h);
    return () => window.cancelAnimationFrame(frame.current);
    // measured once the pop-up is open
  }, []);
  if (!table) return null;
  const focusedRow = events.focusedId !== null ? rowOfCell.get(events.focusedId) : undefined;
  const itemRow = itemChoice ? rowOfCell.get(itemChoice.cell) : undefined;
  const drawn = withGaps(table.rows.length, rowsToDraw(table.rows.length, view, rowHeight, focusedRow === undefined ? [] : [focusedRow]));
  const span = table.columns.length + (events.readOnly ? 1 : 2);
  return (
    // (no blurred backdrop: it would be drawn again with every key typed)
    <Modal title={table.label} onClose={onClose} testId={`popup-${table.schemaId}`} size="md" blur={false}>
      <div className="er-table-wrap" ref={wrap} onScroll={onScroll}>
        <table className="er-table" aria-rowcount={table.rows.length + 1}>
          <thead>
            <tr aria-rowindex={1}>
              <th className="er-col-no">#</th>
              {table.columns.map((c) => (
                <th key={c.id}>
                  {c.label}
                  {c.constraints.required && <span className="er-required">*</span>}
                </th>
              ))}
              {!events.readOnly && <th className="er-col-tools" aria-label="Row tools" />}
            </tr>
          </thead>
          <tbody>
            {drawn.map((d) =>
              'gap' in d ? (
                <tr key={`gap-${d.at}`} aria-hidden="true" data-testid="popup-gap" style={{ height: d.gap * rowHeight }}>
                  <td colSpan={span} style={{ padding: 0, border: 0 }} />
                </tr>
              ) : (
                <TableRow
                  key={table.rows[d.row]!.id}
                  row={table.rows[d.row]!}
                  index={d.row}
                  last={d.row === table.rows.length - 1}
                  events={events}
                  onMove={moveRow}
                  onDelete={onDelete}
                  offerItems={offerItems && !events.readOnly}
                  itemChoice={d.row === itemRow ? itemChoice : null}
                  onChooseItem={onChooseItem}
                />
              ),
            )}
            {table.rows.length === 0 && (
              <tr>
                <td colSpan={table.columns.length + 2} className="muted">
                  No rows
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {!events.readOnly && (
        <div className="er-popup-actions">
          <Button variant="secondary" icon={<Icon name="plus" size={16} />} onClick={(e) => addRow(e.currentTarget)}>
            Add row
          </Button>
        </div>
      )}
    </Modal>
  );
}
