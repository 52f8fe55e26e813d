/**
 * The list's date pickers cannot go past today; a tab left open across midnight must be able to pick the new day.
 * Run in a fixed time zone (Europe/Vilnius), whatever the machine's is, with a fake clock.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { inTimeZone } from '../../support/time-zone';
import { msUntilNextDay, watchToday } from '../../../web/src/features/receipts/lib/today';

describe('today of the date pickers across midnight (Europe/Vilnius)', () => {
  inTimeZone('Europe/Vilnius');
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const targets = () => ({ document: new EventTarget(), window: new EventTarget() });

  it('moves to the new day at local midnight, and again the next night', () => {
    // 10 March 2026, 23:59:50 in Vilnius (UTC+2)
    vi.setSystemTime(new Date('2026-03-10T21:59:50.000Z'));
    const days: string[] = [];
    const stop = watchToday(targets(), (d) => days.push(d));
    vi.advanceTimersByTime(9_999);
    expect(days).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(days).toEqual(['2026-03-11']);
    vi.advanceTimersByTime(24 * 3600_000);
    expect(days).toEqual(['2026-03-11', '2026-03-12']);
    stop();
    vi.advanceTimersByTime(48 * 3600_000);
    expect(days).toEqual(['2026-03-11', '2026-03-12']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a computer that slept past midnight (no timer ran) gets the new day when the window is focused or shown', () => {
    vi.setSystemTime(new Date('2026-03-10T20:00:00.000Z'));
    const t = targets();
    const days: string[] = [];
    const stop = watchToday(t, (d) => days.push(d));
    t.window.dispatchEvent(new Event('focus'));
    expect(days).toEqual([]);
    vi.setSystemTime(new Date('2026-03-11T05:00:00.000Z'));
    t.window.dispatchEvent(new Event('focus'));
    expect(days).toEqual(['2026-03-11']);
    vi.setSystemTime(new Date('2026-03-12T05:00:00.000Z'));
    t.document.dispatchEvent(new Event('visibilitychange'));
    expect(days).toEqual(['2026-03-11', '2026-03-12']);
    // the same day again: nothing new
    t.window.dispatchEvent(new Event('focus'));
    expect(days).toHaveLength(2);
    stop();
    vi.setSystemTime(new Date('2026-03-14T05:00:00.000Z'));
    t.window.dispatchEvent(new Event('focus'));
    expect(days).toHaveLength(2);
  });

  it('counts to the local midnight, also on the days the clocks change', () => {
    expect(msUntilNextDay(new Date('2026-03-10T21:59:50.000Z'))).toBe(10_000);
    // 29 March 2026 has 23 hours in Vilnius: from its first moment to the next day's
    expect(msUntilNextDay(new Date('2026-03-28T22:00:00.000Z'))).toBe(23 * 3600_000);
    // 25 October 2026 has 25 hours
    expect(msUntilNextDay(new Date('2026-10-24T21:00:00.000Z'))).toBe(25 * 3600_000);
  });
});
