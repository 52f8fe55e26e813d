import { describe, expect, it } from 'vitest';
import { findHeaderRow, headerKey, mapHeaderRow } from '../../../lambdas/core/master-data/import/headers';
import { parseRow, planSheet, splitWords } from '../../../lambdas/core/master-data/import/rows';
import { countryCodeOf } from '../../../lambdas/core/master-data/import/countries';

describe('import header mapping', () => {
  it('folds case, diacritics, punctuation and spacing', () => {
    expect(headerKey('  El. Paštas ')).toBe('el pastas');
    expect(headerKey('PVM   mokėtojo kodas')).toBe('pvm moketojo kodas');
    expect(headerKey('Zip-code')).toBe('zip code');
  });

  it('maps English supplier headers', () => {
    const map = mapHeaderRow('suppliers', ['Name', 'Code', 'VAT ID', 'Address', 'City', 'Postal code', 'Country', 'Email', 'Category', 'Date format', 'Notes']);
    expect(map.fields).toEqual({
      name: 0,
      code: 1,
      vat_id: 2,
      street: 3,
      city: 4,
      zipcode: 5,
      country: 6,
      email: 7,
      category: 8,
      date_format: 9,
    });
  });

  it('maps Lithuanian supplier headers', () => {
    const map = mapHeaderRow('customers', ['Pavadinimas', 'Įmonės kodas', 'PVM mokėtojo kodas', 'Gatvė', 'Miestas', 'Pašto kodas', 'Šalis', 'El. paštas', 'Kategorija']);
    expect(map.fields).toMatchObject({ name: 0, code: 1, vat_id: 2, street: 3, city: 4, zipcode: 5, country: 6, email: 7, category: 8 });
  });

  it('maps item words from a Words column and from Word 1, Word 2… columns', () => {
    const map = mapHeaderRow('items', ['Prekė', 'Žodžiai', 'Word 1', 'word2', 'Žodis 3']);
    expect(map.fields).toEqual({ name: 0, words: 1 });
    expect(map.wordColumns).toEqual([2, 3, 4]);
  });

  it('maps category headers in both languages', () => {
    expect(mapHeaderRow('categories', ['Kategorijos pavadinimas', 'Kodas']).fields).toEqual({ name: 0, category_code: 1 });
    expect(mapHeaderRow('categories', ['Name', 'Code']).fields).toEqual({ name: 0, category_code: 1 });
  });

  it('finds the header row below title rows, within the first 10 rows', () => {
    const rows = [['Supplier register 2026'], [], ['', 'Pavadinimas', 'Kodas'], ['', 'UAB Alfa', '111']];
    expect(findHeaderRow('suppliers', rows)).toMatchObject({ found: true, index: 2, columns: { fields: { name: 1, code: 2 } } });
    const late = [...Array.from({ length: 10 }, () => ['x']), ['Name', 'Code']];
    expect(findHeaderRow('suppliers', late)).toMatchObject({ found: false });
  });

  it('names the missing required column', () => {
    expect(findHeaderRow('suppliers', [['Name', 'City']])).toEqual({
      found: false,
      message: 'No header row found in the first 10 rows: the sheet needs the column Code (Kodas)',
    });
    expect(findHeaderRow('items', [['Foo']])).toMatchObject({ found: false, message: expect.stringContaining('Name (Pavadinimas)') });
  });
});

describe('import row validation', () => {
  const supplierColumns = mapHeaderRow('suppliers', ['Name', 'Code', 'VAT code', 'Country', 'Date format', 'Category', 'Email']);

  it('keeps only the fields with a value and resolves a country name', () => {
    const parsed = parseRow('suppliers', 4, [' Alfa UAB ', '300 100', '', 'Lietuva', 'dd/mm/yyyy', 'Fuel', ''], supplierColumns);
    expect(parsed).toEqual({
      ok: true,
      row: 4,
      kind: 'stakeholder',
      input: { name: 'Alfa UAB', code: '300 100', country: 'LT', selected_date_format: 'DD/MM/YYYY' },
      category: 'Fuel',
    });
  });

  it('rejects a row without code, with a short name, a bad country or date format, with reasons', () => {
    expect(parseRow('suppliers', 5, ['Alfa', '', '', '', '', '', ''], supplierColumns)).toEqual({ ok: false, row: 5, reason: 'Code: Required field' });
    expect(parseRow('suppliers', 6, ['A', '1', '', '', '', '', ''], supplierColumns)).toEqual({ ok: false, row: 6, reason: 'Name: At least 2 characters' });
    expect(parseRow('suppliers', 7, ['Alfa', '1', '', 'Atlantis', '', '', ''], supplierColumns)).toEqual({
      ok: false,
      row: 7,
      reason: 'Country: unknown country "Atlantis"',
    });
    expect(parseRow('suppliers', 8, ['Alfa', '1', '', '', '2026.01.01', '', ''], supplierColumns)).toMatchObject({
      ok: false,
      reason: 'Date format: must be one of YYYY-MM-DD, YYYY/MM/DD, MM/DD/YYYY, DD/MM/YYYY',
    });
    expect(parseRow('suppliers', 9, ['Alfa', 'x'.repeat(256), '', '', '', '', ''], supplierColumns)).toMatchObject({
      ok: false,
      reason: 'Code: At most 255 characters',
    });
  });

  it('reads country codes and English names', () => {
    expect(countryCodeOf('lt')).toBe('LT');
    expect(countryCodeOf('Germany')).toBe('DE');
    expect(countryCodeOf('Vokietija')).toBe('DE');
    expect(countryCodeOf('united kingdom')).toBe('GB');
    expect(countryCodeOf('')).toBe('');
    expect(countryCodeOf('XX')).toBeUndefined();
  });

  it('reads item words split by commas and semicolons plus Word N columns, blank and repeated words dropped', () => {
    expect(splitWords('pienas, 2,5% ; milk\nmilk')).toEqual(['pienas', '2', '5%', 'milk', 'milk']);
    const columns = mapHeaderRow('items', ['Name', 'Words', 'Word 1', 'Word 2']);
    expect(parseRow('items', 2, ['Milk', 'pienas; milk', 'dairy', ' '], columns)).toEqual({
      ok: true,
      row: 2,
      kind: 'item',
      input: { name: 'Milk', words: ['pienas', 'milk', 'dairy'] },
    });
  });

  it('validates categories: name required, code optional', () => {
    const columns = mapHeaderRow('categories', ['Pavadinimas', 'Kodas']);
    expect(parseRow('categories', 2, ['Kuras', 'K1'], columns)).toEqual({ ok: true, row: 2, kind: 'category', input: { name: 'Kuras', category_code: 'K1' } });
    expect(parseRow('categories', 3, ['', 'K2'], columns)).toEqual({ ok: false, row: 3, reason: 'Name: Required field' });
    expect(parseRow('categories', 4, ['K', 'K3'], columns)).toEqual({ ok: false, row: 4, reason: 'Name: At least 2 characters' });
  });

  it('numbers rows as the sheet does and leaves blank rows out', () => {
    const plan = planSheet('items', [['Items'], ['Name'], ['Milk'], ['', ''], ['Bread']], 3);
    expect(plan).toMatchObject({ rows: [{ row: 5, cells: ['Milk'] }, { row: 7, cells: ['Bread'] }] });
  });
});
