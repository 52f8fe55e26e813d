/**
 * Document search by word prefix (docs/data-model.md, "Document search index", S1–S3). Pure.
 *
 * The indexed text of a document is its supplier/customer name, its document number, its total, the
 * supplier's/customer's company code and VAT ID, and its file name. It is cut into words (letters and
 * digits; accents removed, lower case). Every word belongs to a bucket: its first SEARCH_BUCKET_LENGTH
 * characters (or the whole word when shorter). A document has one index item per distinct bucket (at most
 * MAX_SEARCH_BUCKETS), each a copy of the document plus its words, so a search reads one bucket, newest first,
 * and checks the words.
 *
 * A document number is also one word with its dashes, slashes, spaces and other signs removed
 * ("LT-123" is the words lt, 123 and lt123), so it is found typed either way ("LT123", "SE77"); so are the
 * company code and the VAT ID ("LT 1000 0123 4567" → lt100001234567).
 *
 * Numbers are read before a text is cut into words (readWords), the same way in a search term and in the
 * document's text:
 * - an amount with a decimal comma or point and one or two decimals, with or without thousands groups (space,
 *   point or comma — another sign than the decimal one): "123,45", "123.45", "1 234,56", "1.234,56",
 *   "1,234.56" → the one word 1234.56 (leading zeros and any minus sign dropped);
 * - digits in groups of a whole amount ("1 234", "12 345 678") or joined by points, commas, dashes or slashes
 *   ("1.234", "2025/17", "2025-17") → the digits as one word (1234, 202517);
 * - two letters and at least five digits, with or without spaces or dashes between them (a VAT ID:
 *   "LT 1000 0123 4567") → one word (lt100001234567).
 * The document's total is the word of its absolute value with two decimals: 123.45, 123.00 (a credit note of
 * -123.45 is 123.45), and nothing else — no word of its cents, so "45" does not find every total with 45 cents:
 * it finds the totals that start with 45 (45.00 to 45.99, 450.00 to 459.99, …), as any word start.
 *
 * A search term matches a document when every word of the term is the start of a word of the document ("max uab"
 * matches "MAXIMA LT, UAB"; "inv-129" matches "INV-1290"; "123" matches the totals 123.00 and 123.45 and the number
 * 1234; "123,4" the totals 123.40 to 123.49). A term whose words are all shorter than SEARCH_BUCKET_LENGTH has
 * no bucket to read: it falls back to the filtered list (D6), with the same rule: each word must start a word of
 * the document's search_text, which holds the same words (searchTokenString). So one more typed letter only
 * ever narrows the list — except where it changes how digits are read: a third digit after a point or comma
 * turns decimals into a thousands group ("1.23" is the amount 1.23, "1.234" the number 1234).
 */
import { AMOUNT_PATTERN } from '../../../shared/schemas/content';
import { normaliseSearch } from './list';
import type { DocumentRecord } from './types';

export const SEARCH_BUCKET_LENGTH = 3;
/**
 * Index items of one document: bounds the items a document adds to a transaction (and the item writes of every
 * document write: each rewrites its search items). Ten since version 4, when the total, the company code and the
 * VAT ID joined the three fields: with eight, a processed document's six first words left two buckets for all
 * further words, and the third word of "UAB Vilniaus vandenys" had none.
 */
export const MAX_SEARCH_BUCKETS = 10;
/** Words are cut to this length; the words of a document to MAX_INDEXED_WORDS. */
export const MAX_WORD_LENGTH = 40;
export const MAX_INDEXED_WORDS = 40;
/** Words of a search term that are checked (the rest is ignored). */
export const MAX_QUERY_WORDS = 8;
/** VAT IDs (two letters and digits) are read as one word from this many digits on ("LT 12345"; "LT 123" stays two words). */
export const MIN_PREFIXED_DIGITS = 5;
/**
 * Bump when the tokenisation changes: documents indexed under an older version are re-indexed by the backfill.
 * 4: totals, the counterparty's company code and VAT ID, numbers read as one word (amounts, digit groups).
 */
export const SEARCH_INDEX_VERSION = 4;

/** The fields a document is searched by. */
export type SearchIndexed = Pick<DocumentRecord, 'counterparty_name' | 'document_number' | 'original_file_name'> &
  Partial<Pick<DocumentRecord, 'total' | 'counterparty_code' | 'counterparty_vat_id'>>;

const unique = (words: string[]) => [...new Set(words)];
const cut = (word: string) => word.slice(0, MAX_WORD_LENGTH);

/** Distinct words of a text, in order of appearance: its runs of letters and digits. */
export function searchWords(text: string): string[] {
  return unique(
    normaliseSearch(text)
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean)
      .map(cut),
  );
}

export const bucketOf = (word: string) => word.slice(0, SEARCH_BUCKET_LENGTH);

/** Not inside a word, nor the continuation of digits after a point or comma ("01" of "2024.01.15"). */
const BEFORE = String.raw`(?<![\p{L}\p{N}])(?<!\p{N}[.,])`;
/** Not followed by a letter or digit, nor by a point or comma and a digit (the run goes on). */
const AFTER = String.raw`(?![\p{L}\p{N}])(?![.,]\p{N})`;
/** Amounts: with thousands groups of spaces, points or commas, and a decimal sign that is not the thousands sign; without. */
const AMOUNT_FORMS = [
  String.raw`\d{1,3}(?: \d{3})+[.,]\d{1,2}`,
  String.raw`\d{1,3}(?:\.\d{3})+,\d{1,2}`,
  String.raw`\d{1,3}(?:,\d{3})+\.\d{1,2}`,
  String.raw`\d+[.,]\d{1,2}`,
];
/** Whole amounts in thousands groups of spaces; digits joined by points, commas, dashes or slashes. */
const DIGITS_FORMS = [String.raw`\d{1,3}(?: \d{3})+`, String.raw`\d+(?:[.,/-]\d+)+`];
/** Two letters and digits in groups (a VAT ID); MIN_PREFIXED_DIGITS is checked by numberRunWord. */
const PREFIXED_FORM = String.raw`\p{L}{2}[ -]?\d+(?:[ -]\d+)*`;
const NUMBER_RUN = new RegExp(
  `${BEFORE}(?:(?<amount>${AMOUNT_FORMS.join('|')})|(?<digits>${DIGITS_FORMS.join('|')})|(?<prefixed>${PREFIXED_FORM}))${AFTER}`,
  'gu',
);

/** The whole-number part of an amount: its digits without leading zeros. */
const wholeOf = (digits: string) => digits.replace(/\D/g, '').replace(/^0+(?=\d)/, '');

/** The one word of a match of NUMBER_RUN; undefined for two letters with too few digits (they stay words of their own). */
function numberRunWord(m: RegExpExecArray): string | undefined {
  const run = m[0];
  if (m.groups?.amount !== undefined) {
    const [, whole, decimals] = /^(.*)[.,](\d{1,2})$/.exec(run)!;
    return cut(`${wholeOf(whole!)}.${decimals!}`);
  }
  if (m.groups?.prefixed !== undefined) return (run.match(/\d/g)?.length ?? 0) >= MIN_PREFIXED_DIGITS ? cut(run.replace(/[ -]/g, '')) : undefined;
  return cut(run.replace(/\D/g, ''));
}

/**
 * The words of a text as a search term is read: its numbers (NUMBER_RUN: amounts, digit groups, VAT IDs) as one
 * word each, the rest cut into words as searchWords does. Distinct, in order of appearance.
 */
export function readWords(text: string): string[] {
  const s = normaliseSearch(text);
  const out: string[] = [];
  const re = new RegExp(NUMBER_RUN.source, NUMBER_RUN.flags);
  let from = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    const word = numberRunWord(m);
    // Two letters and too few digits: read on after the letters (the digits may be an amount of their own).
    if (word === undefined) {
      re.lastIndex = m.index + 2;
      continue;
    }
    out.push(...searchWords(s.slice(from, m.index)), word);
    from = m.index + m[0].length;
  }
  out.push(...searchWords(s.slice(from)));
  return unique(out);
}

/** Digit runs of a document's text: digits joined by points, commas, dashes or slashes (as a term joins them). */
const DIGIT_RUN = /(?<![\p{L}\p{N}])\d+(?:[.,/-]\d+)+(?![\p{L}\p{N}])/gu;
/** Two digit groups joined by a point or comma, the second of one or two digits: an amount a term may read. */
const DECIMAL_PAIR = /(?<![\p{L}\p{N}])(?=(\d+)[.,](\d{1,2})(?![\p{L}\p{N}]))/gu;
/** Words one run of a text adds at most. */
const MAX_RUN_WORDS = 8;

/**
 * The words a document's text adds to its words for the way a term reads numbers, so that a piece of the text
 * typed as it is written is found: the text's numbers as readWords reads them ("1 234,56" → 1234.56); every digit
 * run joined from each of its groups on ("INV-2024/17" → 202417; "2024-01-15" → 20240115 and 0115, which "01-15"
 * is read as); and every two groups with a decimal point or comma ("2024.01.15" → 2024.01, 1.15).
 */
export function numberReadings(text: string): string[] {
  const s = normaliseSearch(text);
  const out = readWords(s).filter((w) => /\d/.test(w));
  for (const run of s.match(DIGIT_RUN) ?? []) {
    const groups = run.split(/[.,/-]/);
    for (let k = 0; k < groups.length - 1 && k < MAX_RUN_WORDS; k++) out.push(cut(groups.slice(k).join('')));
  }
  for (const m of s.matchAll(DECIMAL_PAIR)) out.push(cut(`${wholeOf(m[1]!)}.${m[2]!}`));
  return unique(out);
}

/** The words of a text field: its words, then the further words numberReadings adds. */
function textWords(text: string): string[] {
  return unique([...searchWords(text), ...numberReadings(text)]);
}

/**
 * The words of a document number: the number without its signs and spaces first ("LT-123" → lt123, when it has more
 * than one part), then its parts (lt, 123).
 */
export function numberWords(number: string): string[] {
  const parts = searchWords(number);
  if (parts.length < 2) return parts;
  return [...new Set([parts.join('').slice(0, MAX_WORD_LENGTH), ...parts])];
}

/** The words of a document number, company code or VAT ID: numberWords, then numberReadings. */
function codeWords(code: string): string[] {
  return unique([...numberWords(code), ...numberReadings(code)]);
}

/**
 * The word of a total: its absolute value with two decimals (123.45, 123.00; -123.45 → 123.45). None for a total
 * that is not a valid amount (0.00), as the sums of totals leave it out (sums.ts).
 */
export function amountWords(total: string | null | undefined): string[] {
  const value = total?.trim() ?? '';
  if (!AMOUNT_PATTERN.test(value)) return [];
  const [whole, fraction = ''] = value.replace(/^-/, '').split('.') as [string, string?];
  return [cut(`${wholeOf(whole)}.${fraction.padEnd(2, '0')}`)];
}

/** A VAT ID's digits without its two-letter country prefix (lt100001234567 → 100001234567). */
function withoutCountry(words: string[]): string[] {
  const compact = words[0];
  return compact && /^\p{L}{2}\d/u.test(compact) ? [compact.slice(2)] : [];
}

interface FieldWords {
  name: string[];
  number: string[];
  total: string[];
  code: string[];
  vat: string[];
  /** The VAT ID without its country prefix: a bucket only when every other word has one. */
  vatDigits: string[];
  file: string[];
}

function fieldWords(doc: SearchIndexed): FieldWords {
  const vat = codeWords(doc.counterparty_vat_id ?? '');
  return {
    name: textWords(doc.counterparty_name ?? ''),
    number: codeWords(doc.document_number ?? ''),
    total: amountWords(doc.total),
    code: codeWords(doc.counterparty_code ?? ''),
    vat,
    vatDigits: withoutCountry(vat),
    file: textWords(doc.original_file_name ?? ''),
  };
}

/**
 * The words of a document: the total, company code and VAT ID first (a few words each, never cut by
 * MAX_INDEXED_WORDS), then the supplier/customer name, the number and the file name.
 */
export function documentSearchWords(doc: SearchIndexed): string[] {
  const f = fieldWords(doc);
  return unique([...f.total, ...f.code, ...f.vat, ...f.vatDigits, ...f.name, ...f.number, ...f.file]).slice(0, MAX_INDEXED_WORDS);
}

/** The words of a search term that are checked (each must start a word of the document). */
export function termWords(value: string): string[] {
  return readWords(value).slice(0, MAX_QUERY_WORDS);
}

/**
 * The buckets a document is indexed under, at most MAX_SEARCH_BUCKETS. Only words of at least
 * SEARCH_BUCKET_LENGTH characters have a bucket that a search reads (planSearch). The fields take
 * turns — the first word of the counterparty, of the number, the total, the company code, the VAT ID, the first
 * word of the file name, then the second of each, … — so a long supplier name never pushes the number, the total
 * or the file name out of the index. The VAT ID without its country prefix comes last.
 */
export function documentSearchBuckets(doc: SearchIndexed): string[] {
  const f = fieldWords(doc);
  const long = (words: string[]) => words.filter((w) => w.length >= SEARCH_BUCKET_LENGTH);
  const fields = [f.name, f.number, f.total, f.code, f.vat, f.file].map(long);
  const buckets = new Set<string>();
  const add = (word: string | undefined) => {
    if (word !== undefined && buckets.size < MAX_SEARCH_BUCKETS) buckets.add(bucketOf(word));
  };
  for (let i = 0; buckets.size < MAX_SEARCH_BUCKETS && fields.some((words) => i < words.length); i++) {
    for (const words of fields) add(words[i]);
  }
  for (const word of long(f.vatDigits)) add(word);
  return [...buckets];
}

/** The words of an index item, each preceded by a space: `contains(t, ' ' + w)` is "a word starts with w". */
export function searchTokenString(doc: SearchIndexed): string {
  return documentSearchWords(doc)
    .map((w) => ` ${w}`)
    .join('');
}

export interface IndexedSearch {
  /** The bucket that is read: the one of the longest word of the term. */
  bucket: string;
  /** Every word of the term; each must start a word of the document. */
  words: string[];
}

/** How a search term is answered from the index; undefined when no word has a full bucket. */
export function planSearch(value: string): IndexedSearch | undefined {
  const words = termWords(value);
  const longest = words.reduce<string | undefined>((best, w) => (best === undefined || w.length > best.length ? w : best), undefined);
  if (!longest || longest.length < SEARCH_BUCKET_LENGTH) return undefined;
  return { bucket: bucketOf(longest), words };
}

/** Does a document match an indexed search (the same test the store's filter makes)? */
export function matchesSearch(doc: SearchIndexed, words: string[]): boolean {
  const tokens = searchTokenString(doc);
  return words.every((w) => tokens.includes(` ${w}`));
}
