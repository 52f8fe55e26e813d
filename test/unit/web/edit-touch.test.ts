import { describe, expect, it } from 'vitest';
import { nextZoom, ZOOM_STEPS } from '../../../web/src/features/edit-receipt/lib/media';
import { hasWordIn } from '../../../web/src/features/edit-receipt/lib/pick';

describe('edit screen: an area drawn on the page', () => {
  const word = { left: 0.5, top: 0.5, width: 0.1, height: 0.02 };
  it('holds a word whose centre is inside it, as the server reads areas', () => {
    expect(hasWordIn([word], { left: 0.52, top: 0.49, width: 0.05, height: 0.03 })).toBe(true);
    expect(hasWordIn([word], { left: 0.4, top: 0.4, width: 0.3, height: 0.3 })).toBe(true);
  });
  it('holds none when it only touches a word or lies beside it (the field is then not emptied)', () => {
    expect(hasWordIn([word], { left: 0.5, top: 0.5, width: 0.04, height: 0.02 })).toBe(false);
    expect(hasWordIn([word], { left: 0.1, top: 0.1, width: 0.2, height: 0.2 })).toBe(false);
    expect(hasWordIn([], { left: 0, top: 0, width: 1, height: 1 })).toBe(false);
  });
});

describe('edit screen: the page zoom', () => {
  it('steps through the zoom levels and stops at both ends', () => {
    expect(nextZoom(1, 1)).toBe(1.5);
    expect(nextZoom(1.5, 1)).toBe(2);
    expect(nextZoom(3, 1)).toBe(3);
    expect(nextZoom(2, -1)).toBe(1.5);
    expect(nextZoom(1, -1)).toBe(1);
    expect(ZOOM_STEPS[0]).toBe(1);
  });
});
