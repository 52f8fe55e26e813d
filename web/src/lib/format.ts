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

export function fullName(person: { name?: string | null; surname?: string | null } | null | undefined): string {
  return [person?.name, person?.surname].filter((s): s is string => Boolean(s && s.trim())).join(' ');
}
