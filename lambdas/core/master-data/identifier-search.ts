/**
 * A search of suppliers and customers (or categories) finds, besides the names that hold the typed words, the records
 * whose code or VAT ID (a category: its code) is the typed text: a bookkeeper looks a business up by its company code
 * as often as by its name, and a name search never finds "304567891". The exact hits come first on the search's
 * first page (the look-ups M6 and M7, a read each); the name hits follow as before, without the exact hits, on that
 * page and every later one, so no record is listed twice. An items search uses the same first page for the items
 * whose words are the typed words (M10, items.ts `textOf`).
 */
import { vatLookupKeys } from '../recognition/match';
import { codeKey, identifierKey } from './keys';
import type { Page, RecordSource } from './types';

/** Exact hits a first page shows at most (several suppliers may share one VAT ID). */
export const IDENTIFIER_HITS_MAX = 10;

/** The typed text looked up as a code or VAT ID: one that holds a digit (codes and VAT IDs do; names rarely). */
export function identifierSearchText(search: string | undefined): string | undefined {
  const text = (search ?? '').trim();
  return /\d/.test(text) && identifierKey(text).length >= 2 ? text : undefined;
}

export interface IdentifierSearch<R> {
  /** The typed text this look-up takes, if any (default `identifierSearchText`: one with a digit). */
  textOf?(search: string | undefined): string | undefined;
  /** The records whose code or VAT ID (an item: whose words) is the text (at most IDENTIFIER_HITS_MAX). */
  hits(text: string): Promise<R[]>;
  /** Whether the record's code or VAT ID (an item: its words) is the text. */
  matches(record: R, text: string): boolean;
}

/** One page of a list or search (`readNames`), with the exact hits of an identifier search first (see above). */
export async function withIdentifierHits<R extends { external: boolean }>(
  lookup: IdentifierSearch<R>,
  request: { search: string | undefined; source: RecordSource; cursor: string | undefined; limit: number },
  readNames: (limit: number) => Promise<Page<R>>,
): Promise<Page<R>> {
  const text = (lookup.textOf ?? identifierSearchText)(request.search);
  if (!text) return readNames(request.limit);
  const inSource = (r: R) => request.source === 'all' || (request.source === 'external') === r.external;
  const exact = request.cursor === undefined ? (await lookup.hits(text)).filter(inSource).slice(0, Math.max(0, request.limit - 1)) : [];
  const names = await readNames(request.limit - exact.length);
  return { items: [...exact, ...names.items.filter((r) => !lookup.matches(r, text))], cursor: names.cursor };
}

/** Whether a code (stakeholder or category) is the text, compared as the uniqueness guard compares codes. */
export function codeIs(code: string | undefined, text: string): boolean {
  const key = codeKey(text);
  return Boolean(code) && key !== '' && codeKey(code!) === key;
}

/**
 * The VAT IDs a typed text is looked up as: the processing's `vatLookupKeys` (as typed, then without its country
 * letters, or typed without them, with the home country's), so "123456715" finds LT123456715 as a document printing
 * it does; a text too short for a VAT ID is looked up as typed only.
 */
export function vatSearchKeys(text: string): string[] {
  const keys = vatLookupKeys(text);
  return keys.length ? keys : [identifierKey(text)].filter((k) => k !== '');
}

/** Whether a VAT ID is the text, compared as the VAT look-up compares them (`vatSearchKeys`). */
export function vatIdIs(vatId: string | undefined, text: string): boolean {
  if (!vatId) return false;
  const own = identifierKey(vatId);
  return vatSearchKeys(text).some((key) => identifierKey(key) === own);
}
