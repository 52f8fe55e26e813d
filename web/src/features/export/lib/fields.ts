/** The export field list of the CSV and PDF tabs (product.md section 3, rules.md sections 5 and 9). */
import type { SchemaField } from '../../../../../shared/schemas/content';

/** Default fields, in this order. */
export const DEFAULT_EXPORT_KEYS = ['user', 'type', 'date', 'currency', 'status', 'total', 'tax', 'supplier', 'category', 'notes'] as const;
export type DefaultExportKey = (typeof DEFAULT_EXPORT_KEYS)[number];

export interface ExportField {
  /** Stable id for drag and drop and React keys. */
  id: string;
  /** Where the value comes from: a default key, or a content field id (schema_id) for added fields. */
  key: string;
  /** The column name; renamable. CSV headers are this upper-cased, PDF titles this made readable. */
  label: string;
}

export function defaultExportFields(): ExportField[] {
  return DEFAULT_EXPORT_KEYS.map((key) => ({ id: key, key, label: key }));
}

/** Move the field `activeId` to where `overId` is (the drag-and-drop result). Unknown ids change nothing. */
export function moveField(fields: ReadonlyArray<ExportField>, activeId: string, overId: string): ExportField[] {
  const from = fields.findIndex((f) => f.id === activeId);
  const to = fields.findIndex((f) => f.id === overId);
  if (from < 0 || to < 0 || from === to) return [...fields];
  const next = [...fields];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved!);
  return next;
}

/** Rename a field; a blank name keeps the old one. */
export function renameField(fields: ReadonlyArray<ExportField>, id: string, label: string): ExportField[] {
  const clean = label.trim();
  if (!clean) return [...fields];
  return fields.map((f) => (f.id === id ? { ...f, label: clean } : f));
}

export function removeField(fields: ReadonlyArray<ExportField>, id: string): ExportField[] {
  return fields.filter((f) => f.id !== id);
}

/** Normalise a typed field name to a content key: 'Amount total' → 'amount_total'. */
export function fieldKeyOf(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/g, '');
}

/** A field the export can add: a captured field of the company, by the label the edit screen shows. */
export interface KnownExportField {
  key: string;
  label: string;
}

/** Fields of the document record the export offers after the captured ones (EXPORT_RECORD_FIELDS). */
export const RECORD_EXPORT_SUGGESTIONS: ReadonlyArray<KnownExportField> = [
  { key: 'file', label: 'File' },
  { key: 'company', label: 'Company' },
  { key: 'company_code', label: 'Company code' },
];

/**
 * The company's captured header fields (not table columns, not hidden ones), then the record's file name and company,
 * as the export offers them.
 */
export function knownExportFields(schema: ReadonlyArray<Pick<SchemaField, 'id' | 'label' | 'category' | 'parent_schema_id' | 'hidden'>>): KnownExportField[] {
  const tuples = new Set(schema.filter((f) => f.category === 'tuple').map((f) => f.id));
  const fields = schema.filter((f) => f.category === 'datapoint' && !f.hidden && !(f.parent_schema_id && tuples.has(f.parent_schema_id)));
  // A label that several fields share (the supplier's and the customer's Street) is named with its section's
  // ('Supplier street', 'Customer street'): each suggestion, and each CSV header, says whose it is.
  const shared = new Set(fields.map((f) => f.label).filter((label, i, all) => all.indexOf(label) !== i));
  const sectionLabel = new Map(schema.map((f) => [f.id, f.label]));
  const captured = fields.map((f) => {
    const section = f.parent_schema_id ? sectionLabel.get(f.parent_schema_id) : undefined;
    const own = /^.[a-z]/.test(f.label) ? f.label[0]!.toLowerCase() + f.label.slice(1) : f.label;
    return { key: f.id, label: shared.has(f.label) && section ? `${section} ${own}` : f.label };
  });
  return [...captured, ...RECORD_EXPORT_SUGGESTIONS.filter((r) => !captured.some((c) => c.key === r.key))];
}

/**
 * Add a field at the end. A new field is added only if its name is non-blank (rules.md 5); a name that is
 * already in the list (same key, or the same header) is not added twice. A name that is a known field's label or id ('Invoice
 * number', 'supplier vat id') takes that field's values; any other name is looked up as typed, in snake case.
 */
export function addField(fields: ReadonlyArray<ExportField>, name: string, known: ReadonlyArray<KnownExportField> = []): ExportField[] {
  const label = name.trim();
  const typed = fieldKeyOf(label);
  const key = known.find((k) => fieldKeyOf(k.label) === typed || k.key === typed)?.key ?? typed;
  if (!label || !key) return [...fields];
  // one column per field and per header: 'Total' beside the default Total would make two TOTAL columns
  if (fields.some((f) => f.key === key || f.label.trim().toLowerCase() === label.toLowerCase())) return [...fields];
  let id = key;
  for (let n = 2; fields.some((f) => f.id === id); n += 1) id = `${key}-${n}`;
  return [...fields, { id, key, label }];
}

export function resetFields(): ExportField[] {
  return defaultExportFields();
}

/** CSV headers are upper-cased. */
export function csvHeader(field: Pick<ExportField, 'label'>): string {
  return field.label.toUpperCase();
}

/** PDF titles are readable: 'supplier' → 'Supplier', 'amount_total' → 'Amount total'. */
export function pdfTitle(field: Pick<ExportField, 'label'>): string {
  const words = field.label.replace(/[_-]+/g, ' ').replace(/\s+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : '';
}

/** The columns of amounts — the total, the tax and the fields of type amount — by index (the CSV's decimal mark). */
export function amountColumns(fields: ReadonlyArray<ExportField>, schema: ReadonlyArray<Pick<SchemaField, 'id' | 'type'>> = []): Set<number> {
  const amounts = new Set(['total', 'tax', ...schema.filter((f) => f.type === 'amount').map((f) => f.id)]);
  return new Set(fields.flatMap((f, i) => (amounts.has(f.key) ? [i] : [])));
}
