/**
 * The calendar the product's companies keep their books by: Lithuanian time. A month of the document quota, the
 * month folder of an export and "this month" on the screens turn at midnight in Vilnius, not at midnight UTC (two or
 * three hours later), so an upload at 01:30 on the 1st counts in the new month as the bookkeeper expects.
 */
export const BUSINESS_TIME_ZONE = 'Europe/Vilnius';

const parts = new Intl.DateTimeFormat('en-CA', { timeZone: BUSINESS_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });

/** The date in the business calendar, `YYYY-MM-DD`. */
export function businessDate(at: Date): string {
  const p = Object.fromEntries(parts.formatToParts(at).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day}`;
}

/** The month in the business calendar, `YYYY-MM`. */
export function businessMonth(at: Date): string {
  return businessDate(at).slice(0, 7);
}

/**
 * The moment a month of the business calendar begins (midnight of its 1st in Vilnius), as a Date: the first quarter
 * hour from 14 hours before midnight UTC of the 1st that is in that month (time zones are whole quarter hours).
 */
export function businessMonthStart(month: string): Date {
  const [year, mon] = month.split('-').map(Number);
  const quarter = 15 * 60_000;
  let at = Date.UTC(year, mon - 1, 1) - LATEST_UTC_OFFSET_HOURS * 3_600_000;
  while (businessMonth(new Date(at)) !== month) at += quarter;
  return new Date(at);
}

/** The moment a month of the business calendar ends: the start of the next one. */
export function businessMonthEnd(month: string): Date {
  const [year, mon] = month.split('-').map(Number);
  return businessMonthStart(mon === 12 ? `${year + 1}-01` : `${year}-${String(mon + 1).padStart(2, '0')}`);
}

/** The latest time zone on earth: UTC+14 (Kiribati's Line Islands). */
export const LATEST_UTC_OFFSET_HOURS = 14;

/**
 * The latest date anywhere on earth at a moment, `YYYY-MM-DD`: the date at UTC+14. A document dated today wherever it
 * was written (a Lithuanian receipt of 01:30, while it is still yesterday in UTC, or one from anywhere east of UTC) is
 * dated on or before it, so one rule holds for every company wherever it is: a date is in the future only after it.
 */
export function latestDateOnEarth(at: Date): string {
  return new Date(at.getTime() + LATEST_UTC_OFFSET_HOURS * 3_600_000).toISOString().slice(0, 10);
}

/** `count` months of the calendar ending with `month` (`YYYY-MM`), newest first: `monthsUpTo('2026-02', 3)` is 2026-02, 2026-01, 2025-12. */
export function monthsUpTo(month: string, count: number): string[] {
  const [year, mon] = month.split('-').map(Number);
  const months: string[] = [];
  for (let i = 0; i < count; i++) {
    const index = year * 12 + (mon - 1) - i;
    months.push(`${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`);
  }
  return months;
}
