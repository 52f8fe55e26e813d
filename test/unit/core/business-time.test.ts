import { describe, expect, it } from 'vitest';
import { monthOf } from '../../../lambdas/core/accounts/companies';
import { businessDate, businessMonth, businessMonthEnd, businessMonthStart, latestDateOnEarth, monthsUpTo } from '../../../shared/business-time';

describe('the business calendar (Vilnius time)', () => {
  it('turns the day and the month at midnight in Vilnius, winter (UTC+2) and summer (UTC+3)', () => {
    expect(businessDate(new Date('2025-02-28T21:59:59Z'))).toBe('2025-02-28');
    expect(businessDate(new Date('2025-02-28T22:00:00Z'))).toBe('2025-03-01');
    expect(businessMonth(new Date('2025-03-31T20:59:59Z'))).toBe('2025-03');
    expect(businessMonth(new Date('2025-03-31T21:00:00Z'))).toBe('2025-04');
    expect(businessMonth(new Date('2025-12-31T22:30:00Z'))).toBe('2026-01');
  });

  it('counts an upload at 01:30 on the 1st (Vilnius) in the new quota month', () => {
    // 23:30 UTC on 28 February is 01:30 on 1 March in Vilnius
    expect(monthOf(new Date('2025-02-28T23:30:00Z'))).toBe('2025-03');
    expect(monthOf(new Date('2025-07-15T12:00:00Z'))).toBe('2025-07');
  });
});

describe('dates in the future (after today in the latest time zone on earth, UTC+14)', () => {
  it('is not the next day of UTC while that day has begun somewhere: at 23:30 UTC on 1 March, 2 March is not in the future, 3 March is', () => {
    const at = new Date('2026-03-01T23:30:00Z');
    expect(latestDateOnEarth(at)).toBe('2026-03-02');
    expect('2026-03-02' > latestDateOnEarth(at)).toBe(false);
    expect('2026-03-03' > latestDateOnEarth(at)).toBe(true);
  });

  it('turns at 10:00 UTC, midnight at UTC+14', () => {
    expect(latestDateOnEarth(new Date('2026-03-01T09:59:59Z'))).toBe('2026-03-01');
    expect(latestDateOnEarth(new Date('2026-03-01T10:00:00Z'))).toBe('2026-03-02');
    // Over a year's end too.
    expect(latestDateOnEarth(new Date('2025-12-31T10:00:00Z'))).toBe('2026-01-01');
  });

  it('counts months back over a year’s end', () => {
    expect(monthsUpTo('2026-02', 3)).toEqual(['2026-02', '2026-01', '2025-12']);
    expect(monthsUpTo('2026-12', 1)).toEqual(['2026-12']);
    expect(monthsUpTo('2026-11', 12).at(-1)).toBe('2025-12');
  });

  it('a month begins at midnight of its 1st in Vilnius and ends when the next begins, over the year end too', () => {
    expect(businessMonthStart('2025-03').toISOString()).toBe('2025-02-28T22:00:00.000Z');
    expect(businessMonthStart('2025-04').toISOString()).toBe('2025-03-31T21:00:00.000Z');
    expect(businessMonthEnd('2025-03').toISOString()).toBe('2025-03-31T21:00:00.000Z');
    expect(businessMonthEnd('2025-12').toISOString()).toBe('2025-12-31T22:00:00.000Z');
    expect(businessMonth(new Date(businessMonthEnd('2025-12').getTime() - 1))).toBe('2025-12');
  });
});
