/**
 * Document search by word prefix (docs/data-model.md, "Document search index", S1–S3). Pure.
 *
 * The indexed text of a document is its supplier/customer name, its document number and its file
 * name. It is cut into words (letters and digits; accents removed, lower case). Every word belongs
 * to a bucket: its first SEARCH_BUCKET_LENGTH characters (or the whole word when shorter). A
 * document has one index item per distinct bucket (at most MAX_SEARCH_BUCKETS), each a copy of
 * the document plus its words, so a search reads one bucket, newest first, and checks the words.
 *
 * A document number is also one word with its dashes, slashes, spaces and other signs removed
 * ("LT-123" is the words lt, 123 and lt123), so it is found typed either way ("LT123", "SE77").
 *
 * A search term matches a document when every word of the term is the start of a word of the
 * document ("max uab" matches "MAXIMA LT, UAB"; "inv-129" matches "INV-1290"). A term whose words
 * are all shorter than SEARCH_BUCKET_LENGTH has no bucket to read: it falls back to the filtered
 * list (D6), with the same rule: each word must start a word of the document's search_text, which
 * holds the same words (searchTokenString). So one more typed letter only ever narrows the list.
 */
import { normaliseSearch } from './list';
import type { DocumentRecord } from './types';

export const SEARCH_BUCKET_LENGTH = 3;
/** Index items of one document: bounds the items a document adds to a transaction. */
export const MAX_SEARCH_BUCKETS = 8;
/** Words are cut to this length; the words of a document to MAX_INDEXED_WORDS. */
export const MAX_WORD_LENGTH = 40;
export const MAX_INDEXED_WORDS = 40;
/** Words of a search term that are checked (the rest is ignored). */
export const MAX_QUERY_WORDS = 8;
/** Bump when the tokenisation changes: documents indexed under an older version are re-indexed by the backfill. */
export const SEARCH_INDEX_VERSION = 3;

/** Distinct words of a text, in order of appearance. */
export function searchWords(text: string): string[] {
  const words = normaliseSearch(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map((w) => w.slice(0, MAX_WORD_LENGTH));
  return [...new Set(words)];
}

export const bucketOf = (word: string) => word.slice(0, SEARCH_BUCKET_LENGTH);

/**
 * The words of a document number: the number without its signs and spaces first ("LT-123" → lt123, when it has more
 * than one part), then its parts (lt, 123).
 */
export function numberWords(number: string): string[] {
  const parts = searchWords(number);
  if (parts.length < 2) return parts;
  return [...new Set([parts.join('').slice(0, MAX_WORD_LENGTH), ...parts])];
}

type Indexed = Pick<DocumentRecord, 'counterparty_name' | 'document_number' | 'original_file_name'>;

/** The words of each indexed field: supplier/customer name, number, file name. */
function fieldWords(doc: Indexed): string[][] {
  return [searchWords(doc.counterparty_name ?? ''), numberWords(doc.document_number ?? ''), searchWords(doc.original_file_name ?? '')];
}

/** The words of a document: supplier/customer name first, then number, then file name. */
export function documentSearchWords(doc: Indexed): string[] {
  return [...new Set(fieldWords(doc).flat())].slice(0, MAX_INDEXED_WORDS);
}

/** The words of a search term that are checked (each must start a word of the document). */
export function termWords(value: string): string[] {
  return searchWords(value).slice(0, MAX_QUERY_WORDS);
}

/**
 * The buckets a document is indexed under, at most MAX_SEARCH_BUCKETS. Only words of at least
 * SEARCH_BUCKET_LENGTH characters have a bucket that a search reads (planSearch). The fields take
 * turns — first word of the counterparty, of the number, of the file name, then the second of
 * each, … — so a long supplier name never pushes the number or the file name out of the index.
 */
export function documentSearchBuckets(doc: Indexed): string[] {
  const fields = fieldWords(doc).map((words) => words.filter((w) => w.length >= SEARCH_BUCKET_LENGTH));
  const buckets = new Set<string>();
  for (let i = 0; buckets.size < MAX_SEARCH_BUCKETS && fields.some((words) => i < words.length); i++) {
    for (const words of fields) {
      const word = words[i];
      if (word !== undefined && buckets.size < MAX_SEARCH_BUCKETS) buckets.add(bucketOf(word));
    }
  }
  return [...buckets];
}

/** The words of an index item, each preceded by a space: `contains(t, ' ' + w)` is "a word starts with w". */
export function searchTokenString(doc: Indexed): string {
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
export function matchesSearch(doc: Indexed, words: string[]): boolean {
  const tokens = searchTokenString(doc);
  return words.every((w) => tokens.includes(` ${w}`));
}
