/**
 * The list's upload-date range is of the browser's local calendar days (the list shows created_at in local time), so
 * GET /receipts gets each picked day's first and last millisecond as instants; an issue-date range stays plain days.
 * Run in a fixed time zone (Europe/Vilnius: UTC+2 in winter, UTC+3 in summer), whatever the machine's is.
 */
import { describe, expect, it } from 'vitest';
import { inTimeZone } from '../../support/time-zone';
import { EMPTY_FILTERS, listQuery, localDayBounds } from '../../../web/src/features/receipts/lib/list-params';
import { walkQuery, type ListContext } from '../../../web/src/features/edit-receipt/lib/navigation';

const scope = { kind: 'company', companyId: 'c1' } as const;
const range = (dateFrom: string, dateTo: string, byIssueDate = false) => ({ ...EMPTY_FILTERS, dateFrom, dateTo, byIssueDate });

describe('upload-date range in the browser time zone (Europe/Vilnius)', () => {
  inTimeZone('Europe/Vilnius');

  it('sends a picked day as its local first and last millisecond', () => {
    // 10 March 2026 in Vilnius is 2026-03-09T22:00Z … 2026-03-10T21:59:59.999Z (UTC+2).
    const q = listQuery('inbox', range('2026-03-10', '2026-03-10'), scope);
    expect(q.created_at_after).toBe('2026-03-09T22:00:00.000Z');
    expect(q.created_at_before).toBe('2026-03-10T21:59:59.999Z');
    expect(q.by_issue_date).toBeUndefined();
    // A document uploaded 2026-03-09T23:30Z (10 Mar 01:30 local) is in the day; one of 2026-03-10T22:30Z (11 Mar 00:30) is not.
    expect('2026-03-09T23:30:00.000Z' >= String(q.created_at_after) && '2026-03-09T23:30:00.000Z' <= String(q.created_at_before)).toBe(true);
    expect('2026-03-10T22:30:00.000Z' <= String(q.created_at_before)).toBe(false);
  });

  it('follows summer time and the days when the clocks change', () => {
    expect(localDayBounds('2026-07-01')).toEqual({ start: '2026-06-30T21:00:00.000Z', end: '2026-07-01T20:59:59.999Z' });
    // 29 March 2026: 03:00 becomes 04:00, a day of 23 hours; 25 October 2026: 04:00 becomes 03:00, 25 hours.
    expect(localDayBounds('2026-03-29')).toEqual({ start: '2026-03-28T22:00:00.000Z', end: '2026-03-29T20:59:59.999Z' });
    expect(localDayBounds('2026-10-25')).toEqual({ start: '2026-10-24T21:00:00.000Z', end: '2026-10-25T21:59:59.999Z' });
    expect(localDayBounds('2026-02-30')).toBeUndefined();
    expect(localDayBounds('garbage')).toBeUndefined();
    const q = listQuery('ready', range('2026-03-01', '2026-03-31'), { kind: 'all' });
    expect(q).toMatchObject({ created_at_after: '2026-02-28T22:00:00.000Z', created_at_before: '2026-03-31T20:59:59.999Z', selected: 'ALL' });
  });

  it('keeps an issue-date range as plain days', () => {
    const q = listQuery('inbox', range('2026-03-10', '2026-03-12', true), scope);
    expect(q).toMatchObject({ by_issue_date: 'true', created_at_after: '2026-03-10', created_at_before: '2026-03-12' });
  });

  it('meets the edit screen walk windows at the local day bounds', () => {
    const ctx: ListContext = { inbox: true, status: 'review', receiptType: 'receipt', filters: range('2026-03-10', '2026-03-10') };
    // A window wider than the day: the day bounds win.
    expect(walkQuery(scope, ctx, { created_at_after: '2026-03-09T00:00:00.000Z', created_at_before: '2026-03-12T00:00:00.000Z', limit: 50 })).toMatchObject({
      created_at_after: '2026-03-09T22:00:00.000Z',
      created_at_before: '2026-03-10T21:59:59.999Z',
    });
    // A window inside the day: the window wins.
    expect(walkQuery(scope, ctx, { created_at_after: '2026-03-09T23:00:00.000Z', created_at_before: '2026-03-10T01:00:00.000Z', limit: 50 })).toMatchObject({
      created_at_after: '2026-03-09T23:00:00.000Z',
      created_at_before: '2026-03-10T01:00:00.000Z',
    });
    // A window after the local day (its UTC date is still 10 March): nothing to read.
    expect(walkQuery(scope, ctx, { created_at_after: '2026-03-10T22:30:00.000Z', limit: 50 })).toBeNull();
  });
});
