import { describe, expect, it } from 'vitest';
import { focusIsFree, initialField } from '../../../web/src/features/edit-receipt/lib/initial-focus';
import { SHORTCUTS, shortcutOf } from '../../../web/src/features/edit-receipt/lib/keyboard';
import { readListScroll, rowsToFocus, writeListScroll, type ListScrollEntry } from '../../../web/src/features/receipts/lib/list-scroll';

const alt = (key: string, code?: string, extra: Partial<Parameters<typeof shortcutOf>[0]> = {}) =>
  shortcutOf({ key, code, altKey: true, ctrlKey: false, metaKey: false, shiftKey: false, inField: false, ...extra });

describe('the review loop by keyboard', () => {
  it('Alt+F is the Flag shortcut, in a field too and whatever the layout types, listed in the help', () => {
    expect(alt('f', 'KeyF')).toBe('flag');
    expect(alt('F', 'KeyF', { shiftKey: true })).toBe('flag');
    // macOS types a letter with Option: the physical key decides
    expect(alt('ƒ', 'KeyF')).toBe('flag');
    expect(alt('f', 'KeyF', { inField: true })).toBe('flag');
    expect(alt('f')).toBe('flag');
    // typing f, Ctrl+Alt+F (AltGr on some layouts) and a key with a pop-up open are not the shortcut
    expect(shortcutOf({ key: 'f', code: 'KeyF', altKey: false, ctrlKey: false, metaKey: false, shiftKey: false, inField: true })).toBeNull();
    expect(alt('f', 'KeyF', { ctrlKey: true })).toBeNull();
    expect(alt('f', 'KeyF', { inDialog: true })).toBeNull();
    expect(SHORTCUTS.find((s) => s.action === 'flag')).toMatchObject({ keys: 'Alt+F' });
    // one key per action
    const keys = SHORTCUTS.map((s) => s.keys);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('a document opens on its first field to correct: with an error, or required and empty, in the order of the tabs', () => {
    const details = [
      { id: 'document_id', required: true, value: '' },
      { id: 'issue_date', required: true, value: '2025-03-04' },
      { id: 'amount_total', required: true, value: '12,5' },
    ];
    const advanced = [{ id: 'notes', required: false, value: '' }];
    const tabs = [
      { tab: 'details' as const, fields: details },
      { tab: 'advanced' as const, fields: advanced },
    ];
    // required and empty, before a server error further down
    expect(initialField(tabs, { amount_total: 'Amount must be 0.00' })).toEqual({ id: 'document_id', tab: 'details' });
    // the number typed (a draft not yet saved): the next field to correct
    expect(initialField(tabs, { amount_total: 'Amount must be 0.00' }, { document_id: 'A-1' })).toEqual({ id: 'amount_total', tab: 'details' });
    // a blank value is empty
    expect(initialField(tabs, {}, { document_id: '   ' })).toEqual({ id: 'document_id', tab: 'details' });
    // nothing to correct: the first field of Item Details
    expect(initialField(tabs, {}, { document_id: 'A-1' })).toEqual({ id: 'document_id', tab: 'details' });
    const valid = [{ tab: 'details' as const, fields: details.slice(1, 2) }, { tab: 'advanced' as const, fields: [{ id: 'vat_id', required: true, value: '' }] }];
    // the only field to correct is on Advanced
    expect(initialField(valid, {})).toEqual({ id: 'vat_id', tab: 'advanced' });
    expect(initialField([{ tab: 'details', fields: [] }, { tab: 'advanced', fields: advanced }], {})).toEqual({ id: 'notes', tab: 'advanced' });
    expect(initialField([{ tab: 'details', fields: [] }], {})).toBeNull();
  });

  it('the focus is taken only from where the app left it (nowhere, the page title, main), never from a control', () => {
    const el = (tagName: string) => ({ tagName }) as Element;
    const body = el('BODY');
    expect(focusIsFree(null, body)).toBe(true);
    expect(focusIsFree(body, body)).toBe(true);
    expect(focusIsFree(el('H1'), body)).toBe(true);
    expect(focusIsFree(el('MAIN'), body)).toBe(true);
    expect(focusIsFree(el('INPUT'), body)).toBe(false);
    expect(focusIsFree(el('A'), body)).toBe(false);
    expect(focusIsFree(el('BUTTON'), body)).toBe(false);
  });

  it('back from a document the list focuses the row of the document last open, else the one opened, else the kept row; not on other visits', () => {
    const store = new Map<string, string>();
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
    const entry: ListScrollEntry = { address: '/receipts/review', anchorId: 'TOP', anchorTop: 40, scrollY: 900, opened: true, openedId: 'OPENED' };
    writeListScroll(storage, entry);
    const read = readListScroll(storage, '/receipts/review');
    expect(read).toEqual(entry);
    // the edit screen's Back after Next or CONFIRM names the document last open
    expect(rowsToFocus(read, 'LAST')).toEqual(['LAST', 'OPENED', 'TOP']);
    // the browser's Back: the one opened
    expect(rowsToFocus(read, undefined)).toEqual(['OPENED', 'TOP']);
    expect(rowsToFocus({ ...entry, openedId: 'TOP' }, 'TOP')).toEqual(['TOP']);
    // an entry saved before openedId was kept, or with no row at the top
    store.set('receipts-list-scroll:/receipts/ready', JSON.stringify({ address: '/receipts/ready', anchorId: null, anchorTop: 0, scrollY: 0, opened: true }));
    expect(rowsToFocus(readListScroll(storage, '/receipts/ready'), null)).toEqual([]);
    // a fresh visit (the menu, or a later Back to the list): no row is focused
    expect(rowsToFocus({ ...entry, opened: false }, 'LAST')).toEqual([]);
    expect(rowsToFocus(null, 'LAST')).toEqual([]);
  });
});
