import { describe, expect, it } from 'vitest';
import { comboboxCommand } from '../../../web/src/components/ui/combobox';
import { trapStep } from '../../../web/src/components/ui/dialog-layer';
import { menuStep } from '../../../web/src/components/ui/menu-button';
import { tabStep } from '../../../web/src/components/ui/tabs';
import { shortcutOf } from '../../../web/src/features/edit-receipt/lib/keyboard';

describe('keyboard use of the web app', () => {
  it('a combobox: ArrowDown opens or moves on, ArrowUp back, Enter chooses the active option, Escape closes; Alt keys are left alone', () => {
    const open = { open: true, count: 3, active: -1 };
    expect(comboboxCommand({ key: 'ArrowDown' }, { ...open, open: false })).toEqual({ kind: 'open' });
    expect(comboboxCommand({ key: 'ArrowDown' }, open)).toEqual({ kind: 'move', active: 0 });
    expect(comboboxCommand({ key: 'ArrowDown' }, { ...open, active: 2 })).toEqual({ kind: 'move', active: 2 });
    expect(comboboxCommand({ key: 'ArrowUp' }, { ...open, active: 2 })).toEqual({ kind: 'move', active: 1 });
    expect(comboboxCommand({ key: 'ArrowUp' }, { ...open, active: 0 })).toEqual({ kind: 'move', active: 0 });
    // Enter chooses only an active option of an open list (otherwise it is the field's)
    expect(comboboxCommand({ key: 'Enter' }, open)).toBeNull();
    expect(comboboxCommand({ key: 'Enter' }, { ...open, active: 1 })).toEqual({ kind: 'choose', index: 1 });
    expect(comboboxCommand({ key: 'Enter' }, { ...open, open: false, active: 1 })).toBeNull();
    expect(comboboxCommand({ key: 'Escape' }, open)).toEqual({ kind: 'close' });
    expect(comboboxCommand({ key: 'Escape' }, { ...open, open: false })).toBeNull();
    expect(comboboxCommand({ key: 'ArrowDown', altKey: true }, open)).toBeNull();
    expect(comboboxCommand({ key: 'a' }, open)).toBeNull();
  });

  it('a dialog keeps Tab inside: from the last control to the first, Shift+Tab from the first to the last, from outside in', () => {
    expect(trapStep(3, 2, false)).toBe(0);
    expect(trapStep(3, 0, true)).toBe(2);
    expect(trapStep(3, 1, false)).toBeNull();
    expect(trapStep(3, 1, true)).toBeNull();
    expect(trapStep(3, -1, false)).toBe(0);
    expect(trapStep(3, -1, true)).toBe(2);
    expect(trapStep(0, -1, false)).toBeNull();
  });

  it('a menu: arrows go round the enabled items, Home and End to the first and last', () => {
    const enabled = [true, false, true, true, false];
    expect(menuStep(enabled, 0, 'ArrowDown')).toBe(2);
    expect(menuStep(enabled, 3, 'ArrowDown')).toBe(0);
    expect(menuStep(enabled, 0, 'ArrowUp')).toBe(3);
    expect(menuStep(enabled, 2, 'ArrowUp')).toBe(0);
    expect(menuStep(enabled, 2, 'Home')).toBe(0);
    expect(menuStep(enabled, 0, 'End')).toBe(3);
    expect(menuStep(enabled, 0, 'Enter')).toBeNull();
    expect(menuStep([false, false], 0, 'ArrowDown')).toBeNull();
  });

  it('tabs: ArrowRight and ArrowLeft go round the tabs, Home and End to the first and last, other keys do nothing', () => {
    expect(tabStep(2, 0, 'ArrowRight')).toBe(1);
    expect(tabStep(2, 1, 'ArrowRight')).toBe(0);
    expect(tabStep(5, 0, 'ArrowLeft')).toBe(4);
    expect(tabStep(5, 3, 'ArrowLeft')).toBe(2);
    expect(tabStep(5, 2, 'Home')).toBe(0);
    expect(tabStep(5, 2, 'End')).toBe(4);
    expect(tabStep(5, 2, 'ArrowDown')).toBeNull();
    expect(tabStep(5, 2, 'Enter')).toBeNull();
    expect(tabStep(0, 0, 'ArrowRight')).toBeNull();
  });

  it("the edit screen's shortcuts wait while a pop-up is open", () => {
    const k = (key: string, code: string, inDialog: boolean) => shortcutOf({ key, code, altKey: true, ctrlKey: false, metaKey: false, shiftKey: false, inField: false, inDialog });
    expect(k('v', 'KeyV', false)).toBe('review');
    expect(k('v', 'KeyV', true)).toBeNull();
    expect(k('Enter', 'Enter', true)).toBeNull();
    expect(k('r', 'KeyR', true)).toBeNull();
    expect(k('h', 'KeyH', true)).toBeNull();
    expect(shortcutOf({ key: 'Escape', altKey: false, ctrlKey: false, metaKey: false, shiftKey: false, inField: false, inDialog: true })).toBeNull();
  });
});
