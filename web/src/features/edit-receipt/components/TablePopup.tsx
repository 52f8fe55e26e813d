import type { ContentItem, SchemaField } from '../../../../../shared/schemas/content';
import { Button } from '../../../components/ui/Button';
import { Icon } from '../../../components/ui/Icon';
import { Modal } from '../../../components/ui/Modal';
import { formTables, type ReceiptKind } from '../lib/form';
import { FieldInput, type FieldEvents } from './FieldForm';

/** The line-items grid popup and the multivalue popup: every row of one table, editable. */
export function TablePopup({
  tableId,
  schema,
  content,
  receiptType,
  events,
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
  onAdd(after?: string): void;
  onDelete(rowId: string): void;
  onMove(rowId: string, position: number): void;
  onClose(): void;
}) {
  const table = [...formTables(schema, content, 'details', receiptType), ...formTables(schema, content, 'advanced', receiptType)].find((t) => t.id === tableId);
  if (!table) return null;
  return (
    <Modal title={table.label} onClose={onClose} testId={`popup-${table.schemaId}`} size="md">
      <div className="er-table-wrap">
        <table className="er-table">
          <thead>
            <tr>
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
            {table.rows.map((row, i) => (
              <tr key={row.id} data-testid="popup-row">
                <td className="er-col-no">{i + 1}</td>
                {row.cells.map((cell) => (
                  <td key={cell.id}>
                    <FieldInput field={cell} events={events} compact row={i + 1} />
                  </td>
                ))}
                {!events.readOnly && (
                  <td className="er-col-tools">
                    <button type="button" className="icon-btn icon-btn-sm" aria-label="Move up" disabled={i === 0} onClick={() => onMove(row.id, i - 1)}>
                      <Icon name="chevronLeft" size={14} style={{ transform: 'rotate(90deg)' }} />
                    </button>
                    <button type="button" className="icon-btn icon-btn-sm" aria-label="Move down" disabled={i === table.rows.length - 1} onClick={() => onMove(row.id, i + 1)}>
                      <Icon name="chevronRight" size={14} style={{ transform: 'rotate(90deg)' }} />
                    </button>
                    <button type="button" className="icon-btn icon-btn-sm" aria-label="Delete row" onClick={() => onDelete(row.id)}>
                      <Icon name="trash" size={14} />
                    </button>
                  </td>
                )}
              </tr>
            ))}
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
          <Button variant="secondary" icon={<Icon name="plus" size={16} />} onClick={() => onAdd(table.rows[table.rows.length - 1]?.id)}>
            Add row
          </Button>
        </div>
      )}
    </Modal>
  );
}
