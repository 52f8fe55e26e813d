/**
 * The data rows of an import sheet, each validated with the same zod schemas as the add forms. A row either
 * becomes the fields it gives (empty cells give nothing: an update by code leaves those fields as they are)
 * or is rejected with its sheet row number and the reason.
 */
import type { ZodError } from 'zod';
import { STAKEHOLDER_DATE_FORMATS } from '../../../../shared/constants';
import {
  createCategorySchema,
  createItemSchema,
  createStakeholderSchema,
  type CreateCategoryInput,
  type CreateItemInput,
  type CreateStakeholderInput,
  type ImportType,
  type StakeholderDateFormat,
} from '../../../../shared/schemas/master-data';
import { codeKey, nameKey } from '../keys';
import { countryCodeOf } from './countries';
import { findHeaderRow, type ColumnMap, type ImportField } from './headers';

/** Longest reason kept for a rejected row. */
export const REASON_MAX = 300;

export interface RejectedRow {
  /** 1-based row number of the sheet, as the spreadsheet program shows it. */
  row: number;
  reason: string;
}

export type StakeholderRowInput = Omit<CreateStakeholderInput, 'type' | 'category_id'>;

export type RowInput =
  | { kind: 'stakeholder'; input: StakeholderRowInput; category: string }
  | { kind: 'category'; input: CreateCategoryInput }
  | { kind: 'item'; input: CreateItemInput };

export type ParsedRow = ({ ok: true } & RowInput & { row: number }) | ({ ok: false } & RejectedRow);

export interface SheetPlan {
  /** Data rows (blank rows left out), in sheet order. */
  rows: { row: number; cells: string[] }[];
  columns: ColumnMap;
}

const LABELS: Record<string, string> = {
  name: 'Name',
  code: 'Code',
  vat_id: 'VAT ID',
  street: 'Street',
  city: 'City',
  zipcode: 'Zip code',
  country: 'Country',
  email: 'Email',
  delivery: 'Delivery address',
  category: 'Category',
  selected_date_format: 'Date format',
  category_code: 'Code',
  words: 'Words',
};

export function reasonText(reason: string): string {
  return reason.length > REASON_MAX ? `${reason.slice(0, REASON_MAX - 1)}…` : reason;
}

function zodReason(error: ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid row';
  const field = String(issue.path[0] ?? '');
  const label = LABELS[field] ?? field;
  return reasonText(label ? `${label}: ${issue.message}` : issue.message);
}

const isBlank = (cells: readonly string[]) => cells.every((c) => (c ?? '').trim() === '');

/** The header row and the data rows after it; a message when no header row is found. */
export function planSheet(type: ImportType, rows: readonly string[][], firstRow: number): SheetPlan | { message: string } {
  const header = findHeaderRow(type, rows);
  if (!header.found) return { message: header.message };
  const data: SheetPlan['rows'] = [];
  for (let i = header.index + 1; i < rows.length; i++) {
    const cells = rows[i] ?? [];
    if (!isBlank(cells)) data.push({ row: firstRow + i, cells });
  }
  return { rows: data, columns: header.columns };
}

function cell(cells: readonly string[], columns: ColumnMap, field: ImportField): string {
  const index = columns.fields[field];
  return index === undefined ? '' : (cells[index] ?? '').trim();
}

/** Only the fields with a non-empty cell. */
function given<T extends string>(cells: readonly string[], columns: ColumnMap, fields: readonly T[]): Partial<Record<T, string>> {
  const out: Partial<Record<T, string>> = {};
  for (const field of fields) {
    const value = cell(cells, columns, field as ImportField);
    if (value !== '') out[field] = value;
  }
  return out;
}

function dateFormatOf(text: string): StakeholderDateFormat | undefined {
  const value = text.trim().toUpperCase();
  return (STAKEHOLDER_DATE_FORMATS as readonly string[]).includes(value) ? (value as StakeholderDateFormat) : undefined;
}

/** Item words of one cell: separated by commas, semicolons or line breaks. */
export function splitWords(text: string): string[] {
  return text
    .split(/[,;\n\r]+/)
    .map((w) => w.trim())
    .filter((w) => w !== '');
}

const STAKEHOLDER_TEXT_FIELDS = ['name', 'code', 'vat_id', 'street', 'city', 'zipcode', 'email', 'delivery'] as const;

export function parseRow(type: ImportType, row: number, cells: readonly string[], columns: ColumnMap): ParsedRow {
  if (type === 'suppliers' || type === 'customers') {
    const fields: Record<string, unknown> = { ...given(cells, columns, STAKEHOLDER_TEXT_FIELDS) };
    // The schema needs both: an empty cell is "missing", not "unchanged".
    fields.name ??= '';
    fields.code ??= '';
    const country = cell(cells, columns, 'country');
    if (country !== '') {
      const code = countryCodeOf(country);
      if (code === undefined) return { ok: false, row, reason: reasonText(`Country: unknown country "${country}"`) };
      fields.country = code;
    }
    const dateFormat = cell(cells, columns, 'date_format');
    if (dateFormat !== '') {
      const format = dateFormatOf(dateFormat);
      if (!format) return { ok: false, row, reason: `Date format: must be one of ${STAKEHOLDER_DATE_FORMATS.join(', ')}` };
      fields.selected_date_format = format;
    }
    const parsed = createStakeholderSchema.safeParse({ type: type === 'suppliers' ? 'supplier' : 'customer', ...fields });
    if (!parsed.success) return { ok: false, row, reason: zodReason(parsed.error) };
    const { type: _type, category_id: _category, ...input } = parsed.data;
    return { ok: true, row, kind: 'stakeholder', input, category: cell(cells, columns, 'category') };
  }
  if (type === 'categories') {
    const parsed = createCategorySchema.safeParse({ name: cell(cells, columns, 'name'), category_code: cell(cells, columns, 'category_code') });
    if (!parsed.success) return { ok: false, row, reason: zodReason(parsed.error) };
    return { ok: true, row, kind: 'category', input: parsed.data };
  }
  const words = [...splitWords(cell(cells, columns, 'words')), ...columns.wordColumns.map((c) => (cells[c] ?? '').trim())];
  const parsed = createItemSchema.safeParse({ name: cell(cells, columns, 'name'), words });
  if (!parsed.success) return { ok: false, row, reason: zodReason(parsed.error) };
  return { ok: true, row, kind: 'item', input: { name: parsed.data.name, words: [...new Set(parsed.data.words)] } };
}

/** What a parsed row is the record of: its code (suppliers, customers; categories with a code), else its name. */
/**
 * What names one record in a sheet: a stakeholder's code; a category's code when it has one, and its name (a later
 * row of the same name without a code is found by that name: the record the earlier row wrote); an item's name.
 */
function identitiesOf(row: Extract<ParsedRow, { ok: true }>): { field: 'code' | 'name'; key: string }[] {
  if (row.kind === 'stakeholder') return [{ field: 'code', key: codeKey(row.input.code) }];
  const name = { field: 'name' as const, key: nameKey(row.input.name) };
  if (row.kind === 'category' && (row.input.category_code ?? '').trim() !== '') return [{ field: 'code', key: codeKey(row.input.category_code!) }, name];
  return [name];
}

const REPEAT_RULE = {
  code: 'codes are compared without spaces, dashes and case',
  name: 'names are compared without case and accents',
} as const;

/**
 * A sheet that gives one record twice (the same code; for categories and items the same name) keeps
 * the first row and rejects the later ones, naming the first: the later row would otherwise overwrite what the first
 * wrote, or be counted as an update of a record the same file created. Decided on the whole sheet, so a retried chunk
 * decides the same.
 */
export function rejectRepeatedRows(rows: readonly ParsedRow[]): ParsedRow[] {
  const first = new Map<string, number>();
  return rows.map((row) => {
    if (!row.ok) return row;
    const identities = identitiesOf(row);
    for (const { field, key } of identities) {
      const earlier = first.get(`${field}:${key}`);
      if (earlier !== undefined) return { ok: false, row: row.row, reason: `${LABELS[field]}: same ${field} as sheet row ${earlier}; ${REPEAT_RULE[field]}` };
    }
    for (const { field, key } of identities) first.set(`${field}:${key}`, row.row);
    return row;
  });
}
