import { useEffect, useId, useLayoutEffect, useMemo, useState, type CSSProperties } from 'react';
import type { ContentItem, SchemaField } from '../../../../../shared/schemas/content';
import type { Stakeholder } from '../../../../../shared/schemas/master-data';
import { useCombobox, type ComboboxInputProps } from '../../../components/ui/combobox';
import { Icon } from '../../../components/ui/Icon';
import { TextAreaField } from '../../../components/ui/TextAreaField';
import { useTabs } from '../../../components/ui/tabs';
import { formSections, formTables, issueDateHint, shownCell, tabErrorCount, tabErrorLabel, unsavableCells, type FormField, type FormTable, type ReceiptKind, type Tab } from '../lib/form';
import { floatingListPlace, type FloatPlace } from '../lib/item-suggestions';
import { NEW_STAKEHOLDER_NOTE } from '../lib/stakeholder';
import { SearchSelect, type SelectOption } from '../../master-data/components/SearchSelect';
import { useCategoryChoices } from '../../master-data/api/master-data';
import { CATEGORY_SEARCH_MS, useDebounced } from '../api/master-data';
import { todayIso } from '../../receipts/lib/list-params';

export const EXTRACTED_NOTE = 'Data from documents is shown once extracted';

export interface FieldEvents {
  drafts: Record<string, string>;
  errors: Record<string, string>;
  readOnly: boolean;
  showKeys: boolean;
  focusedId: string | null;
  onFocus(id: string): void;
  onChange(id: string, value: string): void;
  /** Hints that do not stop a save, by field or table (the totals' arithmetic under Total, the rows' under Line items). */
  hints?: Readonly<Record<string, string>>;
}

function confidenceTone(c: number | null | undefined): string {
  if (c === null || c === undefined) return 'none';
  if (c >= 90) return 'high';
  if (c >= 60) return 'mid';
  return 'low';
}

export function FieldInput({
  field,
  events,
  compact = false,
  row,
  newMarker = false,
  combobox,
}: {
  field: FormField;
  events: FieldEvents;
  /** A cell of a table (no label shown): named by its column's label and its row's number. */
  compact?: boolean;
  row?: number;
  newMarker?: boolean;
  /** The input offers a list of options under it (the supplier's or customer's name). */
  combobox?: ComboboxInputProps;
}) {
  const value = field.id in events.drafts ? events.drafts[field.id]! : field.value;
  const typedOver = field.id in events.drafts && value !== field.value;
  const error = events.errors[field.id];
  const hint = error ? undefined : (issueDateHint(field.id, value, todayIso()) ?? events.hints?.[field.id]);
  const focused = events.focusedId === field.id;
  const common = {
    id: `field-${field.id}`,
    name: field.id,
    'data-field-input': field.id,
    'data-testid': `field-${field.id}`,
    'aria-invalid': error ? true : undefined,
    // (a screen reader says "required" of the field itself; the label's asterisk is for the eye)
    'aria-required': field.required ? true : undefined,
    'aria-describedby': error ? `error-${field.id}` : hint && !compact ? `hint-${field.id}` : undefined,
    'aria-label': compact ? (row === undefined ? field.label : `${field.label}, row ${row}`) : undefined,
    disabled: events.readOnly,
    onFocus: () => events.onFocus(field.id),
    className: 'input er-input',
  } as const;
  const label = (
    <label htmlFor={`field-${field.id}`} className="er-label">
      {field.label}
      {field.required && (
        <span className="er-required" aria-hidden="true">
          *
        </span>
      )}
      {newMarker && (
        <span className="er-new" data-testid="stakeholder-new">
          new
        </span>
      )}
    </label>
  );
  const input = events.showKeys ? (
    <input {...common} value={field.related?.value ?? ''} readOnly placeholder="No key found" onChange={() => undefined} />
  ) : field.type === 'enum' ? (
    <select {...common} value={value} onChange={(e) => events.onChange(field.id, e.target.value)}>
      <option value="">—</option>
      {(field.options ?? []).map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  ) : (
    <input
      {...common}
      value={value}
      inputMode={field.type === 'amount' || field.type === 'quantity' || field.type === 'rate' ? 'decimal' : undefined}
      placeholder={field.type === 'date' ? 'YYYY-MM-DD' : field.type === 'amount' ? '0.00' : undefined}
      autoComplete="off"
      {...combobox}
      onChange={(e) => events.onChange(field.id, e.target.value)}
    />
  );
  if (compact) {
    return (
      <div className={`er-cell ${error ? 'has-error' : ''} ${focused ? 'is-focused' : ''}`}>
        {input}
        {error && (
          <p className="field-error" id={`error-${field.id}`} role="alert" data-testid={`error-${field.id}`}>
            {error}
          </p>
        )}
      </div>
    );
  }
  return (
    <div className={`er-field ${error ? 'has-error' : ''} ${focused ? 'is-focused' : ''}`} data-testid={`er-field-${field.id}`}>
      {label}
      <div className="er-control">
        {input}
        {/* a value typed over the one read (saved or not yet) is no longer the reading's: no confidence for it */}
        <span
          className={`er-confidence er-confidence-${confidenceTone(typedOver ? null : field.content?.confidence)}`}
          title={!typedOver && field.content?.confidence != null ? `Read with ${field.content.confidence}% confidence` : 'Typed or not found'}
        />
      </div>
      {error && (
        <p className="field-error" id={`error-${field.id}`} role="alert" data-testid={`error-${field.id}`}>
          {error}
        </p>
      )}
      {hint && (
        <p className="field-hint er-field-warning" id={`hint-${field.id}`} data-testid={`hint-${field.id}`}>
          {hint}
        </p>
      )}
    </div>
  );
}

/** One option of a suggestion list: its key, the text chosen, and a grey hint beside it (a stakeholder's code). */
export interface SuggestionOption {
  key: string;
  label: string;
  hint?: string;
}

/**
 * A field that offers options as it is typed in: a combobox (SearchSelect's keyboard: arrows, Enter, Escape; a
 * click chooses too) over `suggestions`, the options whose names start like the text typed. Free text stays:
 * nothing is chosen until an arrow key made an option active. The supplier's or customer's name (the list under
 * it, in the form's flow) and a line item's description (`compact`: a cell of the Lines pop-up, the list floating
 * over the grid, fixed to the window, so that the grid's scrolling area does not cut it off).
 */
export function SuggestingInput<T>({
  field,
  events,
  newMarker = false,
  compact = false,
  row,
  suggestions,
  optionOf,
  onChoose,
  testId,
}: {
  field: FormField;
  events: FieldEvents;
  newMarker?: boolean;
  compact?: boolean;
  row?: number;
  suggestions: readonly T[];
  optionOf(s: T): SuggestionOption;
  onChoose(s: T): void;
  /** The list is `${testId}-suggestions`, each option `${testId}-suggestion`. */
  testId: string;
}) {
  const id = useId();
  const [dismissed, setDismissed] = useState(false);
  const open = suggestions.length > 0 && !dismissed;
  const { active, setActive, listId, optionId, inputProps } = useCombobox({
    id,
    items: suggestions,
    open,
    onOpen: () => setDismissed(false),
    onChoose,
    onClose: () => setDismissed(true),
    initialActive: -1,
  });
  const options = suggestions.map(optionOf);
  // Nothing is active in a new list: Enter in the field chooses only after an arrow key.
  const keys = options.map((o) => o.key).join('\u0000');
  useEffect(() => setActive(-1), [keys, setActive]);
  const place = useFloatingPlace(compact && open ? `field-${field.id}` : null);
  const typed: FieldEvents = {
    ...events,
    onChange: (fid, value) => {
      setDismissed(false);
      events.onChange(fid, value);
    },
  };
  return (
    <>
      <FieldInput field={field} events={typed} newMarker={newMarker} compact={compact} row={row} combobox={inputProps} />
      {open && (
        <ul
          className={compact ? 'er-suggestions is-floating' : 'er-suggestions'}
          id={listId}
          role="listbox"
          aria-label="Suggestions"
          // not a Tab stop (a scrolling list is one by default): Tab from the input goes on to the next field
          tabIndex={-1}
          data-testid={`${testId}-suggestions`}
          style={compact ? floatingStyle(place) : undefined}
        >
          {options.map((o, i) => (
            <li
              key={o.key}
              id={optionId(i)}
              role="option"
              aria-selected={i === active}
              className={`er-suggestion ${i === active ? 'is-active' : ''}`}
              data-testid={`${testId}-suggestion`}
              // The input keeps the focus; the click chooses.
              onMouseDown={(e) => e.preventDefault()}
              onMouseEnter={() => setActive(i)}
              onClick={() => onChoose(suggestions[i]!)}
            >
              <span>{o.label}</span>
              {o.hint && <span className="er-suggestion-code">{o.hint}</span>}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function floatingStyle(place: FloatPlace | null): CSSProperties {
  if (!place) return { visibility: 'hidden' };
  return { top: place.top, bottom: place.bottom, left: place.left, width: place.width, maxHeight: place.maxHeight, visibility: place.hidden ? 'hidden' : undefined };
}

/**
 * Where the floating list of the input `inputId` goes (null: no list), measured before it is painted and again
 * as anything scrolls (the Lines pop-up's grid, the pop-up, the page) or the window changes size.
 */
function useFloatingPlace(inputId: string | null): FloatPlace | null {
  const [place, setPlace] = useState<FloatPlace | null>(null);
  useLayoutEffect(() => {
    if (!inputId) {
      setPlace(null);
      return;
    }
    const measure = () => {
      const input = document.getElementById(inputId);
      if (!input) {
        setPlace(null);
        return;
      }
      const area = input.closest('.er-table-wrap');
      const next = floatingListPlace(input.getBoundingClientRect(), area ? area.getBoundingClientRect() : null, { width: window.innerWidth, height: window.innerHeight });
      setPlace((p) => (p && JSON.stringify(p) === JSON.stringify(next) ? p : next));
    };
    measure();
    window.addEventListener('scroll', measure, true);
    window.addEventListener('resize', measure);
    return () => {
      window.removeEventListener('scroll', measure, true);
      window.removeEventListener('resize', measure);
    };
  }, [inputId]);
  return place;
}

const stakeholderOption = (s: Stakeholder): SuggestionOption => ({ key: s.id, label: s.name, hint: s.code || undefined });

/**
 * A table on the form: its first rows as typed (a value not saved yet shows, one that cannot be saved is marked with
 * its message), and how many of its values cannot be saved, which the pop-up (Open) corrects.
 */
export function TableSummary({ table, onOpen, onAdd, readOnly, drafts, errors, hint }: {
  table: FormTable;
  onOpen(): void;
  onAdd(): void;
  readOnly: boolean;
  drafts: Record<string, string>;
  errors: Record<string, string>;
  /** A hint that does not stop a save (the rows' arithmetic, lib/form.ts `lineItemsHint`, `vatLinesHint`). */
  hint?: string;
}) {
  const preview = table.rows.slice(0, 4);
  const unsavable = unsavableCells(table, drafts, errors);
  const main = table.columns.filter((c) => ['description', 'total_price', 'quantity', 'vat_line_rate', 'vat_line_base', 'vat_line_tax'].includes(c.id)).slice(0, 3);
  return (
    <section className="er-section er-table-summary" data-testid={`table-${table.schemaId}`}>
      <div className="er-section-head">
        <h3>{table.label}</h3>
        <span className="muted">
          {table.rows.length} {table.rows.length === 1 ? 'row' : 'rows'}
        </span>
        <div className="er-section-tools">
          {!readOnly && (
            <button type="button" className="btn btn-link btn-sm" onClick={onAdd} aria-label={`Add a row to ${table.label}`}>
              <Icon name="plus" size={14} /> Row
            </button>
          )}
          <button type="button" className="btn btn-link btn-sm" onClick={onOpen} aria-label={`Open ${table.label}`} data-testid={`open-${table.schemaId}`}>
            Open
          </button>
        </div>
      </div>
      {preview.length > 0 ? (
        <table className="er-mini-table">
          <thead>
            <tr>
              {main.map((c) => (
                <th key={c.id}>{c.label}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {preview.map((r) => (
              <tr key={r.id} data-testid="table-row">
                {main.map((c) => {
                  const cell = r.cells.find((x) => x.schemaId === c.id);
                  const shown = cell ? shownCell(cell, drafts, errors) : { value: '' };
                  return (
                    <td key={c.id} className={shown.error ? 'er-cell-unsavable' : undefined} title={shown.error}>
                      {shown.value || <span className="muted">—</span>}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted er-empty-table">No rows</p>
      )}
      {table.rows.length > preview.length && <p className="muted er-more">and {table.rows.length - preview.length} more</p>}
      {unsavable > 0 && (
        <p className="field-error" role="alert" data-testid={`unsavable-${table.schemaId}`}>
          {unsavable === 1 ? '1 value' : `${unsavable} values`} of {table.label} cannot be saved as typed: Open to correct {unsavable === 1 ? 'it' : 'them'}.
        </p>
      )}
      {hint && unsavable === 0 && (
        <p className="field-hint er-field-warning" data-testid={`hint-${table.schemaId}`}>
          {hint}
        </p>
      )}
    </section>
  );
}

const FORM_TABS: readonly Tab[] = ['details', 'advanced'];

/** The right side: receipt error, the note, Item Details / Advanced tabs, SHOW KEYS / SHOW VALUES, fields and tables. */
export function FieldForm({
  schema,
  content,
  receiptType,
  tab,
  onTab,
  onToggleKeys,
  events,
  receiptError,
  newStakeholder,
  suggestions = [],
  onChooseStakeholder,
  category,
  notes,
  onOpenTable,
  onAddRow,
  onSendAgain,
}: {
  schema: SchemaField[];
  content: ContentItem[];
  receiptType: ReceiptKind;
  tab: Tab;
  onTab(tab: Tab): void;
  onToggleKeys(): void;
  events: FieldEvents;
  receiptError: string | null;
  newStakeholder: boolean;
  /** The company's stakeholders whose names start like the one typed (shown under the name field). */
  suggestions?: Stakeholder[];
  onChooseStakeholder?(s: Stakeholder): void;
  /** The document's category: a dropdown of the company's categories (documents of a company only). */
  category?: CategoryChoice;
  /** The document's notes (documents of a company only). */
  notes?: NotesChoice;
  onOpenTable(tableId: string): void;
  onAddRow(tableId: string): void;
  /** Integrations: a failed export can be sent again from its error. */
  onSendAgain?: () => void;
}) {
  // (built again only when the content, the schema or the tab changes: not on every key typed)
  const sections = useMemo(() => formSections(schema, content, tab, receiptType), [schema, content, tab, receiptType]);
  const tables = useMemo(() => formTables(schema, content, tab, receiptType), [schema, content, tab, receiptType]);
  const stakeholderName = receiptType === 'invoice' ? 'customer_name' : 'supplier_name';
  const tabs = useTabs(FORM_TABS, tab, onTab);
  const errors = events.errors;
  const errorCounts = useMemo(
    () => Object.fromEntries(FORM_TABS.map((t) => [t, tabErrorCount(schema, content, t, receiptType, errors)])) as Record<Tab, number>,
    [schema, content, receiptType, errors],
  );
  return (
    <div className="er-form" data-testid="field-form">
      {receiptError && (
        <p className="notice notice-error" role="alert" data-testid="receipt-error">
          {receiptError}
          {onSendAgain && (
            <>
              {' '}
              <button type="button" className="link-btn" onClick={onSendAgain} data-testid="send-again">
                Send again
              </button>
            </>
          )}
        </p>
      )}
      <p className="er-note" data-testid="extracted-note">
        <Icon name="info" size={15} /> {EXTRACTED_NOTE}
      </p>
      <div className="er-form-head">
        <div className="tabs" aria-label="Fields" {...tabs.listProps}>
          {FORM_TABS.map((t) => (
            <button key={t} className={`tab ${tab === t ? 'is-active' : ''}`} {...tabs.tabProps(t)}>
              {t === 'details' ? 'Item Details' : 'Advanced'}
              {errorCounts[t] > 0 && (
                <span className="tab-errors" data-testid={`tab-errors-${t}`} title={tabErrorLabel(errorCounts[t])}>
                  <span aria-hidden="true">{errorCounts[t]}</span>
                  <span className="sr-only">{` (${tabErrorLabel(errorCounts[t])})`}</span>
                </span>
              )}
            </button>
          ))}
        </div>
        <button type="button" className="btn btn-secondary btn-sm" onClick={onToggleKeys} data-testid="toggle-keys">
          {events.showKeys ? 'SHOW VALUES' : 'SHOW KEYS'}
        </button>
      </div>
      <div className="er-tab-panel" {...tabs.panelProps}>
        {sections.map((s) => (
          <section key={s.id} className="er-section" data-testid={`section-${s.id}`}>
            <h3>{s.label}</h3>
            <div className="er-fields">
              {s.fields.map((f) => (
                <div key={f.id} className={f.id === 'supplier_name' || f.id === 'customer_name' ? 'er-span' : undefined}>
                  {f.id === stakeholderName && onChooseStakeholder ? (
                    <SuggestingInput field={f} events={events} newMarker={newStakeholder} suggestions={suggestions} optionOf={stakeholderOption} onChoose={onChooseStakeholder} testId="stakeholder" />
                  ) : (
                    <FieldInput field={f} events={events} newMarker={f.id === stakeholderName && newStakeholder} />
                  )}
                  {f.id === stakeholderName && newStakeholder && (
                    <p className="er-stakeholder-note" data-testid="stakeholder-note">
                      {NEW_STAKEHOLDER_NOTE}
                    </p>
                  )}
                </div>
              ))}
            </div>
          </section>
        ))}
        {category && tab === 'details' && <CategoryField category={category} readOnly={events.readOnly} />}
        {notes && tab === 'details' && <NotesField notes={notes} readOnly={events.readOnly} />}
        {tables.map((t) => (
          <TableSummary key={t.id} table={t} readOnly={events.readOnly} drafts={events.drafts} errors={events.errors} hint={events.hints?.[t.schemaId]} onOpen={() => onOpenTable(t.id)} onAdd={() => onAddRow(t.id)} />
        ))}
      </div>
    </div>
  );
}

export interface NotesChoice {
  value: string;
  /** The server's refusal of the typed notes (too long, control characters). */
  error?: string;
  onChange(value: string): void;
  /** The box is left: what was typed is stored now. */
  onLeave(): void;
}

/** The document's notes: free text of the people who handle it, in the export's Notes; stored as the typing stops. */
function NotesField({ notes, readOnly }: { notes: NotesChoice; readOnly: boolean }) {
  return (
    <section className="er-section" data-testid="section-notes">
      <div className="er-fields">
        <div className="er-span er-notes" data-testid="field-notes">
          <TextAreaField
            name="notes"
            label="Notes"
            rows={2}
            value={notes.value}
            disabled={readOnly}
            error={notes.error}
            onChange={(e) => notes.onChange(e.target.value)}
            onBlur={() => notes.onLeave()}
          />
        </div>
      </div>
    </section>
  );
}

export interface CategoryChoice {
  /** The document's company: its categories are searched on the server. */
  companyId: string;
  /** The chosen category's id; '' for none. */
  value: string;
  /** Categories known by name (the document's, the chosen party's, the first page): the current one's label. */
  options: { id: string; name: string }[];
  onChange(id: string): void;
  /**
   * The server's refusal of the category (a confirm of a category deleted from the register since it was set:
   * 'Choose a category from the list'), shown under the field, which still names the deleted category.
   */
  error?: string;
}

/**
 * The document's category, one of the company's categories, searched by name on the server (any of thousands can
 * be found by typing; arrows, Enter, Escape); stored as soon as it is chosen, cleared with the clear button.
 */
function CategoryField({ category, readOnly }: { category: CategoryChoice; readOnly: boolean }) {
  const [typed, setTyped] = useState('');
  const search = useDebounced(typed, CATEGORY_SEARCH_MS);
  const found = useCategoryChoices(category.companyId, search);
  const [chosen, setChosen] = useState<{ id: string; name: string } | null>(null);
  const options = useMemo<SelectOption[]>(() => found.categories.map((c) => ({ value: c.id, label: c.name, hint: c.category_code || undefined })), [found.categories]);
  const valueLabel = [chosen, ...category.options].find((o) => o && o.id === category.value)?.name;
  return (
    <section className="er-section" data-testid="section-category">
      <div className="er-fields">
        <div className="er-span er-field" data-testid="field-category">
          <SearchSelect
            name="category"
            label="Category"
            placeholder="—"
            value={category.value}
            valueLabel={valueLabel}
            options={options}
            loading={found.loading}
            hasMore={found.hasMore}
            onLoadMore={found.loadMore}
            onQueryChange={setTyped}
            clearable
            disabled={readOnly}
            error={category.error}
            onChange={(id, option) => {
              setChosen(option ? { id: option.value, name: option.label } : null);
              category.onChange(id);
            }}
          />
        </div>
      </div>
    </section>
  );
}
