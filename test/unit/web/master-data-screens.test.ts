import { describe, expect, it } from 'vitest';
import type { Stakeholder } from '../../../shared/schemas/master-data';
import { pageTitle } from '../../../web/src/app/routes';
import { ApiError } from '../../../web/src/lib/api-error';
import {
  categoryAddValidator,
  categoryEditValidator,
  EMPTY_STAKEHOLDER,
  itemAddValidator,
  itemEditValidator,
  keptWords,
  serverFieldErrors,
  stakeholderAddValidator,
  stakeholderEditValidator,
  stakeholderEditValues,
  wordRows,
} from '../../../web/src/features/master-data/lib/forms';
import { deleteQuery, recordKey } from '../../../web/src/features/master-data/api/master-data';
import { emptyText, importedOnlyNote, listBody, MASTER_SCREENS, masterListQuery, nextMasterCursor, readSearchPages, readSearchPagesFrom, screenOfPath } from '../../../web/src/features/master-data/lib/screens';
import { matchingOptions, nearListEnd } from '../../../web/src/features/master-data/components/SearchSelect';
import { COUNTRIES } from '../../../shared/countries';
import { switchName } from '../../../web/src/features/integration/components/IntegrationPage';

const supplier: Stakeholder = {
  id: 'st-1',
  type: 'supplier',
  name: 'Maxima LT',
  code: '111',
  vat_id: 'LT111',
  street: 'Gedimino 1',
  city: 'Vilnius',
  zipcode: '01103',
  country: 'LT',
  email: '',
  delivery: '',
  category: { id: 'cat-1', name: 'Food' },
  category_id: 'cat-1',
  company_id: 'co-1',
  company_name: 'Acme',
  selected_date_format: null,
  list_date_formats: [],
  recognise_details: false,
  external: false,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

describe('master-data screens by path', () => {
  it('maps the four paths to their type, title and empty state', () => {
    expect(screenOfPath('/suppliers')?.kind).toBe('supplier');
    expect(screenOfPath('/customers/')?.kind).toBe('customer');
    expect(screenOfPath('/categories')?.listPath).toBe('/categories');
    expect(screenOfPath('/items')?.importType).toBe('items');
    expect(screenOfPath('/dashboard')).toBeUndefined();
    expect(emptyText(MASTER_SCREENS.supplier)).toBe('No Suppliers found');
    expect(emptyText(MASTER_SCREENS.item)).toBe('No Items found');
    expect(pageTitle('/categories')).toBe('Categories');
    expect(pageTitle('/customers')).toBe('Customers');
  });
});

describe('masterListQuery', () => {
  it('asks one company for stakeholders of the type with external data, 50 a page, searched by name', () => {
    expect(masterListQuery('supplier', '  max ', { kind: 'company', companyId: 'co-1' })).toEqual({
      limit: 50,
      type: 'supplier',
      with_external_data: 1,
      search_name: 'max',
      company_id: 'co-1',
    });
  });

  it('asks every company with selected=ALL and carries both cursors', () => {
    expect(masterListQuery('item', '', { kind: 'all' }, { next: 'n1', next_company: 'co-2' })).toEqual({
      limit: 50,
      selected: 'ALL',
      next: 'n1',
      next_company: 'co-2',
    });
  });

  it('stops paging when neither cursor is set', () => {
    expect(nextMasterCursor({ next: null, next_company: null })).toBeUndefined();
    expect(nextMasterCursor({ next: null, next_company: 'co-2' })).toEqual({ next: null, next_company: 'co-2' });
  });
});

describe('stakeholder forms', () => {
  it('add: name and code required with the spec texts; company required in the all-companies view', () => {
    const r = stakeholderAddValidator('supplier', true)({ ...EMPTY_STAKEHOLDER, name: 'A' });
    expect(r.ok).toBe(false);
    expect(r.errors).toEqual({ name: 'At least 2 characters', code: 'Required field', company_id: 'Required field' });
  });

  it('add: sends the filled fields only, the chosen company beside them', () => {
    const r = stakeholderAddValidator('customer', true)({ ...EMPTY_STAKEHOLDER, name: ' Rimi ', code: 'R1', country: 'lt', company_id: 'co-2' });
    expect(r).toEqual({
      ok: true,
      errors: {},
      data: { companyId: 'co-2', input: { type: 'customer', name: 'Rimi', code: 'R1', country: 'LT' } },
    });
  });

  it('add: a country outside the list is refused', () => {
    const r = stakeholderAddValidator('supplier', false)({ ...EMPTY_STAKEHOLDER, name: 'Rimi', code: 'R1', country: 'XX' });
    expect(r.errors.country).toBe('Choose a country from the list');
  });

  it('edit: only the changed fields are sent; an unchanged edit sends nothing', () => {
    const initial = stakeholderEditValues(supplier);
    const validate = stakeholderEditValidator(initial, supplier.id);
    expect(validate(initial)).toEqual({ ok: true, errors: {}, data: { changed: false, input: { id: 'st-1' } } });
    const r = validate({ ...initial, city: 'Kaunas', selected_date_format: 'DD/MM/YYYY' });
    // with what the changed fields were when the pop-up read them (a date format not set: null, as stored)
    expect(r).toEqual({
      ok: true,
      errors: {},
      data: { changed: true, input: { id: 'st-1', city: 'Kaunas', selected_date_format: 'DD/MM/YYYY', before: { city: 'Vilnius', selected_date_format: null } } },
    });
  });

  it('edit: a removed category is sent as null; a blanked name or code is refused', () => {
    const initial = stakeholderEditValues(supplier);
    const validate = stakeholderEditValidator(initial, supplier.id);
    expect(validate({ ...initial, category_id: '' })).toMatchObject({ ok: true, data: { input: { id: 'st-1', category_id: null, before: { category_id: 'cat-1' } } } });
    expect(validate({ ...initial, name: '', code: ' ' }).errors).toEqual({ name: 'Required field', code: 'Required field' });
    expect(validate({ ...initial, name: 'A' }).errors).toEqual({ name: 'At least 2 characters' });
  });
});

describe('category forms', () => {
  it('add: name at least 2 characters, code optional', () => {
    expect(categoryAddValidator(false)({ name: 'x', category_code: '', company_id: '' }).errors).toEqual({ name: 'At least 2 characters' });
    expect(categoryAddValidator(false)({ name: 'Fuel', category_code: '', company_id: '' })).toMatchObject({
      ok: true,
      data: { companyId: undefined, input: { name: 'Fuel', category_code: '' } },
    });
  });

  it('edit: unchanged does nothing, a changed code alone is sent alone, with what it was (before)', () => {
    const initial = { name: 'Fuel', category_code: 'F1' };
    const validate = categoryEditValidator(initial, 'cat-1');
    expect(validate(initial)).toEqual({ ok: true, errors: {}, data: { changed: false, input: { id: 'cat-1' } } });
    expect(validate({ ...initial, category_code: 'F2' })).toEqual({
      ok: true,
      errors: {},
      data: { changed: true, input: { id: 'cat-1', category_code: 'F2', before: { category_code: 'F1' } } },
    });
    expect(validate({ ...initial, name: '' }).errors).toEqual({ name: 'Required field' });
    expect(validate({ ...initial, name: ' x ' }).errors).toEqual({ name: 'At least 2 characters' });
  });
});

describe('item forms', () => {
  it('add: blank word rows are dropped, words trimmed', () => {
    const r = itemAddValidator(false)({ name: 'Diesel', words: wordRows([' diesel ', '', '  ', 'dyzelinas']), company_id: '' });
    expect(r).toMatchObject({ ok: true, data: { input: { name: 'Diesel', words: ['diesel', 'dyzelinas'] } } });
  });

  it('add: a company is required in the all-companies view', () => {
    expect(itemAddValidator(true)({ name: 'Diesel', words: [], company_id: '' }).errors).toEqual({ company_id: 'Required field' });
  });

  it('edit: sends the words only when the kept words differ', () => {
    const item = { name_id: 'diesel', name: 'Diesel', words: ['diesel', 'dyzelinas'] };
    const validate = itemEditValidator(item);
    expect(validate({ name: 'Diesel', words: wordRows(['diesel', 'dyzelinas', '']), company_id: 'co-1' })).toMatchObject({ data: { changed: false } });
    expect(validate({ name: 'Diesel', words: wordRows(['diesel']), company_id: 'co-1' })).toMatchObject({
      data: { changed: true, input: { name_id: 'diesel', words: ['diesel'] } },
    });
    expect(validate({ name: 'Diesel fuel', words: wordRows(['diesel', 'dyzelinas']), company_id: 'co-1' })).toMatchObject({
      data: { changed: true, input: { name_id: 'diesel', name: 'Diesel fuel' } },
    });
    expect(keptWords(wordRows(['a', ' ', 'b ']))).toEqual(['a', 'b']);
  });
});

describe('server answers', () => {
  it('a duplicate shows under its field; a duplicate category code under category_code', () => {
    const dup = new ApiError(422, 'ValidationFailed', 'Validation failed', [{ path: ['name'], message: 'This supplier already exists' }]);
    expect(serverFieldErrors('supplier', dup)).toEqual({ name: 'This supplier already exists' });
    const code = new ApiError(422, 'ValidationFailed', 'Validation failed', [{ path: ['code'], message: 'This category already exists' }]);
    expect(serverFieldErrors('category', code)).toEqual({ category_code: 'This category already exists' });
    expect(serverFieldErrors('category', new Error('x'))).toEqual({});
  });

  it('deletes name the id, or the item name_id', () => {
    expect(deleteQuery('supplier', supplier)).toEqual({ id: 'st-1' });
    const item = { name_id: 'diesel', name: 'Diesel', words: [], company_id: 'co-1', company_name: 'Acme', external: false, created_at: '', updated_at: '' };
    expect(deleteQuery('item', item)).toEqual({ name: 'diesel' });
    expect(recordKey(item)).toBe('co-1:diesel');
    expect(recordKey(supplier)).toBe('co-1:st-1');
  });

  it('says No … found only when the server says nothing more exists; an empty page with a next is a search still going on', () => {
    expect(listBody(0, true)).toBe('searching');
    expect(listBody(0, false)).toBe('empty');
    expect(listBody(3, true)).toBe('rows');
    expect(listBody(3, false)).toBe('rows');
  });

  it('a picker reads on past empty or short search pages that say more exist, until it has enough or its page budget is spent', async () => {
    const pages: Record<string, { items: string[]; next: string | null }> = {
      start: { items: [], next: 'p2' },
      p2: { items: ['Transportas Žuikis UAB'], next: 'p3' },
      p3: { items: ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'], next: 'p4' },
      p4: { items: ['never read'], next: null },
    };
    const asked: string[] = [];
    const read = (next: string | undefined) => {
      asked.push(next ?? 'start');
      return Promise.resolve(pages[next ?? 'start']);
    };
    expect(await readSearchPages(read, 8)).toEqual({ items: ['Transportas Žuikis UAB', 'A', 'B', 'C', 'D', 'E', 'F', 'G'], more: true });
    expect(asked).toEqual(['start', 'p2', 'p3']);
    // at most maxPages requests, even when every page is empty
    asked.length = 0;
    const empty = (next: string | undefined) => {
      asked.push(next ?? 'start');
      return Promise.resolve({ items: [] as string[], next: `n${asked.length}` });
    };
    expect(await readSearchPages(empty, 8, 3)).toEqual({ items: [], more: true });
    expect(asked).toHaveLength(3);
    // the end of the list ends the reading
    expect(await readSearchPages(() => Promise.resolve({ items: ['x'], next: null }), 8)).toEqual({ items: ['x'], more: false });
  });

  it('a dropdown that reads on keeps every item read and goes on from where the last read stopped', async () => {
    const pages: Record<string, { items: string[]; next: string | null }> = {
      start: { items: ['a1', 'a2'], next: 'p2' },
      p2: { items: [], next: 'p3' },
      p3: { items: ['b1', 'b2', 'b3'], next: 'p4' },
      p4: { items: ['c1'], next: null },
    };
    const read = (next: string | undefined) => Promise.resolve(pages[next ?? 'start']);
    // 3 wanted: the read stops once it has 3 or more and keeps them all (nothing is skipped by the next read)
    expect(await readSearchPagesFrom(read, 3, undefined)).toEqual({ items: ['a1', 'a2', 'b1', 'b2', 'b3'], next: 'p4' });
    expect(await readSearchPagesFrom(read, 3, 'p4')).toEqual({ items: ['c1'], next: null });
  });

  it("a dropdown's list reads its next options when it is scrolled to within 48 px of its end", () => {
    expect(nearListEnd({ scrollTop: 0, clientHeight: 222, scrollHeight: 2000 })).toBe(false);
    expect(nearListEnd({ scrollTop: 1729, clientHeight: 222, scrollHeight: 2000 })).toBe(false);
    expect(nearListEnd({ scrollTop: 1730, clientHeight: 222, scrollHeight: 2000 })).toBe(true);
    expect(nearListEnd({ scrollTop: 0, clientHeight: 222, scrollHeight: 200 })).toBe(true);
  });

  it('a list whose companies show only imported records says so (items have no such switch)', () => {
    const off = { display_imported_stakeholders: false, display_imported_categories: false };
    expect(importedOnlyNote('supplier', [off])).toBeNull();
    expect(importedOnlyNote('customer', [off, { ...off, display_imported_stakeholders: true }])).toBe(
      'Only imported suppliers and customers are shown: Display only imported suppliers and customers is on in Integration.',
    );
    expect(importedOnlyNote('category', [{ ...off, display_imported_stakeholders: true }])).toBeNull();
    expect(importedOnlyNote('category', [{ ...off, display_imported_categories: true }])).toBe('Only imported categories are shown: Display only imported categories is on in Integration.');
    expect(importedOnlyNote('item', [{ display_imported_stakeholders: true, display_imported_categories: true }])).toBeNull();
  });

  it("an Integration switch's name says its section once", () => {
    expect(switchName('Export', 'Rivile')).toBe('Export Rivile');
    expect(switchName('Display', 'Display only imported categories')).toBe('Display only imported categories');
    expect(switchName('Import', 'Importer X')).toBe('Import Importer X');
  });
});

describe('a picker filtering its own options (the country)', () => {
  const countries = COUNTRIES.map((c) => ({ value: c.code, label: c.name, hint: c.code }));
  const first = (typed: string) => matchingOptions(countries, typed)[0]?.label;

  it('puts the country whose code is the typed text first, then names the text starts', () => {
    expect(first('LT')).toBe('Lithuania');
    expect(first('lv')).toBe('Latvia');
    expect(first('DE')).toBe('Germany');
    expect(first('ee')).toBe('Estonia');
    expect(first('se')).toBe('Sweden');
    expect(first('US')).toBe('United States of America');
    expect(first('Lit')).toBe('Lithuania');
    expect(first('germ')).toBe('Germany');
    // a name's later word, then letters inside a name
    expect(matchingOptions(countries, 'kingdom').map((o) => o.label)).toContain('United Kingdom');
    expect(matchingOptions(countries, 'thuan').map((o) => o.label)).toEqual(['Lithuania']);
    expect(matchingOptions(countries, '  ')).toHaveLength(countries.length);
    expect(matchingOptions(countries, 'zzz')).toEqual([]);
  });
});
