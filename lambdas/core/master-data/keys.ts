/**
 * How master data is compared: the one definition used by uniqueness, look-ups, matching and imports.
 */
import { compactId } from '../recognition/extract/identifiers';
import { normaliseCompanyName } from '../recognition/extract/legal';

/** Case, diacritics and spacing folded: "  Ąžuolas   UAB " → "azuolas uab". Uniqueness of names and item name_id. */
export function nameKey(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** The key codes are compared by (their uniqueness guard): the compacted identifier, or the folded text when nothing is left of it. */
export function codeKey(code: string): string {
  return identifierKey(code) || nameKey(code);
}

/** Codes and VAT IDs: upper case without spaces, dots, dashes or slashes ("lt 1234-56" → "LT123456"). */
export function identifierKey(value: string): string {
  return compactId(value.trim());
}

/** The recognition's normalised company name (legal forms such as UAB, SDN BHD, LTD dropped). */
export function matchNameKey(name: string): string {
  return normaliseCompanyName(name);
}

/**
 * Search words of a master-data name, and of the text typed to search one: the folded runs of letters and
 * digits, each at most 40 characters, without repeats. "&" separates words like any other sign, in the name and
 * in the typed text alike, so "A&B Prekyba" is found by "A & B" and "a&b".
 */
export function nameSearchWords(text: string): string[] {
  const words = nameKey(text)
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0)
    .map((w) => w.slice(0, 40));
  return [...new Set(words)];
}

/**
 * The words a text is looked up by in the item word index (M10): its folded words (`searchWords`) of 2 characters
 * or more, numbers left out. The one rule for a line's description, for the words an item is indexed by, and for
 * the words an items search looks up.
 */
export function itemLookupWords(text: string): string[] {
  return searchWords(text).filter((w) => w.length >= 2 && !/^\d+$/.test(w));
}

/** Search words of a name: the folded words, each at most 40 characters, without repeats. */
export function searchWords(name: string): string[] {
  const words = nameKey(name)
    .split(/[^a-z0-9&]+/)
    .filter((w) => w.length > 0)
    .map((w) => w.slice(0, 40));
  return [...new Set(words)];
}
