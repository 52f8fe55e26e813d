/**
 * The document schema: what is captured per document and how it is shown. One default schema for every
 * company; a company changes only `constraints.required` and `hidden` of datapoints (the Fields
 * configuration screen), stored as overrides and merged here. The fields the spec requires (rules.md 5: the
 * invoice number and the supplier; for a sales invoice the customer in its place) are locked: always required
 * and visible, whatever a stored override says.
 */
import type { DatapointType, SchemaField, UpdateSchemaInput } from '../../../shared/schemas/content';
import { LINE_ITEM_COLUMNS } from '../../../shared/schemas/content';
import { AppError } from '../../../shared/errors';

export type SchemaOverrides = Record<string, { required?: boolean; hidden?: boolean }>;

type Def = {
  id: string;
  label: string;
  parent: string | null;
  category?: SchemaField['category'];
  type?: DatapointType;
  required?: boolean;
  tab?: SchemaField['tab'];
  configurable?: boolean;
  /** Required by the spec: shown on the Fields configuration screen with its toggles locked. */
  alwaysRequired?: boolean;
  settings?: SchemaField['settings'];
  options?: SchemaField['options'];
  description?: string;
};

const DATE_FORMAT_OPTIONS = ['YYYY-MM-DD', 'YYYY/MM/DD', 'MM/DD/YYYY', 'DD/MM/YYYY'].map((v) => ({ value: v, label: v }));

/** i.SAF invoice types; the value goes to InvoiceType of the i.SAF export. */
export const DOCUMENT_CATEGORY_OPTIONS = [
  { value: 'SF', label: 'VAT invoice' },
  { value: 'KS', label: 'Credit VAT invoice' },
  { value: 'DS', label: 'Debit VAT invoice' },
  { value: 'AN', label: 'Cancelled invoice' },
];

function stakeholderFields(kind: 'supplier' | 'customer', title: string): Def[] {
  const s = { stakeholder: kind } as const;
  return [
    { id: kind, label: title, parent: null, category: 'section', tab: 'details' },
    { id: `${kind}_name`, label: `${title} name`, parent: kind, required: true, alwaysRequired: true, settings: s, description: 'Matched against your suppliers and customers by code or name' },
    { id: `${kind}_code`, label: `${title} company code`, parent: kind, type: 'code', settings: s },
    { id: `${kind}_vat_id`, label: `${title} VAT ID`, parent: kind, type: 'code', settings: s },
    { id: `${kind}_street`, label: 'Street', parent: kind, tab: 'advanced', settings: s },
    { id: `${kind}_city`, label: 'City', parent: kind, tab: 'advanced', settings: s },
    { id: `${kind}_zipcode`, label: 'Zip code', parent: kind, tab: 'advanced', settings: s },
    { id: `${kind}_country`, label: 'Country', parent: kind, type: 'code', tab: 'advanced', settings: { ...s, country: true } },
    { id: `${kind}_date_format`, label: 'Date format', parent: kind, type: 'enum', tab: 'advanced', options: DATE_FORMAT_OPTIONS, settings: { ...s, date_format: true }, configurable: false },
  ];
}

const LINE_ITEM_DEFS: Record<(typeof LINE_ITEM_COLUMNS)[number], { label: string; type: DatapointType; settings?: SchemaField['settings'] }> = {
  item_number: { label: 'No.', type: 'string' },
  product_code: { label: 'Product code', type: 'code' },
  // The edit screen offers the company's items as a description is typed (recognition writes a matched item's name).
  description: { label: 'Description', type: 'string', settings: { items: true } },
  quantity: { label: 'Quantity', type: 'quantity' },
  unit_of_measurement: { label: 'Unit', type: 'string' },
  unit_price_without_vat: { label: 'Unit price without VAT', type: 'amount' },
  vat_rate: { label: 'VAT %', type: 'rate' },
  vat: { label: 'VAT', type: 'amount' },
  price_per_unit: { label: 'Price per unit', type: 'amount' },
  total_price: { label: 'Total price', type: 'amount' },
};

const DEFS: Def[] = [
  { id: 'document', label: 'Document', parent: null, category: 'section' },
  { id: 'document_id', label: 'Invoice number', parent: 'document', required: true, alwaysRequired: true, type: 'code' },
  { id: 'issue_date', label: 'Issue date', parent: 'document', type: 'date' },
  { id: 'due_date', label: 'Due date', parent: 'document', type: 'date', tab: 'advanced' },
  { id: 'currency', label: 'Currency', parent: 'document', type: 'code' },
  { id: 'document_category', label: 'Document category', parent: 'document', type: 'enum', tab: 'advanced', options: DOCUMENT_CATEGORY_OPTIONS },
  ...stakeholderFields('supplier', 'Supplier'),
  ...stakeholderFields('customer', 'Customer'),
  { id: 'amounts', label: 'Amounts', parent: null, category: 'section' },
  { id: 'amount_total_base', label: 'Subtotal', parent: 'amounts', type: 'amount' },
  { id: 'amount_tax', label: 'Tax total', parent: 'amounts', type: 'amount' },
  { id: 'amount_total', label: 'Total', parent: 'amounts', type: 'amount' },
  { id: 'payment', label: 'Payment', parent: null, category: 'section', tab: 'advanced' },
  { id: 'iban', label: 'IBAN', parent: 'payment', type: 'code', tab: 'advanced' },
  { id: 'bic_swift', label: 'BIC / SWIFT', parent: 'payment', type: 'code', tab: 'advanced' },
  { id: 'account_number', label: 'Account number', parent: 'payment', type: 'code', tab: 'advanced' },
  { id: 'bank_code', label: 'Bank code', parent: 'payment', type: 'code', tab: 'advanced' },
  { id: 'vat_lines', label: 'VAT lines', parent: null, category: 'multivalue' },
  { id: 'vat_line', label: 'VAT line', parent: 'vat_lines', category: 'tuple' },
  { id: 'vat_line_rate', label: 'VAT %', parent: 'vat_line', type: 'rate', configurable: false },
  { id: 'vat_line_base', label: 'Taxable amount', parent: 'vat_line', type: 'amount', configurable: false },
  { id: 'vat_line_tax', label: 'VAT amount', parent: 'vat_line', type: 'amount', configurable: false },
  { id: 'vat_line_total', label: 'Amount with VAT', parent: 'vat_line', type: 'amount', configurable: false },
  { id: 'line_items', label: 'Line items', parent: null, category: 'multivalue', settings: { grid: true } },
  { id: 'line_item', label: 'Line item', parent: 'line_items', category: 'tuple' },
  ...LINE_ITEM_COLUMNS.map<Def>((id) => ({ id, label: LINE_ITEM_DEFS[id].label, parent: 'line_item', type: LINE_ITEM_DEFS[id].type, settings: LINE_ITEM_DEFS[id].settings, configurable: false })),
];

/** Why a field's toggles are locked, and the 422 of a change that would make it optional or hidden. */
export const alwaysRequiredMessage = (label: string) => `${label} is always required`;

function toField(d: Def, parentTab: SchemaField['tab'] | undefined): SchemaField {
  const category = d.category ?? 'datapoint';
  const field: SchemaField = {
    id: d.id,
    label: d.label,
    description: d.description ?? '',
    parent_schema_id: d.parent,
    category,
    constraints: { required: d.required ?? false },
    hidden: false,
    tab: d.tab ?? parentTab ?? 'details',
    configurable: category === 'datapoint' && (d.configurable ?? true),
    settings: d.settings ?? {},
  };
  if (category === 'datapoint') field.type = d.type ?? 'string';
  if (category === 'datapoint' && d.alwaysRequired) field.locked = alwaysRequiredMessage(d.label);
  if (d.options) field.options = d.options;
  return field;
}

/** The default schema, flat, parents before children. */
export function defaultSchema(): SchemaField[] {
  const tabs = new Map<string, SchemaField['tab']>();
  return DEFS.map((d) => {
    const f = toField(d, d.parent ? tabs.get(d.parent) : undefined);
    tabs.set(f.id, f.tab);
    return f;
  });
}

/** The company's schema: the default with its overrides applied (a locked field keeps its default, whatever is stored). */
export function companySchema(overrides: SchemaOverrides = {}): SchemaField[] {
  return defaultSchema().map((f) => {
    const o = overrides[f.id];
    if (!o || f.category !== 'datapoint' || f.locked) return f;
    return { ...f, constraints: { required: o.required ?? f.constraints.required }, hidden: o.hidden ?? f.hidden };
  });
}

/**
 * Merges a PUT /schemas body into the stored overrides. Only configurable datapoints can change;
 * an override equal to the default is dropped. A field cannot be required and hidden at once. A locked field
 * cannot be made optional or hidden (422 on it); overrides of locked fields stored before the lock are dropped.
 */
export function mergeSchemaOverrides(current: SchemaOverrides, input: UpdateSchemaInput): SchemaOverrides {
  const defaults = new Map(defaultSchema().map((f) => [f.id, f]));
  const next: SchemaOverrides = structuredClone(current);
  for (const f of defaults.values()) if (f.locked) delete next[f.id];
  for (const dp of input.datapoints) {
    const def = defaults.get(dp.id);
    if (!def || !def.configurable) throw new AppError('ValidationFailed', `Unknown field ${dp.id}`, [{ path: ['datapoints', dp.id], message: 'Unknown field' }]);
    if (def.locked) {
      if (dp.constraints?.required === false || dp.hidden === true) throw new AppError('ValidationFailed', def.locked, [{ path: ['datapoints', dp.id], message: def.locked }]);
      continue;
    }
    const entry = { ...next[dp.id] };
    if (dp.constraints) entry.required = dp.constraints.required;
    if (dp.hidden !== undefined) entry.hidden = dp.hidden;
    const required = entry.required ?? def.constraints.required;
    const hidden = entry.hidden ?? def.hidden;
    if (required && hidden) {
      throw new AppError('ValidationFailed', `${def.label} cannot be required and hidden`, [{ path: ['datapoints', dp.id], message: 'A required field must be visible' }]);
    }
    if (entry.required === def.constraints.required) delete entry.required;
    if (entry.hidden === def.hidden) delete entry.hidden;
    if (Object.keys(entry).length) next[dp.id] = entry;
    else delete next[dp.id];
  }
  return next;
}

export function schemaById(schema: SchemaField[]): Map<string, SchemaField> {
  return new Map(schema.map((f) => [f.id, f]));
}

/** Children of a schema node, in schema order. */
export function schemaChildren(schema: SchemaField[], parentId: string | null): SchemaField[] {
  return schema.filter((f) => f.parent_schema_id === parentId);
}

/** The stakeholder section a document of this type is about: receipts (costs) have a supplier, invoices (sales) a customer. */
export function stakeholderKind(receiptType: 'receipt' | 'invoice'): 'supplier' | 'customer' {
  return receiptType === 'invoice' ? 'customer' : 'supplier';
}
