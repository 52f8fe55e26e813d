import { fixDigits } from './text';

/** Money amounts as printed: 1,234.56 / 1.234,56 / 1 234,56 / RM8.60 / RM.8.60 / $8.20 / -0.02 / 15.56SR / (3.00). */

export interface AmountMatch {
  value: number;
  raw: string;
  index: number;
  /** Number of decimals printed (2 for 9.00, 0 for 9). */
  decimals: number;
  /** Currency printed with the amount, ISO code. */
  currency?: string;
}

const CURRENCY_SYMBOLS: Record<string, string> = {
  '€': 'EUR',
  $: 'USD',
  '£': 'GBP',
  zł: 'PLN',
  RM: 'MYR',
  EUR: 'EUR',
  USD: 'USD',
  GBP: 'GBP',
  PLN: 'PLN',
  MYR: 'MYR',
  SEK: 'SEK',
  NOK: 'NOK',
  DKK: 'DKK',
  CHF: 'CHF',
  CZK: 'CZK',
  HUF: 'HUF',
  RON: 'RON',
  BGN: 'BGN',
  SGD: 'SGD',
  Eur: 'EUR',
  eur: 'EUR',
};

/**
 * An amount token: optional sign / parenthesis, optional currency before, digits with thousands
 * separators, a decimal part, optional currency or tax code after.
 */
const AMOUNT =
  /(?<![\d.,])(\(?-?\s?)(?:(€|\$|£|RM|EUR|USD|GBP|PLN|MYR|SEK|NOK|DKK|CHF|CZK|SGD|Eur)\.?)?\s?(-?)([1-9]\d{0,2}(?:[ ,.'\u00a0]\d{3})+|\d+)(?:([.,])(\d{1,4}))?(?![\d])(\s?(?:€|EUR|Eur|eur|USD|zł|PLN|RM)\b|\s?€)?(-?\)?)/g;

/**
 * An amount with letters read for some of its digits ("1O.00", "l5.90", "RM2B.50", "1b.90"): a word of digits and letters
 * that look like digits, with a decimal point and two decimals, mostly digits. Not an S in front, which is as
 * often a dollar sign ("S8.20" is $8.20). Letters and digits swap one for one, so positions in the text stay.
 */
const MISREAD_AMOUNT = /(?<![\p{L}\d.,])((?:RM|\$|€)?)([\dOoIlBZbg|][\dOoIlSBZbg|]{0,5}[.,][\dOoIlSBZbg|]{2})(?![\p{L}\d.,])/gu;

/**
 * A unit of measure printed right after a number ("0.75L", "30CM*7.62M", "1.50KG"): the number is a size in an
 * item's name, not money. Only glued to the number: "12.50 L" can be a price and a tax class; a unit written out is
 * one after a space too ("35.10 LITRE PUMP # 02", "1.250 KG"). Where numbers are asked for without decimals (a
 * quantity cell, "2.5KG" weighed), a number with its unit stays.
 */
const MEASURE_AFTER = /^(?:mm|cm|m|km|mg|g|kg|ml|cl|l|ltr|lb|lbs|oz)(?![\p{L}\d])|^\s(?:litres?|liters?|ltrs?|kgs?)(?![\p{L}\d])/iu;

/** A clock's time after the number: "7.30AM-6.00PM" (opening hours), "6.05 PM", no amounts. */
const TIME_MARK_AFTER = /^\s?(?:am|pm|a\.m\.|p\.m\.)(?![\p{L}\d])/iu;

function toNumber(intPart: string, decPart: string | undefined): number | undefined {
  const intDigits = intPart.replace(/[ ,.'\u00a0]/g, '');
  if (!/^\d+$/.test(intDigits)) return undefined;
  const v = Number(decPart !== undefined ? `${intDigits}.${decPart}` : intDigits);
  return Number.isFinite(v) ? v : undefined;
}

/**
 * Digits grouped by single spaces before a decimal point, the first group of one to three digits and every other of
 * three, are one number where a currency is printed with them ("EUR 15 100.80", "15 100.80 EUR"), as they are before
 * a decimal comma ("1 234,56"). Without a currency a till's count and amount read the same ("2 100.80": two at
 * 100.80), and the amount is the last group. Not where more digits run before it ("1 2 100.80").
 */
function spaceGrouped(text: string, start: number, intPart: string, decSep: string | undefined, withCurrency: boolean): boolean {
  if (!withCurrency || decSep !== '.' || !/^\d{1,3}(?:[ \u00a0]\d{3})+$/.test(intPart)) return false;
  return !/\d[ \u00a0]$/.test(text.slice(0, start));
}

/**
 * Finds amounts in a text. With `requireDecimals` (the default) only amounts with a decimal part
 * count, which leaves out quantities, codes and phone numbers.
 */
export function findAmounts(text: string, opts: { requireDecimals?: boolean } = {}): AmountMatch[] {
  const requireDecimals = opts.requireDecimals ?? true;
  const out: AmountMatch[] = [];
  text = text.replace(MISREAD_AMOUNT, (all, cur: string, amount: string) => cur + fixDigits(amount));
  for (const m of text.matchAll(AMOUNT)) {
    const [raw, pre, curBefore, minus, intPart, decSep, decPart, curAfter, post] = m;
    let ip = intPart!;
    let ds: string | undefined = decSep;
    let dp: string | undefined = decPart;
    let shift = 0;
    // Spaces group thousands before a decimal comma (1 234,56), or a decimal point with a currency (EUR 15 100.80); a
    // count before an amount ("3 210.00", "*4 252.00") or numbers without decimals ("3 210") are columns, the amount
    // the last.
    if (/[ \u00a0]/.test(ip) && ds !== ',' && !spaceGrouped(text, m.index + raw.indexOf(ip), ip, ds, !!(curBefore || curAfter))) {
      const lastGroup = ip.split(/[ \u00a0]/).pop()!;
      shift = raw.indexOf(ip) + ip.length - lastGroup.length;
      ip = lastGroup;
    }
    // "1.234" alone matched as a group of thousands is a point and three decimals, taken as such below.
    if (!ds && /^[1-9]\d{0,2}\.\d{3}$/.test(ip)) [ip, ds, dp] = [ip.slice(0, ip.indexOf('.')), '.', ip.slice(ip.indexOf('.') + 1)];
    // "1,234" without decimals: a thousands group; "12,50": a decimal comma.
    if (ds && dp && dp.length === 3 && !/[ ,.'\u00a0]/.test(ip)) {
      // 1,234 or 1.234 alone is ambiguous; outside amount search, "1,234" reads as thousands and
      // "1.234" (or "0,125") as a decimal quantity.
      if (requireDecimals) continue;
      if (ds === ',' && ip !== '0') {
        ip = `${ip}${dp}`;
        ds = undefined;
        dp = undefined;
      }
    }
    // A grouping separator equal to the decimal separator is no valid amount (1.23.45, 1.234.567.89), except one
    // group of thousands before two decimals: the reading took one mark for the other ("2.305.80" printed "2,305.80").
    if (ds && /[ ,.'\u00a0]/.test(ip) && ip.includes(ds)) {
      if (!(/^\d{1,3}[.,]\d{3}$/.test(ip) && dp?.length === 2)) continue;
      ip = ip.replace(/[.,]/, '');
    }
    // "RM.50": a currency, its full stop and two digits are cents without the leading zero (as ".50" alone is).
    if (curBefore && ds === undefined && ip.length === 2 && raw.slice(raw.indexOf(curBefore) + curBefore.length).replace(/\s/g, '').startsWith(`.${ip}`)) {
      dp = ip;
      ip = '0';
      ds = '.';
    }
    if (requireDecimals && (dp === undefined || dp.length < 2)) continue;
    const after = text.slice(m.index + raw.length);
    if (requireDecimals && !curBefore && !curAfter && !post && MEASURE_AFTER.test(after)) continue;
    // A number of hours and minutes before AM or PM is a time of day.
    if (!curBefore && !curAfter && ds && Number(ip) <= 12 && Number(dp) < 60 && TIME_MARK_AFTER.test(after)) continue;
    // Joined by a hyphen to more digits it is a code or a range ("2.2012-0011"), not an amount with a minus after it.
    if (post === '-' && /^\d/.test(after)) continue;
    const value = toNumber(ip, dp);
    if (value === undefined) continue;
    const negative = /-/.test(pre ?? '') || minus === '-' || /-/.test(post ?? '') || (/\(/.test(pre ?? '') && /\)/.test(post ?? ''));
    const cur = (curBefore ?? curAfter ?? '').trim();
    const currency = cur ? CURRENCY_SYMBOLS[cur] : undefined;
    const shown = shift ? raw.slice(shift) : raw;
    out.push({
      value: negative && !shift ? -value : value,
      raw: shown.trim(),
      index: m.index + shift + (shown.length - shown.trimStart().length),
      decimals: dp?.length ?? 0,
      ...(currency ? { currency } : {}),
    });
  }
  // OCR puts a space after the decimal point: "RM20. 40" (only with a currency in front, to be sure).
  for (const m of text.matchAll(/(?<![\p{L}\d])(RM|\$|€|EUR)\s?(\d{1,6})\.\s(\d{2})(?![\d.,])/gu)) {
    if (out.some((o) => m.index >= o.index && m.index < o.index + o.raw.length + 3)) continue;
    out.push({ value: Number(`${m[2]}.${m[3]}`), raw: m[0], index: m.index, decimals: 2, currency: CURRENCY_SYMBOLS[m[1]!]! });
  }
  // Amounts printed without the leading zero: "-.02", ".50".
  for (const m of text.matchAll(/(?<![\d.,\p{L}])(-?)\.(\d{2})(?![\d.,])/gu)) {
    if (out.some((o) => m.index >= o.index && m.index < o.index + o.raw.length)) continue;
    const v = Number(`0.${m[2]}`);
    out.push({ value: m[1] ? -v : v, raw: m[0], index: m.index, decimals: 2 });
  }
  return out.sort((a, b) => a.index - b.index);
}

/** Reads a single amount from a text (the last one found, as amounts sit at the right of a label). */
export function parseAmount(text: string, opts: { requireDecimals?: boolean } = {}): number | undefined {
  const all = findAmounts(text, { requireDecimals: opts.requireDecimals ?? false });
  return all.length ? all[all.length - 1]!.value : undefined;
}

/** "1234.5" → "1234.50"; more decimals kept when printed (unit prices). */
export function formatAmount(v: number, minDecimals = 2): string {
  const rounded = Math.round(v * 10000) / 10000;
  const s = rounded.toFixed(4).replace(/0+$/, '');
  const [i, d = ''] = s.split('.');
  return `${i}.${d.padEnd(minDecimals, '0')}`;
}

export function amountsEqual(a: number, b: number, tolerance = 0.005): boolean {
  return Math.abs(a - b) <= tolerance;
}

export function roundMoney(v: number): number {
  return Math.round(v * 100) / 100;
}

export { toFiveCents } from '../../../../shared/document-arithmetic';

/** A percentage rate such as "21%", "21 %", "PVM 9%", "6.0%". */
export function findRates(text: string): { value: number; raw: string; index: number }[] {
  const out: { value: number; raw: string; index: number }[] = [];
  for (const m of text.matchAll(/(?<![\d.,])(\d{1,2}(?:[.,]\d{1,2})?)\s?%/g)) {
    const v = Number(m[1]!.replace(',', '.'));
    if (v >= 0 && v <= 30) out.push({ value: v, raw: m[0], index: m.index });
  }
  return out;
}

/**
 * The currency a text prints: a code or a symbol; the ringgit's `RM` as a word of its own, before an amount, in
 * brackets after an amount column's label or as the column's header ("RM 9.00", "Amount(RM)", "QTY  RM").
 */
export function currencyFromText(text: string): string | undefined {
  const m = text.match(/(€|\bEUR\b|\bUSD\b|\bGBP\b|£|\bPLN\b|zł|\bMYR\b|(?<![A-Za-z\d])RM(?![A-Za-z])|\bSEK\b|\bNOK\b|\bDKK\b|\bCHF\b|\bCZK\b|\bSGD\b|\bEur\b|\bEurų\b|\beurų\b|\beur\b)/);
  if (!m) return undefined;
  const t = m[1]!.replace(/\s?\d$/, '');
  if (/^eur/i.test(t)) return 'EUR';
  return CURRENCY_SYMBOLS[t] ?? t.toUpperCase();
}
