import { describe, expect, it } from 'vitest';
import { extractDocument } from '../../../lambdas/core/recognition/extract/index';
import { toAnalyzeExpenseResult } from '../../../lambdas/core/recognition/expense';
import {
  codeKeyValue,
  lookupKeys,
  MAX_KEY_VALUE_LENGTH,
  MAX_PRINTED_VAT_IDS,
  nameKeyValue,
  printedText,
  supplierKeys,
  vatKeyValue,
  type SupplierIdentity,
  type SupplierKey,
} from '../../../lambdas/core/recognition/layout-keys';
import type { ExtractedFields } from '../../../lambdas/core/recognition/types';
import { textDocument } from './helpers';

const fields = (o: Record<string, string>): ExtractedFields => ({
  vat_lines: [],
  line_items: [],
  ...Object.fromEntries(Object.entries(o).map(([k, v]) => [k, { value: v, page: 1, box: { left: 0, top: 0, width: 0, height: 0 }, confidence: 90 }])),
});

describe('supplier keys of a learnt layout', () => {
  const cases: [string, SupplierIdentity, SupplierKey[]][] = [
    ['all three, most specific first', { vat_id: 'LT119511515', code: '304567891', name: 'UAB "Šviesos Technika"' }, [
      { kind: 'VAT', value: 'LT119511515' },
      { kind: 'CODE', value: '304567891' },
      { kind: 'NAME', value: 'SVIESOS TECHNIKA' },
    ]],
    ['VAT ID written with spaces, dots and lower case', { vat_id: ' lt 1195.115-15 ' }, [{ kind: 'VAT', value: 'LT119511515' }]],
    ['the same name whatever its legal form, case and punctuation', { name: 'Šviesos technika, UAB' }, [{ kind: 'NAME', value: 'SVIESOS TECHNIKA' }]],
    ['a name of only a legal form is kept as it is', { name: 'UAB' }, [{ kind: 'NAME', value: 'UAB' }]],
    ['empty identity', {}, []],
    ['nulls and blanks', { vat_id: null, code: '   ', name: '' }, []],
    ['punctuation only', { vat_id: '--', code: '..', name: '"" ,' }, []],
    ['too short to tell suppliers apart', { vat_id: 'LT1', code: '12', name: 'A' }, []],
    ['a VAT ID longer than any real one', { vat_id: 'LT'.padEnd(40, '1') }, []],
  ];
  it.each(cases)('%s', (_name, identity, expected) => {
    expect(supplierKeys(identity)).toEqual(expected);
  });

  it('cuts a very long name to the key length', () => {
    const name = nameKeyValue(`${'Very long trading name '.repeat(20)}UAB`)!;
    expect(name.length).toBeLessThanOrEqual(MAX_KEY_VALUE_LENGTH);
    expect(name.startsWith('VERY LONG TRADING NAME')).toBe(true);
  });

  it.each([
    ['vat', vatKeyValue, 'de 123 456 789', 'DE123456789'],
    ['vat', vatKeyValue, undefined, undefined],
    ['code', codeKeyValue, '30-45/67', '304567'],
    ['code', codeKeyValue, null, undefined],
    ['name', nameKeyValue, 'Harbor Freight Forwarding Inc', 'HARBOR FREIGHT FORWARDING'],
    ['name', nameKeyValue, '   ', undefined],
  ] as const)('%s key of %j is %j', (_kind, fn, input, expected) => {
    expect(fn(input)).toBe(expected);
  });
});

describe('keys a recognised document is looked up by', () => {
  it('the recognised supplier, then every VAT ID printed on the page, each once', () => {
    const keys = lookupKeys(fields({ supplier_name: 'Acme UAB', supplier_vat_id: 'LT119511515' }), 'Seller VAT LT 119511515\nBuyer VAT ID: LT100001919017\nDE123456789');
    expect(keys).toEqual([
      { kind: 'VAT', value: 'LT119511515' },
      { kind: 'NAME', value: 'ACME' },
      { kind: 'VAT', value: 'LT100001919017' },
      { kind: 'VAT', value: 'DE123456789' },
    ]);
  });

  it('printed VAT IDs alone when the extractor found no supplier', () => {
    expect(lookupKeys(fields({}), 'VAT ID: LT119511515')).toEqual([{ kind: 'VAT', value: 'LT119511515' }]);
  });

  it('nothing to look up: no supplier, no valid VAT ID printed', () => {
    expect(lookupKeys(fields({}), '')).toEqual([]);
    expect(lookupKeys(fields({ supplier_name: ' ' }), 'VAT LT119511516 (bad check digit)')).toEqual([]);
  });

  it('is bounded however many VAT IDs a page prints', () => {
    const text = Array.from({ length: 30 }, (_, i) => `DE${String(100000000 + i)}`).join(' ');
    expect(lookupKeys(fields({}), text)).toHaveLength(MAX_PRINTED_VAT_IDS);
  });

  it('reads the printed text from the answer\'s blocks', () => {
    const doc = textDocument(['ACME TRADING UAB', 'VAT ID: LT119511515', 'TOTAL   12.00']);
    const text = printedText(toAnalyzeExpenseResult(doc, extractDocument(doc)));
    expect(text.split('\n')).toEqual(['ACME TRADING UAB', 'VAT ID: LT119511515', 'TOTAL 12.00']);
    expect(printedText({ ExpenseDocuments: [] })).toBe('');
  });
});
