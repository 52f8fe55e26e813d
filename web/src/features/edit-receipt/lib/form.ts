/**
 * The edit form's model: which fields show on which tab, with their values, errors and boxes, built from the
 * company's schema and the document's content. The stakeholder section that applies to the document (the
 * supplier of a cost receipt, the customer of a sales invoice) shows on Item Details, the other on Advanced.
 */
import type { ContentError, ContentItem, ContentValue, SchemaField } from '../../../../../shared/schemas/content';
import { amountsClose, comesToTotal, vatLinesMismatch } from '../../../../../shared/document-arithmetic';
import { AMOUNT_PATTERN, valueError } from '../../../../../shared/schemas/content';
import { TEXT_MSG } from '../../../../../shared/schemas/text';
import { isPlainText } from '../../../../../shared/text';

export type Tab = 'details' | 'advanced';
export type ReceiptKind = 'receipt' | 'invoice';

export interface FormField {
  id: string;
  schemaId: string;
  label: string;
  type: SchemaField['type'];
  options?: SchemaField['options'];
  required: boolean;
  value: string;
  related: ContentValue | null;
  content: ContentValue | null;
  file: string | null;
  settings: SchemaField['settings'];
}

export interface FormSection {
  id: string;
  label: string;
  fields: FormField[];
}

export interface FormTableRow {
  id: string;
  cells: FormField[];
}

export interface FormTable {
  id: string;
  schemaId: string;
  label: string;
  columns: SchemaField[];
  rows: FormTableRow[];
  grid: ContentItem['grid'];
}

export const stakeholderOf = (type: ReceiptKind): 'supplier' | 'customer' => (type === 'invoice' ? 'customer' : 'supplier');

function fieldTab(field: SchemaField, sectionTab: Tab, type: ReceiptKind): Tab {
  const s = field.settings.stakeholder;
  if (s && s !== stakeholderOf(type)) return 'advanced';
  return field.tab ?? sectionTab;
}

function toField(item: ContentItem, field: SchemaField, type: ReceiptKind): FormField {
  const other = field.settings.stakeholder && field.settings.stakeholder !== stakeholderOf(type);
  return {
    id: item.id,
    schemaId: item.schema_id,
    label: field.label,
    type: field.type,
    options: field.options,
    required: field.constraints.required && !field.hidden && !other,
    value: item.content?.value ?? '',
    related: item.related_content,
    content: item.content,
    file: item.file,
    settings: field.settings,
  };
}

/** Sections of datapoints on a tab (hidden fields left out). */
export function formSections(schema: SchemaField[], content: ContentItem[], tab: Tab, type: ReceiptKind): FormSection[] {
  const byId = new Map(schema.map((f) => [f.id, f]));
  const out: FormSection[] = [];
  for (const section of content) {
    if (section.category !== 'section') continue;
    const sf = byId.get(section.schema_id);
    if (!sf) continue;
    const fields = section.children
      .filter((c) => c.category === 'datapoint')
      .flatMap((c) => {
        const f = byId.get(c.schema_id);
        if (!f || f.hidden) return [];
        return fieldTab(f, sf.tab, type) === tab ? [toField(c, f, type)] : [];
      });
    if (fields.length) out.push({ id: section.id, label: sf.label, fields });
  }
  // The applying stakeholder first after the document section.
  const first = stakeholderOf(type);
  return out.sort((a, b) => rank(a.id, first) - rank(b.id, first));
}

function rank(id: string, first: string): number {
  if (id === 'document') return 0;
  if (id === first) return 1;
  return 2;
}

function tableOf(schema: SchemaField[], mv: ContentItem, f: SchemaField, type: ReceiptKind): FormTable {
  const tuple = schema.find((s) => s.parent_schema_id === f.id && s.category === 'tuple');
  const columns = schema.filter((s) => s.parent_schema_id === tuple?.id && !s.hidden);
  return {
    id: mv.id,
    schemaId: mv.schema_id,
    label: f.label,
    columns,
    grid: mv.grid,
    rows: mv.children.map((row) => ({
      id: row.id,
      cells: columns.flatMap((col) => {
        const cell = row.children.find((c) => c.schema_id === col.id);
        return cell ? [toField(cell, col, type)] : [];
      }),
    })),
  };
}

/** The tables (multivalues) shown on a tab. */
export function formTables(schema: SchemaField[], content: ContentItem[], tab: Tab, type: ReceiptKind): FormTable[] {
  const byId = new Map(schema.map((f) => [f.id, f]));
  return content
    .filter((i) => i.category === 'multivalue')
    .flatMap((mv) => {
      const f = byId.get(mv.schema_id);
      if (!f || f.hidden || f.tab !== tab) return [];
      return [tableOf(schema, mv, f, type)];
    });
}

/** One table shown on either tab (the Lines pop-up), by its content id; null when there is none. */
export function formTable(schema: SchemaField[], content: ContentItem[], id: string, type: ReceiptKind): FormTable | null {
  const mv = content.find((i) => i.category === 'multivalue' && i.id === id);
  const f = mv && schema.find((s) => s.id === mv.schema_id);
  if (!mv || !f || f.hidden || (f.tab !== 'details' && f.tab !== 'advanced')) return null;
  return tableOf(schema, mv, f, type);
}

/** What a table row's cells show from the screen's state: the value typed (drafts), the error, the focus. */
export interface CellState {
  drafts: Record<string, string>;
  errors: Record<string, string>;
  focusedId: string | null;
}

/**
 * Whether a table row shows the same before and after a change (so it need not render again): the same cells with
 * the same values, labels and keys (and `items` setting: whether the cell offers items), and for each the same draft,
 * error and focus. Rows rebuilt from a new content (every save answers the whole content) compare by value, so a
 * save renders only the rows it changed.
 */
export function sameTableRow(a: FormTableRow, b: FormTableRow, sa: CellState, sb: CellState): boolean {
  if (a.id !== b.id || a.cells.length !== b.cells.length) return false;
  for (let k = 0; k < a.cells.length; k++) {
    const x = a.cells[k]!;
    const y = b.cells[k]!;
    if (x !== y) {
      if (x.id !== y.id || x.value !== y.value || x.label !== y.label || x.type !== y.type || x.required !== y.required || x.options !== y.options || x.settings.items !== y.settings.items) return false;
      if ((x.related?.value ?? null) !== (y.related?.value ?? null)) return false;
    }
    if (sa.drafts[x.id] !== sb.drafts[x.id] || sa.errors[x.id] !== sb.errors[x.id] || (sa.focusedId === x.id) !== (sb.focusedId === x.id)) return false;
  }
  return true;
}

/** Every datapoint of the content by id (to look values and boxes up). */
export function datapoints(content: ContentItem[]): Map<string, ContentItem> {
  const out = new Map<string, ContentItem>();
  const walk = (items: ContentItem[]) => {
    for (const i of items) {
      if (i.category === 'datapoint') out.set(i.id, i);
      walk(i.children);
    }
  };
  walk(content);
  return out;
}

export function valueById(content: ContentItem[], id: string): string {
  return datapoints(content).get(id)?.content?.value ?? '';
}

/** Client-side format check of a typed value (the server's rules, shared), without `required`. */
export function formatError(field: { type?: SchemaField['type']; options?: SchemaField['options'] }, value: string): string | undefined {
  return typedValueError(field, value, false);
}

/** Shown under an issue date later than today: a receipt is not issued in the future, so it is likely a slip. */
export const FUTURE_ISSUE_DATE = 'This date is after today: check the year';

/**
 * A hint that does not stop a save: an issue date (well formed) after today's local calendar day. Invoices dated a
 * few days ahead exist, so the value is kept; the hint asks for a look (a year read or typed as 2052 for 2025).
 */
export function issueDateHint(fieldId: string, value: string, today: string): string | undefined {
  if (fieldId !== 'issue_date') return undefined;
  const v = value.trim();
  return /^\d{4}-\d{2}-\d{2}$/.test(v) && v > today ? FUTURE_ISSUE_DATE : undefined;
}

/** An amount typed or read, in cents; null when empty or not an amount. */
const centsOf = (v: string): number | null => (AMOUNT_PATTERN.test(v.trim()) ? Math.round(Number(v.trim()) * 100) : null);
const money = (cents: number) => (cents / 100).toFixed(2);

/**
 * A hint that does not stop a save, shown under Total: Subtotal + Tax total, both given, do not make the Total (a
 * digit read or typed wrong in one of the three). The ready rule's arithmetic (shared/document-arithmetic.ts): within
 * a cent per amount, or the Total is their cash rounding to 0.05; undefined when any of the three is empty or not an
 * amount.
 */
export function totalsHint(values: { subtotal: string; tax: string; total: string }): string | undefined {
  const [subtotal, tax, total] = [centsOf(values.subtotal), centsOf(values.tax), centsOf(values.total)];
  if (subtotal === null || tax === null || total === null) return undefined;
  if (comesToTotal((subtotal + tax) / 100, total / 100, 2)) return undefined;
  return `Subtotal + Tax total is ${money(subtotal + tax)}: check the amounts`;
}

/**
 * A hint that does not stop a save, shown under Line items: the rows' Total price add up to neither the Total nor the
 * Subtotal (a row read from outside the table, such as a "Total Qty:" line, one missing, a price typed wrong). The
 * ready rule's check of the items (lambdas/core/documents/content.ts): within a cent per row, or the Total is their
 * cash rounding; lines priced before tax add up to the Subtotal. Undefined without a Total, without rows, or when a
 * row's Total price is empty or not an amount.
 */
export function lineItemsHint(values: { lineTotals: string[]; subtotal: string; total: string }): string | undefined {
  const total = centsOf(values.total);
  const lines = values.lineTotals.map(centsOf);
  if (total === null || !lines.length || lines.some((c) => c === null)) return undefined;
  const sum = lines.reduce<number>((s, c) => s + c!, 0);
  if (comesToTotal(sum / 100, total / 100, lines.length)) return undefined;
  const subtotal = centsOf(values.subtotal);
  if (subtotal !== null && amountsClose(sum / 100, subtotal / 100, lines.length)) return undefined;
  return `Line items add up to ${money(sum)}: check the lines`;
}

/**
 * A hint that does not stop a save, shown under VAT lines: where the lines do not add up by the ready rule's checks
 * of them (shared/document-arithmetic.ts `vatLinesMismatch`, which the exports that take their VAT from the lines
 * refuse by); undefined when none fails or none can be made (an amount empty or not an amount).
 */
export function vatLinesHint(values: { lines: Array<{ base: string; vat: string; gross: string }>; tax: string; total: string }): string | undefined {
  const amount = (v: string) => {
    const cents = centsOf(v);
    return cents === null ? undefined : cents / 100;
  };
  const lines = values.lines.map((l) => ({ base: amount(l.base), vat: amount(l.vat), gross: amount(l.gross) }));
  const off = vatLinesMismatch(lines, amount(values.tax), amount(values.total));
  return off ? `${off.text}: ${off.line ? 'check the line' : 'check the lines'}` : undefined;
}

/** Why a typed value cannot be saved as it is: the server's refusal, else its format's message; undefined when it can. */
function unsavableMessage(id: string, value: string, field: Pick<SchemaField, 'type' | 'options'> | undefined, refusals: Record<string, string>): string | undefined {
  return refusals[id] ?? (field ? formatError(field, value) : undefined);
}

/** A table cell as the screen shows it: the value typed (unsaved) or saved, and why the typed one cannot be saved. */
export function shownCell(cell: Pick<FormField, 'id' | 'value' | 'type' | 'options'>, drafts: Record<string, string>, refusals: Record<string, string>): { value: string; error?: string } {
  if (!(cell.id in drafts)) return { value: cell.value };
  const value = drafts[cell.id]!;
  const error = unsavableMessage(cell.id, value, cell, refusals);
  return error ? { value, error } : { value };
}

/** How many cells of a table hold a typed value that cannot be saved (shown on the form, the table closed). */
export function unsavableCells(table: Pick<FormTable, 'rows'>, drafts: Record<string, string>, refusals: Record<string, string>): number {
  return table.rows.reduce((n, r) => n + r.cells.filter((c) => shownCell(c, drafts, refusals).error).length, 0);
}

/** A typed value that cannot be saved as it is, with why: the server's refusal, else its format's message. */
export interface UnsavableValue {
  id: string;
  label: string;
  message: string;
}

/**
 * The drafts that no save can store as typed (a badly formatted value, one the server refused), in the form's order
 * of `fieldMap`; empty when some draft is only waiting for a save (it may still go through).
 */
export function unsavableDrafts(
  drafts: Record<string, string>,
  refusals: Record<string, string>,
  fieldMap: ReadonlyMap<string, Pick<SchemaField, 'label' | 'type' | 'options'>>,
): UnsavableValue[] {
  const out: UnsavableValue[] = [];
  for (const [id, value] of Object.entries(drafts)) {
    const field = fieldMap.get(id);
    const message = unsavableMessage(id, value, field, refusals);
    if (!message) return [];
    out.push({ id, label: field?.label ?? id, message });
  }
  const order = [...fieldMap.keys()];
  return out.sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id));
}

/** A typed value's message: control characters first (the API refuses them, shared/schemas/text.ts), then the format. */
function typedValueError(field: { type?: SchemaField['type']; options?: SchemaField['options'] }, value: string, required: boolean): string | undefined {
  return isPlainText(value, true) ? valueError(field, value, required) : TEXT_MSG.controlChars;
}

/**
 * The form is valid for an edit action when the server reported no errors for the stored content and no unsaved
 * value is missing or badly formatted.
 */
export function formErrors(
  serverErrors: ContentError[],
  drafts: Record<string, string>,
  fields: Map<string, { type?: SchemaField['type']; options?: SchemaField['options']; required: boolean }>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of serverErrors) if (!(e.id in drafts)) out[e.id] = e.message;
  for (const [id, value] of Object.entries(drafts)) {
    const f = fields.get(id);
    if (!f) continue;
    const m = typedValueError(f, value, f.required);
    if (m) out[id] = m;
  }
  return out;
}

/**
 * How many fields and table cells of a tab hold a message: shown on the tab's button, so that a field made required
 * in Fields configuration but shown on the other tab (Due date on Advanced) is not missed while the status actions
 * wait for it.
 */
export function tabErrorCount(schema: SchemaField[], content: ContentItem[], tab: Tab, type: ReceiptKind, errors: Record<string, string>): number {
  let count = 0;
  for (const section of formSections(schema, content, tab, type)) for (const f of section.fields) if (errors[f.id]) count += 1;
  for (const table of formTables(schema, content, tab, type)) for (const row of table.rows) for (const cell of row.cells) if (errors[cell.id]) count += 1;
  return count;
}

/** The screen-reader name of a tab's message count. */
export const tabErrorLabel = (count: number): string => `${count} ${count === 1 ? 'field' : 'fields'} with a message`;
