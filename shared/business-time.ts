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
