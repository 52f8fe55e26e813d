import { describe, expect, it } from 'vitest';
import { monthOf } from '../../../lambdas/core/accounts/companies';
import { businessDate, businessMonth } from '../../../shared/business-time';

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
