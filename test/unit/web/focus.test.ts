import { describe, expect, it } from 'vitest';
import { returnFocusTarget } from '../../../web/src/components/ui/dialog-layer';
import { matchingControl, neighbourOrder } from '../../../web/src/components/ui/focus';
import { popupLifetime } from '../../../web/src/components/ui/InfoPopup';

/** Stand-ins for elements: only their tag is read by returnFocusTarget. */
const el = (tagName: string) => ({ tagName }) as unknown as HTMLElement;

describe('where the focus goes when its control goes', () => {
  it('a removed item: the following items first, nearest first, then the preceding ones', () => {
    expect(neighbourOrder(5, 2)).toEqual([3, 4, 1, 0]);
    expect(neighbourOrder(3, 2)).toEqual([1, 0]);
    expect(neighbourOrder(1, 0)).toEqual([]);
  });

  it('in the neighbour item: the control of the same name, else the one at the same place (clamped), else none', () => {
    expect(matchingControl(['Move up', 'Move down', 'Delete row'], 'Delete row', 0)).toBe(2);
    expect(matchingControl(['Edit Beta', 'Delete Beta'], 'Delete Alpha', 1)).toBe(1);
    expect(matchingControl(['Send Again'], 'Cancel Invitation', 1)).toBe(0);
    expect(matchingControl([], 'Delete row', 0)).toBeNull();
    expect(matchingControl(['A'], null, -1)).toBeNull();
  });

  it('a dialog closing: the given target, else the control that opened it if it can take the focus, else the fallback', () => {
    const given = el('BUTTON');
    const trigger = el('BUTTON');
    const title = el('H1');
    const can = (x: HTMLElement | null | undefined) => x === given || x === trigger;
    expect(returnFocusTarget(given, trigger, () => title, can)).toBe(given);
    expect(returnFocusTarget(null, trigger, () => title, can)).toBe(trigger);
    // the trigger disabled or gone: the page title, not <body>
    expect(returnFocusTarget(null, trigger, () => title, () => false)).toBe(title);
    expect(returnFocusTarget(undefined, el('BODY'), () => title, () => true)).toBe(title);
  });

  it('every pop-up lasts 3 s when nothing holds it, an error one too', () => {
    expect(popupLifetime('info')).toBe(3000);
    expect(popupLifetime('success')).toBe(3000);
    expect(popupLifetime('error')).toBe(3000);
  });
});
