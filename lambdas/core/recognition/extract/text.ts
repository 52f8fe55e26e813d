/** Small text helpers shared by the extractors. */

export function collapseSpaces(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** Removes diacritics (ą → a, š → s) for keyword comparison. */
export function foldDiacritics(s: string): string {
  return s.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
}

/** Lower-case, no diacritics, letters and digits only, single spaces. */
export function normaliseForCompare(s: string): string {
  return collapseSpaces(
    foldDiacritics(s)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' '),
  );
}

export function levenshtein(a: string, b: string, max = Infinity): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > max) return max + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

/**
 * The word of `vocabulary` that `word` is at most one OCR slip from (a letter misread, lost or added; with
 * `sameLength`, misread only, so that the text keeps its offsets), the first one listed; undefined if none.
 */
export function oneSlipFrom(word: string, vocabulary: Iterable<string>, opts: { sameLength?: boolean } = {}): string | undefined {
  for (const k of vocabulary) if ((!opts.sameLength || k.length === word.length) && levenshtein(word, k, 1) <= 1) return k;
  return undefined;
}

/** Letters that digits stand for when read inside a word: upper and lower case (a lower-case b looks like a 6). */
export const LETTER_FOR_DIGIT: Readonly<Record<string, { upper: string; lower: string }>> = {
  '0': { upper: 'O', lower: 'o' },
  '1': { upper: 'I', lower: 'l' },
  '5': { upper: 'S', lower: 's' },
  '6': { upper: 'G', lower: 'b' },
  '8': { upper: 'B', lower: 'B' },
};

/** Characters OCR commonly confuses with digits, for tokens that must be numeric. */
const DIGIT_LOOKALIKES: Record<string, string> = {
  O: '0',
  o: '0',
  D: '0',
  Q: '0',
  I: '1',
  l: '1',
  '|': '1',
  i: '1',
  '!': '1',
  Z: '2',
  z: '2',
  S: '5',
  s: '5',
  B: '8',
  G: '6',
  b: '6',
  g: '9',
};

/** A letter OCR commonly reads for this digit, or the digit for it (either case). */
export function digitLookAlike(a: string, b: string): boolean {
  const is = (letter: string, digit: string) => DIGIT_LOOKALIKES[letter] === digit || DIGIT_LOOKALIKES[letter.toUpperCase()] === digit;
  return /\d/.test(a) ? is(b, a) : /\d/.test(b) && is(a, b);
}

/** Digits a receipt printer's font makes OCR confuse. */
export const DIGIT_CONFUSIONS: Record<string, string[]> = { '8': ['0', '6', '3'], '0': ['8', '6'], '3': ['8'], '6': ['8', '5', '0'], '5': ['6'], '1': ['7'], '7': ['1'] };

/** Variants of a token of digits with one (or, with `most` 2, two) confusable digits changed, fewest changes first. */
export function confusionVariants(token: string, confusions: Record<string, string[]> = DIGIT_CONFUSIONS, most: 1 | 2 = 2): string[] {
  const positions = [...token].map((c, i) => (confusions[c] ? i : -1)).filter((i) => i >= 0);
  const out: string[] = [];
  for (const i of positions) for (const r of confusions[token[i]!]!) out.push(token.slice(0, i) + r + token.slice(i + 1));
  if (most === 1) return out;
  for (const i of positions)
    for (const j of positions)
      if (j > i)
        for (const a of confusions[token[i]!]!)
          for (const b of confusions[token[j]!]!) out.push(token.slice(0, i) + a + token.slice(i + 1, j) + b + token.slice(j + 1));
  return out;
}

/** Replaces letters that look like digits, only inside a token that is mostly digits already. */
export function fixDigits(token: string): string {
  const digits = (token.match(/\d/g) ?? []).length;
  const letters = (token.match(/[A-Za-z|!]/g) ?? []).length;
  if (digits === 0 || letters > digits) return token;
  return token.replace(/[A-Za-z|!]/g, (c) => DIGIT_LOOKALIKES[c] ?? c);
}

/** Does the text look like a keyword (case, diacritics and up to `maxEdits` OCR slips ignored)? */
export function fuzzyEquals(text: string, keyword: string, maxEdits?: number): boolean {
  const a = normaliseForCompare(text).replace(/ /g, '');
  const b = normaliseForCompare(keyword).replace(/ /g, '');
  const allowed = maxEdits ?? (b.length >= 8 ? 2 : b.length >= 4 ? 1 : 0);
  return levenshtein(a, b, allowed) <= allowed;
}

/** One letters-only word of a name, for the repairs of misread words. */
export interface NameWord {
  /** The word as read, without a possessive 's or a trailing full stop or comma. */
  word: string;
  /** What follows the word in its token: a possessive 's, a full stop or a comma ("" for none). */
  tail: string;
  /** Upper case, no diacritics. */
  up: string;
  /** Its place among the name's space-separated tokens. */
  index: number;
  tokens: readonly string[];
  /** An upper-case replacement in the word's case (UPPER, Title or lower). */
  recase: (replacement: string) => string;
}

/**
 * Applies `repair` to each letters-only word of a name (a possessive 's and a trailing "." or "," kept:
 * "DONINO'S" is the word "DONINO"); `repair` returns the replacement, or undefined to keep the word.
 */
export function repairNameWords(name: string, repair: (w: NameWord) => string | undefined): string {
  const tokens = name.split(' ');
  return tokens
    .map((token, index) => {
      const m = /^(\p{L}+)((?:['’][sS])?[.,]?)$/u.exec(token);
      if (!m) return token;
      const [, word, tail] = m as unknown as [string, string, string];
      const up = foldDiacritics(word).toUpperCase();
      if (!/^[A-Z]+$/.test(up)) return token;
      const lower = word === word.toLowerCase();
      const title = !lower && word !== word.toUpperCase();
      const recase = (w: string) => (lower ? w.toLowerCase() : title ? w[0] + w.slice(1).toLowerCase() : w);
      const fixed = repair({ word, tail, up, index, tokens, recase });
      return fixed === undefined ? token : fixed + tail;
    })
    .join(' ');
}

/**
 * An F between two other consonants in a word (upper case) with a vowel or of four letters or more (a word's only
 * vowel may be the E read as F: "SFNG"; three consonants are an abbreviation: "KFC"), and with `first` one first
 * before a consonant other than L or R: an E whose lower bar thin print lost reads as an F ("SFTIA", "MFLAWATI",
 * "FHSAN"). English spells such Fs ("CONFLICT", "HALFWAY"): for words that are no English word. A first F stays in
 * names, where "FT" is as often an F before a misread letter ("FTSHBALL").
 */
export function eForF(up: string, first = true): string {
  if (!/[AEIOU]/.test(up) && up.length < 4) return up;
  const consonant = (c: string | undefined) => !!c && /[B-DG-HJ-NP-TV-Z]/.test(c);
  const atStart = (i: number) => first && i === 0 && consonant(up[1]) && !'LR'.includes(up[1]!);
  return [...up].map((c, i) => (c === 'F' && (atStart(i) || (i > 0 && consonant(up[i - 1]) && consonant(up[i + 1]))) ? 'E' : c)).join('');
}

/** A word (upper case) in the case of the token it replaces: upper, lower or capitalised. */
export function inCaseOf(word: string, token: string): string {
  if (token === token.toUpperCase()) return word;
  return token === token.toLowerCase() ? word.toLowerCase() : word[0] + word.slice(1).toLowerCase();
}
