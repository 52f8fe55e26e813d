import {
  DndContext,
  KeyboardSensor,
  MeasuringStrategy,
  PointerSensor,
  closestCenter,
  useSensor,
  useSensors,
  type DragEndEvent,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useCallback, useRef, useState } from 'react';
import { useFocusNeighbourOnRemove, useRefocusOnSwap } from '../../../components/ui/focus';
import { Icon } from '../../../components/ui/Icon';
import { DocIcon } from '../../receipts/components/DocIcon';
import { addField, moveField, removeField, renameField, type ExportField, type KnownExportField } from '../lib/fields';

function FieldRow({
  field,
  index,
  header,
  onRename,
  onRemove,
}: {
  field: ExportField;
  index: number;
  header: string;
  onRename(label: string): void;
  onRemove(): void;
}) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id: field.id });
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(field.label);
  // Enter or Escape in the name field: the focus back on Rename (the field it was in is gone); a removed field
  // gives it to the next field's (else the previous field's) same button.
  const item = useRef<HTMLLIElement | null>(null);
  const rename = useRef<HTMLButtonElement>(null);
  useRefocusOnSwap(editing, () => (editing ? null : rename.current));
  useFocusNeighbourOnRemove(item);
  const setRef = useCallback(
    (el: HTMLLIElement | null) => {
      item.current = el;
      setNodeRef(el);
    },
    [setNodeRef],
  );
  const commit = () => {
    onRename(draft);
    setEditing(false);
  };
  return (
    <li
      ref={setRef}
      className={`field-item ${isDragging ? 'is-dragging' : ''}`}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      data-testid="export-field"
      data-key={field.key}
    >
      <button type="button" className="field-grip" aria-label={`Move ${field.label}`} {...attributes} {...listeners}>
        <DocIcon name="grip" size={16} />
      </button>
      <span className="field-index">{index + 1}</span>
      {editing ? (
        <input
          className="input input-sm field-rename"
          aria-label={`Name of ${field.label}`}
          value={draft}
          autoFocus
          onChange={(e) => setDraft(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              commit();
            }
            if (e.key === 'Escape') {
              e.stopPropagation();
              setDraft(field.label);
              setEditing(false);
            }
          }}
        />
      ) : (
        <span className="field-name">
          <span>{header}</span>
          {field.label !== field.key && <small className="muted">{field.key}</small>}
        </span>
      )}
      <button
        ref={rename}
        type="button"
        className="icon-btn icon-btn-sm"
        aria-label={`Rename ${field.label}`}
        title="Rename"
        onClick={() => {
          setDraft(field.label);
          setEditing(true);
        }}
      >
        <DocIcon name="pencil" size={15} />
      </button>
      <button type="button" className="icon-btn icon-btn-sm" aria-label={`Remove ${field.label}`} title="Remove" onClick={onRemove}>
        <Icon name="close" size={15} />
      </button>
    </li>
  );
}

/**
 * The export's columns: drag to reorder (mouse or keyboard), rename, remove, add a field by name (the company's
 * captured fields are suggested by their labels).
 */
export function FieldList({
  fields,
  known = [],
  onChange,
  headerOf,
}: {
  fields: ExportField[];
  known?: ReadonlyArray<KnownExportField>;
  onChange(next: ExportField[]): void;
  headerOf(field: ExportField): string;
}) {
  const [newName, setNewName] = useState('');
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const onDragEnd = (e: DragEndEvent) => {
    if (e.over && e.active.id !== e.over.id) onChange(moveField(fields, String(e.active.id), String(e.over.id)));
  };
  const add = () => {
    const next = addField(fields, newName, known);
    if (next.length !== fields.length) {
      onChange(next);
      setNewName('');
    }
  };
  return (
    <div className="field-list-wrap">
      {/* measured on every move: the list scrolls inside the pop-up while an item is moved with the keyboard */}
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        measuring={{ droppable: { strategy: MeasuringStrategy.Always } }}
        onDragEnd={onDragEnd}
      >
        <SortableContext items={fields.map((f) => f.id)} strategy={verticalListSortingStrategy}>
          <ol className="field-list" aria-label="Export fields">
            {fields.map((f, i) => (
              <FieldRow
                key={f.id}
                field={f}
                index={i}
                header={headerOf(f)}
                onRename={(label) => onChange(renameField(fields, f.id, label))}
                onRemove={() => onChange(removeField(fields, f.id))}
              />
            ))}
          </ol>
        </SortableContext>
      </DndContext>
      <div className="field-add">
        <input
          className="input input-sm"
          name="new_field"
          placeholder="New field"
          aria-label="New field"
          list="export-known-fields"
          value={newName}
          onChange={(e) => setNewName(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              add();
            }
          }}
        />
        <button type="button" className="btn btn-secondary btn-sm" onClick={add} disabled={!newName.trim()}>
          Add
        </button>
        <datalist id="export-known-fields">
          {known
            .filter((k) => !fields.some((f) => f.key === k.key))
            .map((k) => (
              <option key={k.key} value={k.label} />
            ))}
        </datalist>
      </div>
    </div>
  );
}
