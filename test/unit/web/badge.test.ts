import { describe, expect, it } from 'vitest';
import { formatBadge, menuCounts, MENU_STATUSES } from '../../../web/src/lib/badge';
import type { Company, StatusCounts } from '../../../shared/schemas/company';

const zero: StatusCounts = {
  processing: 0,
  archive: 0,
  error: 0,
  review: 0,
  ready: 0,
  unassigned: 0,
  converting: 0,
  rejected: 0,
  saving: 0,
  failed: 0,
};
const counts = (receipt: Partial<StatusCounts>, invoice: Partial<StatusCounts> = {}): Company['counts'] => ({
  receipt: { ...zero, ...receipt },
  invoice: { ...zero, ...invoice },
});

describe('formatBadge', () => {
  it('shows the number up to the cap', () => {
    expect(formatBadge(0)).toEqual({ text: '0', title: '0' });
    expect(formatBadge(42)).toEqual({ text: '42', title: '42' });
    expect(formatBadge(999)).toEqual({ text: '999', title: '999' });
  });

  it('shows 999+ above the cap with the full total in the tooltip', () => {
    expect(formatBadge(1000)).toEqual({ text: '999+', title: '1000' });
    expect(formatBadge(123456)).toEqual({ text: '999+', title: '123456' });
  });

  it('treats negative and non-finite totals as zero', () => {
    expect(formatBadge(-3).text).toBe('0');
    expect(formatBadge(Number.NaN).text).toBe('0');
  });

  it('accepts another cap', () => {
    expect(formatBadge(11, 9)).toEqual({ text: '9+', title: '11' });
  });
});

describe('menuCounts', () => {
  it('sums receipts and invoices per status', () => {
    const result = menuCounts([counts({ review: 2, ready: 1, failed: 1 }, { review: 3, rejected: 4 })]);
    expect(result.review).toBe(5);
    expect(result.ready).toBe(1);
    expect(result.rejected).toBe(4);
    expect(result.failed).toBe(1);
    expect(result.saving).toBe(0);
  });

  it('counts every document but the unassigned ones in the inbox', () => {
    const result = menuCounts([counts({ review: 2, archive: 10, unassigned: 7, converting: 1 }, { ready: 3, unassigned: 5 })]);
    expect(result.inbox).toBe(16);
    expect(result.unassigned).toBe(12);
  });

  it('adds up several companies (all-companies view)', () => {
    const result = menuCounts([counts({ review: 600 }), counts({ review: 500 }, { review: 1 })]);
    expect(result.review).toBe(1101);
    expect(formatBadge(result.review)).toEqual({ text: '999+', title: '1101' });
  });

  it('gives zeros for no companies and tolerates missing counts', () => {
    const empty = menuCounts([]);
    expect(MENU_STATUSES.every((s) => empty[s] === 0)).toBe(true);
    const partial = menuCounts([undefined, { receipt: { review: 2 } } as unknown as Company['counts']]);
    expect(partial.review).toBe(2);
    expect(partial.inbox).toBe(2);
  });
});
