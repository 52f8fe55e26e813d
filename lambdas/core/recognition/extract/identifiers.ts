/** VAT IDs (EU formats, Lithuanian check digit), IBAN (ISO 13616 mod-97) and BIC (ISO 9362). */

/** EU VAT number formats by country prefix (as printed after the prefix, without spaces). */
const VAT_FORMATS: Record<string, RegExp> = {
  AT: /^U\d{8}$/,
  BE: /^[01]\d{9}$/,
  BG: /^\d{9,10}$/,
  CY: /^\d{8}[A-Z]$/,
  CZ: /^\d{8,10}$/,
  DE: /^\d{9}$/,
  DK: /^\d{8}$/,
  EE: /^\d{9}$/,
  EL: /^\d{9}$/,
  ES: /^[A-Z0-9]\d{7}[A-Z0-9]$/,
  FI: /^\d{8}$/,
  FR: /^[A-HJ-NP-Z0-9]{2}\d{9}$/,
  HR: /^\d{11}$/,
  HU: /^\d{8}$/,
  IE: /^\d[A-Z0-9+*]\d{5}[A-Z]{1,2}$/,
  IT: /^\d{11}$/,
  LT: /^(\d{9}|\d{12})$/,
  LU: /^\d{8}$/,
  LV: /^\d{11}$/,
  MT: /^\d{8}$/,
  NL: /^\d{9}B\d{2}$/,
  PL: /^\d{10}$/,
  PT: /^\d{9}$/,
  RO: /^\d{2,10}$/,
  SE: /^\d{10}01$/,
  SI: /^\d{8}$/,
  SK: /^\d{10}$/,
  XI: /^(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/,
  GB: /^(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/,
  NO: /^\d{9}(MVA)?$/,
  CH: /^E?\d{9}(MWST|TVA|IVA)?$/,
};

export const VAT_COUNTRIES = Object.keys(VAT_FORMATS);

/** Lithuanian VAT payer code check digit (9 digits for companies, 12 for persons). */
export function ltVatCheckDigit(withoutCheck: string): string {
  const digits = [...withoutCheck].map(Number);
  let sum = digits.reduce((s, d, i) => s + (1 + (i % 9)) * d, 0) % 11;
  if (sum === 10) sum = digits.reduce((s, d, i) => s + (1 + ((i + 2) % 9)) * d, 0) % 11;
  return String((sum % 11) % 10);
}

export function isValidLtVatNumber(digits: string): boolean {
  if (digits.length === 9) {
    if (digits[7] !== '1') return false;
  } else if (digits.length === 12) {
    if (digits[10] !== '1') return false;
  } else return false;
  if (!/^\d+$/.test(digits)) return false;
  return ltVatCheckDigit(digits.slice(0, -1)) === digits.slice(-1);
}

export function compactId(s: string): string {
  return s.toUpperCase().replace(/[\s.\-/]/g, '');
}

/** Validates a VAT ID with its country prefix: "LT119511515", "DE 123456789", "ATU12345678". */
export function isValidVatId(id: string): boolean {
  const c = compactId(id);
  const country = c.slice(0, 2);
  const rest = c.slice(2);
  const fmt = VAT_FORMATS[country];
  if (!fmt || !fmt.test(rest)) return false;
  if (country === 'LT') return isValidLtVatNumber(rest);
  return true;
}

/**
 * Finds VAT IDs with a country prefix in a text, compacted ("LT 1195 11515" → "LT119511515"). Each word is tried as
 * a prefix: a word before the ID that is none ("UAB", "GmbH", "AB") does not hide it. An ID is never cut out of a
 * longer number ("NO 000123456789"), and a Norwegian prefix printed apart from its number needs the "MVA" after it:
 * "No 123456789" is a number after its label.
 */
export function findVatIds(text: string): { value: string; raw: string; index: number }[] {
  const out: { value: string; raw: string; index: number }[] = [];
  const re = /\b(?=([A-Z]{2})([\s-]?)([A-Z0-9][A-Z0-9 .\-+*]{6,16}[A-Z0-9]))/g;
  let taken = 0;
  for (const m of text.toUpperCase().matchAll(re)) {
    const country = m[1]!;
    if (m.index < taken || !VAT_FORMATS[country]) continue;
    // Try the longest prefix of the tail that is a valid number (the tail may run into other words).
    const tail = m[3]!;
    for (let end = tail.length; end >= 7; end--) {
      const number = tail.slice(0, end);
      const candidate = country + compactId(number);
      if (!isValidVatId(candidate) || !/[A-Z0-9]$/.test(number) || /^\d/.test(tail.slice(end))) continue;
      if (country === 'NO' && m[2] && !candidate.endsWith('MVA')) continue;
      const length = 2 + m[2]!.length + end;
      out.push({ value: candidate, raw: text.substr(m.index, length), index: m.index });
      taken = m.index + length;
      break;
    }
  }
  return out;
}

const IBAN_LENGTHS: Record<string, number> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BR: 29, BY: 28, CH: 21, CR: 22, CY: 28,
  CZ: 24, DE: 22, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18, FO: 18, FR: 27, GB: 22, GE: 22, GI: 23, GL: 18,
  GR: 27, GT: 28, HR: 21, HU: 28, IE: 22, IL: 23, IQ: 23, IS: 26, IT: 27, JO: 30, KW: 30, KZ: 20, LB: 28, LC: 32,
  LI: 21, LT: 20, LU: 20, LV: 21, MC: 27, MD: 24, ME: 22, MK: 19, MR: 27, MT: 31, MU: 30, NL: 18, NO: 15, PK: 24,
  PL: 28, PS: 29, PT: 25, QA: 29, RO: 24, RS: 22, SA: 24, SC: 31, SE: 24, SI: 19, SK: 24, SM: 27, ST: 25, SV: 28,
  TL: 23, TN: 24, TR: 26, UA: 29, VA: 22, VG: 24, XK: 20,
};

/** ISO 7064 mod 97-10 over the rearranged IBAN. */
export function ibanMod97(iban: string): number {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let rem = 0;
  for (const ch of rearranged) {
    const code = ch >= 'A' && ch <= 'Z' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of code) rem = (rem * 10 + Number(d)) % 97;
  }
  return rem;
}

export function isValidIban(value: string): boolean {
  const iban = value.toUpperCase().replace(/[\s-]/g, '');
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) return false;
  const len = IBAN_LENGTHS[iban.slice(0, 2)];
  if (!len || iban.length !== len) return false;
  return ibanMod97(iban) === 1;
}

/** Finds IBANs printed with or without groups of four ("LT60 1010 0123 4567 8901"). */
export function findIbans(text: string): { value: string; raw: string; index: number }[] {
  const out: { value: string; raw: string; index: number }[] = [];
  const re = /\b([A-Z]{2}\d{2}(?:[ -]?[A-Z0-9]{1,4}){2,8})/g;
  for (const m of text.toUpperCase().matchAll(re)) {
    const raw = m[1]!;
    const len = IBAN_LENGTHS[raw.slice(0, 2)];
    if (!len) continue;
    // The match may run into the next word: the IBAN is the first `len` characters (separators aside).
    let count = 0;
    let end = 0;
    while (end < raw.length && count < len) {
      if (/[A-Z0-9]/.test(raw[end]!)) count++;
      end++;
    }
    const candidate = raw.slice(0, end).replace(/[ -]/g, '');
    // Printed in groups, the IBAN must end at a group boundary.
    if (count === len && isValidIban(candidate) && (end === raw.length || /[ -]/.test(raw[end]!) || !/[ -]/.test(raw.slice(0, end)))) {
      out.push({ value: candidate, raw: raw.slice(0, end), index: m.index });
    }
  }
  return out;
}

const ISO_COUNTRIES = new Set(
  (
    'AD AE AF AG AI AL AM AO AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BM BN BO BR BS BT BW BY BZ CA CD CF CG CH CI CL ' +
    'CM CN CO CR CU CV CW CY CZ DE DJ DK DM DO DZ EC EE EG ES ET FI FJ FO FR GA GB GD GE GG GH GI GL GM GN GR GT GU GY HK HN HR ' +
    'HT HU ID IE IL IM IN IQ IR IS IT JE JM JO JP KE KG KH KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MG MK ML MM ' +
    'MN MO MR MT MU MV MW MX MY MZ NA NE NG NI NL NO NP NZ OM PA PE PG PH PK PL PR PS PT PY QA RO RS RU RW SA SC SD SE SG SI SK ' +
    'SL SM SN SO SR SV SY TG TH TJ TN TR TT TW TZ UA UG US UY UZ VA VE VG VN XK YE ZA ZM ZW'
  ).split(' '),
);

export function isValidBic(value: string): boolean {
  const bic = value.toUpperCase().replace(/\s/g, '');
  if (!/^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(bic)) return false;
  return ISO_COUNTRIES.has(bic.slice(4, 6));
}

/**
 * Finds BIC/SWIFT codes. Without a label next to it an 8-letter word could be any word, so unless
 * `labelled` the code must contain a digit or end with the usual "XXX" branch.
 */
export function findBics(text: string, labelled: boolean): { value: string; index: number }[] {
  const out: { value: string; index: number }[] = [];
  for (const m of text.matchAll(/\b([A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?)\b/g)) {
    const v = m[1]!;
    if (!isValidBic(v)) continue;
    if (!labelled && !/\d/.test(v.slice(6)) && !v.endsWith('XXX')) continue;
    out.push({ value: v, index: m.index });
  }
  return out;
}
