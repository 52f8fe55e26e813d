import { describe, expect, it } from 'vitest';
import { SCROLL_ANIMATION_MS, SCROLL_STEP_MS } from '../../../shared/constants';
import { scrollSteps, scrollTargetFor } from '../../../web/src/lib/scroll-animation';

describe('animated scroll', () => {
  it('moves in 20 ms steps over 350 ms, easing in and out, and ends where it was sent', () => {
    expect([SCROLL_ANIMATION_MS, SCROLL_STEP_MS]).toEqual([350, 20]);
    const steps = scrollSteps(0, 1000);
    expect(steps).toHaveLength(18);
    expect(steps.at(-1)).toBe(1000);
    for (let k = 1; k < steps.length; k++) expect(steps[k]!).toBeGreaterThanOrEqual(steps[k - 1]!);
    // slow at both ends, fast in the middle
    expect(steps[0]!).toBeLessThan(1000 / 18);
    expect(steps[9]! - steps[8]!).toBeGreaterThan(steps[1]! - steps[0]!);
    expect(scrollSteps(600, 200).at(-1)).toBe(200);
  });

  it('scrolls only to a place out of view, and then shows it a third of the way down', () => {
    const view = { top: 100, height: 600, scrollTop: 0, scrollHeight: 3000 };
    expect(scrollTargetFor(view, { top: 150, bottom: 180 })).toBeNull();
    // below the view: 1,500 px down the content, shown 200 px under the view's top
    expect(scrollTargetFor(view, { top: 1600, bottom: 1630 })).toBe(1300);
    // above the view, from a scrolled container
    expect(scrollTargetFor({ ...view, scrollTop: 1300 }, { top: 40, bottom: 70 })).toBe(1040);
    // never past the content's ends
    expect(scrollTargetFor(view, { top: 3050, bottom: 3080 })).toBe(2400);
    expect(scrollTargetFor({ ...view, scrollTop: 100 }, { top: 50, bottom: 80 })).toBe(0);
  });
});
