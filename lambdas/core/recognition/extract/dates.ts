import type { DateFormat } from '../types';
import { foldDiacritics } from './text';

/** Order of day, month and year in a numeric date. */
export type DateOrder = 'DMY' | 'MDY' | 'YMD';

export interface DateMatch {
  /** YYYY-MM-DD */
  iso: string;
  /** The text as printed. */
  raw: string;
  index: number;
  /** Order the numbers were read in; absent for dates with a month name. */
  order?: DateOrder;
  /** True when day and month could be swapped and the order came from a preference. */
  ambiguous: boolean;
  /** True when the month is written as a word. */
  monthName: boolean;
  /** True when the year has four digits and the date is complete. */
  fullYear: boolean;
}

export interface DateOptions {
  /** Known date format of the issuer; decides ambiguous numeric dates. */
  format?: DateFormat;
  /** Order used for ambiguous numeric dates when no format is known (default DMY). */
  defaultOrder?: 'DMY' | 'MDY';
}

const MONTHS: [number, string[]][] = [
  [1, ['january', 'jan', 'januari', 'sausis', 'sausio', 'saus', 'janvier', 'janv', 'januar', 'enero']],
  [2, ['february', 'feb', 'februari', 'vasaris', 'vasario', 'vas', 'fevrier', 'fev', 'februar', 'febrero']],
  [3, ['march', 'mar', 'mac', 'kovas', 'kovo', 'kov', 'mars', 'marz', 'maerz', 'marzo']],
  [4, ['april', 'apr', 'balandis', 'balandzio', 'bal', 'avril', 'avr', 'abril']],
  [5, ['may', 'mei', 'geguze', 'geguzes', 'geg', 'mai', 'mayo']],
  [6, ['june', 'jun', 'birzelis', 'birzelio', 'birz', 'juin', 'juni', 'junio']],
  [7, ['july', 'jul', 'julai', 'liepa', 'liepos', 'liep', 'juillet', 'juil', 'juli', 'julio']],
  [8, ['august', 'aug', 'ogos', 'rugpjutis', 'rugpjucio', 'rugp', 'aout', 'agosto']],
  [9, ['september', 'sep', 'sept', 'rugsejis', 'rugsejo', 'rugs', 'septembre', 'septiembre']],
  [10, ['october', 'oct', 'oktober', 'okt', 'spalis', 'spalio', 'spal', 'octobre', 'octubre']],
  [11, ['november', 'nov', 'lapkritis', 'lapkricio', 'lapkr', 'lap', 'novembre', 'noviembre']],
  [12, ['december', 'dec', 'disember', 'dis', 'gruodis', 'gruodzio', 'gruod', 'decembre', 'dezember', 'dez', 'diciembre']],
];
const MONTH_BY_NAME = new Map<string, number>();
for (const [n, names] of MONTHS) for (const name of names) MONTH_BY_NAME.set(name, n);

export function monthFromName(word: string): number | undefined {
  const w = foldDiacritics(word).toLowerCase().replace(/^0/, 'o').replace(/[^a-z]/g, '');
  return MONTH_BY_NAME.get(w);
}

function pad(n: number, len = 2): string {
  return String(n).padStart(len, '0');
}

function fullYear(y: number, digits: number): number {
  if (digits >= 4) return y;
  return y < 70 ? 2000 + y : 1900 + y;
}

export function isValidDate(y: number, m: number, d: number): boolean {
  if (y < 1990 || y > 2100 || m < 1 || m > 12 || d < 1) return false;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return d <= days;
}

export function toIso(y: number, m: number, d: number): string {
  return `${pad(y, 4)}-${pad(m)}-${pad(d)}`;
}

function orderFromFormat(format: DateFormat | undefined): DateOrder | undefined {
  switch (format) {
    case 'MM/DD/YYYY':
      return 'MDY';
    case 'DD/MM/YYYY':
      return 'DMY';
    case 'YYYY-MM-DD':
    case 'YYYY/MM/DD':
      return 'YMD';
    default:
      return undefined;
  }
}

/** The product's date format that corresponds to a printed date. */
export function formatOfMatch(m: DateMatch): DateFormat | undefined {
  if (m.order === 'YMD') return /\//.test(m.raw) ? 'YYYY/MM/DD' : 'YYYY-MM-DD';
  if (m.order === 'MDY') return 'MM/DD/YYYY';
  if (m.order === 'DMY') return 'DD/MM/YYYY';
  return undefined;
}

// A month name; its first letter O may be read as a zero ("10 0CT 2017").
const MONTH_WORD = '((?:[A-Za-zÀ-ž]|0(?=[A-Za-z]{2}))[A-Za-zÀ-ž]{2,11})\\.?';
// A four-digit year the OCR ran into the time that follows it: "2018" in "25/12/20188:13:39".
const YEAR_INTO_TIME = '\\d{4}(?=\\d{1,2}[:.]\\d\\d(?!\\d))';
// 25/12/2018, 25-12-18, 2018.12.25, 25 / 12 / 2018, 25/12/20188:13:39
const NUMERIC = new RegExp(`(?<![\\p{L}\\d.,/-])(\\d{1,4})(?:([/.\\-])(\\d{1,2})\\2|\\s?([/.])\\s?(\\d{1,2})\\s?\\4\\s?)(${YEAR_INTO_TIME}|\\d{2,4}(?![\\d/]))`, 'gu');
// 25 Dec 2018, 25-DEC-18, 25th December, 2018, 05 MAR 2018, 05Mar 201818:24
const DAY_MONTH_YEAR = new RegExp(`(?<![\\p{L}\\d])(\\d{1,2})(?:st|nd|rd|th)?[\\s\\-/.]{0,3}${MONTH_WORD}[\\s\\-/.,']{0,3}(${YEAR_INTO_TIME}|\\d{4}(?!\\d)|\\d{2}(?!\\d))`, 'gu');
// Dec 25, 2018 / December 25 2018
const MONTH_DAY_YEAR = new RegExp(`${MONTH_WORD}\\s{0,2}(\\d{1,2})(?:st|nd|rd|th)?,?\\s{0,2}(\\d{4})(?!\\d)`, 'g');
// 2018 m. gruodžio 25 d. / 2018 Dec 25
const YEAR_MONTH_DAY = new RegExp(`(?<!\\d)(\\d{4})\\s*(?:m\\.?)?\\s*${MONTH_WORD}\\s*(\\d{1,2})(?:\\s*d\\.?)?(?!\\d)`, 'g');

/**
 * Finds every date in a text. Numeric dates whose day and month could be swapped are read with the
 * known format, else with `defaultOrder` (day first unless told otherwise), and marked ambiguous.
 */
export function findDates(text: string, opts: DateOptions = {}): DateMatch[] {
  const out: DateMatch[] = [];
  const preferred = orderFromFormat(opts.format);
  const fallback: DateOrder = preferred ?? opts.defaultOrder ?? 'DMY';

  for (const m of text.matchAll(NUMERIC)) {
    const [raw, a, , b1, , b2, c] = m;
    const b = b1 ?? b2;
    const la = a!.length;
    const lc = c!.length;
    const na = Number(a);
    const nb = Number(b);
    const nc = Number(c);
    // "21/05/2018TIME" is a date; "12/05/18PCS" is more likely a code.
    const nextChar = text[m.index + raw.length] ?? '';
    if (/\p{L}/u.test(nextChar) && c!.length !== 4) continue;
    let found: { y: number; mo: number; d: number; order: DateOrder; ambiguous: boolean } | undefined;
    if (la === 4 && lc <= 2) {
      if (isValidDate(na, nb, nc)) found = { y: na, mo: nb, d: nc, order: 'YMD', ambiguous: false };
    } else if (la <= 2 && (lc === 4 || lc === 2)) {
      const y = fullYear(nc, lc);
      const dmy = isValidDate(y, nb, na);
      const mdy = isValidDate(y, na, nb);
      if (dmy && mdy && na !== nb) {
        const order = fallback === 'MDY' ? 'MDY' : 'DMY';
        // A known day-first or month-first format settles the order; else the date stays ambiguous.
        const ambiguous = preferred !== 'DMY' && preferred !== 'MDY';
        found = order === 'DMY' ? { y, mo: nb, d: na, order, ambiguous } : { y, mo: na, d: nb, order, ambiguous };
      } else if (dmy) found = { y, mo: nb, d: na, order: 'DMY', ambiguous: false };
      else if (mdy) found = { y, mo: na, d: nb, order: 'MDY', ambiguous: false };
    } else if (la === 2 && lc === 2 && preferred === 'YMD') {
      const y = fullYear(na, 2);
      if (isValidDate(y, nb, nc)) found = { y, mo: nb, d: nc, order: 'YMD', ambiguous: false };
    }
    if (found) {
      out.push({
        iso: toIso(found.y, found.mo, found.d),
        raw,
        index: m.index,
        order: found.order,
        ambiguous: found.ambiguous,
        monthName: false,
        fullYear: la === 4 || lc === 4,
      });
    }
  }

  const pushNamed = (raw: string, index: number, y: number, yDigits: number, mo: number | undefined, d: number) => {
    if (mo === undefined) return;
    const year = fullYear(y, yDigits);
    if (!isValidDate(year, mo, d)) return;
    if (out.some((o) => index < o.index + o.raw.length && o.index < index + raw.length)) return;
    out.push({ iso: toIso(year, mo, d), raw, index, ambiguous: false, monthName: true, fullYear: yDigits === 4 });
  };
  for (const m of text.matchAll(YEAR_MONTH_DAY)) {
    pushNamed(m[0], m.index, Number(m[1]), 4, monthFromName(m[2]!), Number(m[3]));
  }
  for (const m of text.matchAll(DAY_MONTH_YEAR)) {
    pushNamed(m[0], m.index, Number(m[3]), m[3]!.length, monthFromName(m[2]!), Number(m[1]));
  }
  for (const m of text.matchAll(MONTH_DAY_YEAR)) {
    pushNamed(m[0], m.index, Number(m[3]), 4, monthFromName(m[1]!), Number(m[2]));
  }
  return out.sort((x, y) => x.index - y.index);
}

/** Reads one date from a text (the first found), as YYYY-MM-DD. */
export function parseDate(text: string, opts: DateOptions = {}): string | undefined {
  return findDates(text, opts)[0]?.iso;
}
