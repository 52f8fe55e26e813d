/**
 * Which column holds which field: columns are found by their header names, in English or Lithuanian, with
 * case, diacritics, punctuation and spacing ignored ("El. paštas" = "el pastas" = "EL PASTAS"). The header
 * row is the first of the sheet's first HEADER_SEARCH_ROWS rows that names the type's required columns.
 * The accepted names are listed in docs/decisions.md ("Master data import").
 */
import type { ImportType } from '../../../../shared/schemas/master-data';
import { nameKey } from '../keys';

export const HEADER_SEARCH_ROWS = 10;

export type StakeholderField =
  | 'name'
  | 'code'
  | 'vat_id'
  | 'street'
  | 'city'
  | 'zipcode'
  | 'country'
  | 'email'
  | 'delivery'
  | 'category'
  | 'date_format';
export type CategoryField = 'name' | 'category_code';
export type ItemField = 'name' | 'words';
export type ImportField = StakeholderField | CategoryField | ItemField;

/** Header texts as folded by headerKey. */
const STAKEHOLDER_HEADERS: Record<StakeholderField, string[]> = {
  name: ['name', 'company name', 'supplier', 'customer', 'pavadinimas', 'imones pavadinimas', 'tiekejas', 'pirkejas'],
  code: ['code', 'company code', 'registration code', 'kodas', 'imones kodas'],
  vat_id: ['vat id', 'vat code', 'vat', 'vat number', 'pvm kodas', 'pvm moketojo kodas'],
  street: ['street', 'address', 'adresas', 'gatve'],
  city: ['city', 'miestas'],
  zipcode: ['zip', 'zip code', 'zipcode', 'postal code', 'post code', 'pasto kodas'],
  country: ['country', 'country code', 'salis', 'salies kodas'],
  email: ['email', 'e mail', 'el pastas', 'elektroninis pastas'],
  delivery: ['delivery address', 'delivery', 'pristatymo adresas'],
  category: ['category', 'category code', 'kategorija', 'kategorijos kodas'],
  date_format: ['date format', 'datos formatas'],
};

const CATEGORY_HEADERS: Record<CategoryField, string[]> = {
  name: ['name', 'category', 'category name', 'pavadinimas', 'kategorija', 'kategorijos pavadinimas'],
  category_code: ['code', 'category code', 'kodas', 'kategorijos kodas'],
};

const ITEM_HEADERS: Record<ItemField, string[]> = {
  name: ['name', 'item', 'item name', 'product', 'pavadinimas', 'preke', 'prekes pavadinimas'],
  words: ['words', 'zodziai', 'key words', 'keywords', 'raktazodziai'],
};

/** "Word 1", "Word2", "Žodis 3": one word of an item per column. */
const WORD_COLUMN = /^(word|zodis) ?\d{1,3}$/;

export const HEADERS: Record<ImportType, Partial<Record<ImportField, string[]>>> = {
  suppliers: STAKEHOLDER_HEADERS,
  customers: STAKEHOLDER_HEADERS,
  categories: CATEGORY_HEADERS,
  items: ITEM_HEADERS,
};

/** Columns a file of this type must have; the label is what the message names. */
export const REQUIRED_COLUMNS: Record<ImportType, { field: ImportField; label: string }[]> = {
  suppliers: [
    { field: 'name', label: 'Name (Pavadinimas)' },
    { field: 'code', label: 'Code (Kodas)' },
  ],
  customers: [
    { field: 'name', label: 'Name (Pavadinimas)' },
    { field: 'code', label: 'Code (Kodas)' },
  ],
  categories: [{ field: 'name', label: 'Name (Pavadinimas)' }],
  items: [{ field: 'name', label: 'Name (Pavadinimas)' }],
};

/** A header cell folded: diacritics and case dropped, punctuation as spaces, single spaces. */
export function headerKey(text: string): string {
  return nameKey(text.replace(/[._:;,*#/\\()[\]{}"'’\-–—]+/g, ' '));
}

export interface ColumnMap {
  /** Column index of each field found. */
  fields: Partial<Record<ImportField, number>>;
  /** Items: the Word 1, Word 2… columns in sheet order. */
  wordColumns: number[];
}

/** The columns a header row names for this type (the first column of a field wins). */
export function mapHeaderRow(type: ImportType, row: readonly string[]): ColumnMap {
  const byHeader = new Map<string, ImportField>();
  for (const [field, names] of Object.entries(HEADERS[type]) as [ImportField, string[]][]) {
    for (const name of names) if (!byHeader.has(name)) byHeader.set(name, field);
  }
  const map: ColumnMap = { fields: {}, wordColumns: [] };
  row.forEach((cell, index) => {
    const key = headerKey(cell ?? '');
    if (!key) return;
    const field = byHeader.get(key);
    if (field !== undefined) {
      if (map.fields[field] === undefined) map.fields[field] = index;
      return;
    }
    if (type === 'items' && WORD_COLUMN.test(key)) map.wordColumns.push(index);
  });
  return map;
}

function hasRequired(type: ImportType, map: ColumnMap): boolean {
  return REQUIRED_COLUMNS[type].every((c) => map.fields[c.field] !== undefined);
}

export type HeaderSearch =
  | { found: true; index: number; columns: ColumnMap }
  | { found: false; message: string };

/** Finds the header row among the first HEADER_SEARCH_ROWS rows. */
export function findHeaderRow(type: ImportType, rows: readonly (readonly string[])[]): HeaderSearch {
  let best: ColumnMap | undefined;
  for (let i = 0; i < Math.min(HEADER_SEARCH_ROWS, rows.length); i++) {
    const columns = mapHeaderRow(type, rows[i] ?? []);
    if (hasRequired(type, columns)) return { found: true, index: i, columns };
    if (columns.fields.name !== undefined && !best) best = columns;
  }
  const missing = REQUIRED_COLUMNS[type].filter((c) => !best || best.fields[c.field] === undefined).map((c) => c.label);
  return {
    found: false,
    message: `No header row found in the first ${HEADER_SEARCH_ROWS} rows: the sheet needs the column${missing.length > 1 ? 's' : ''} ${missing.join(' and ')}`,
  };
}
