const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** 'DD MMM YY' (rules.md 9), local time; '' for a missing or unparseable date. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${pad(d.getDate())} ${MONTHS[d.getMonth()]} ${pad(d.getFullYear() % 100)}`;
}

/** 'DD MMM YY HH:mm' (rules.md 9). */
export function formatDateTime(iso: string | null | undefined): string {
  const date = formatDate(iso);
  if (!date || !iso) return '';
  const d = new Date(iso);
  return `${date} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** A month of the calendar, `YYYY-MM`, as 'November 2026'; anything else as it is. */
export function formatMonth(month: string): string {
  const m = /^(\d{4})-(\d{2})$/.exec(month);
  const name = m ? MONTH_NAMES[Number(m[2]) - 1] : undefined;
  return m && name ? `${name} ${m[1]}` : month;
}

export function fullName(person: { name?: string | null; surname?: string | null } | null | undefined): string {
  return [person?.name, person?.surname].filter((s): s is string => Boolean(s && s.trim())).join(' ');
}
