import { formatDate } from '../../../lib/format';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A calendar day 'YYYY-MM-DD' as 'DD MMM YY' (rules.md 9) without a time-zone shift (Date would read it as
 * UTC midnight); other date-times go through formatDate. '' for nothing.
 */
export function formatDay(value: string | null | undefined): string {
  if (!value) return '';
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (m) {
    const month = MONTHS[Number(m[2]) - 1];
    return month ? `${m[3]} ${month} ${m[1]!.slice(2)}` : value;
  }
  return formatDate(value);
}
