import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addField, defaultExportFields, renameField } from '../../../web/src/features/export/lib/fields';
import { rememberCsvFormat, rememberExportFields, storedCsvFormat, storedExportFields } from '../../../web/src/features/export/lib/remembered';

describe('what the export pop-up keeps between exports', () => {
  const stored = new Map<string, string>();
  beforeEach(() => {
    stored.clear();
    vi.stubGlobal('window', { localStorage: { getItem: (k: string) => stored.get(k) ?? null, setItem: (k: string, v: string) => void stored.set(k, v) } });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('starts with the ten default fields and comma-separated CSV', () => {
    expect(storedExportFields()).toEqual(defaultExportFields());
    expect(storedCsvFormat()).toBe('comma');
  });

  it('starts the next export from the columns of the last one: added, renamed and in their order', () => {
    const fields = renameField(addField(defaultExportFields(), 'Invoice number', [{ key: 'document_id', label: 'Invoice number' }]), 'total', 'Amount');
    rememberExportFields(fields);
    expect(storedExportFields()).toEqual(fields);
  });

  it('takes the defaults when what is stored is not a list of fields', () => {
    for (const bad of ['not json', '[]', '[{"id":"x"}]', '{"id":"x","key":"x","label":"x"}', JSON.stringify(Array.from({ length: 101 }, (_, i) => ({ id: `f${i}`, key: `f${i}`, label: `F${i}` })))]) {
      stored.set('export_fields', bad);
      expect(storedExportFields()).toEqual(defaultExportFields());
    }
  });

  it('keeps the CSV format chosen; private mode (no storage) keeps the defaults', () => {
    rememberCsvFormat('semicolon');
    expect(storedCsvFormat()).toBe('semicolon');
    vi.stubGlobal('window', {
      get localStorage(): Storage {
        throw new Error('SecurityError');
      },
    });
    expect(storedExportFields()).toEqual(defaultExportFields());
    expect(storedCsvFormat()).toBe('comma');
    expect(() => rememberExportFields(defaultExportFields())).not.toThrow();
  });
});
