/**
 * Names and addresses put right by lines of print known from other receipts (`NameOptions.knownLines`): a name one
 * character away from a known line, a name whose first word was misread where its other words are a known line's, an
 * address spelt as other receipts of its seller give it; and the words a reading was sure of, which no repair changes.
 */
import { isLegalFormToken } from './legal';
import type { Row } from './rows';
import { foldDiacritics, levenshtein } from './text';

/** A line of print as known lines are looked up: upper case, spaces collapsed ("99 Speed  Mart" → "99 SPEED MART"). */
export function printedLineKey(text: string): string {
  return text.toUpperCase().replace(/\s+/g, ' ').trim();
}

/**
 * The least confidence a name's words count with when its every line reads, letter for letter, as a line known
 * from other receipts: a reading the recogniser was unsure of that spells a known seller's line is that line
 * (`99 SPEED MART S/B` with `S/B` read at 63). It stays under `SURE_NAME_WORD`, so the second look still reads such
 * a name again from other cuts of its lines, and every doubt of the layout still weighs on it.
 */
export const KNOWN_LINE_CONFIDENCE = 97;

/** The least letters and digits a name has for a known line one character away to put it right. */
const KNOWN_LINE_MIN_CHARACTERS = 10;

const isLetter = (c: string | undefined) => !!c && /\p{L}/u.test(c);

/** One character of a reading changed: at `at`, `remove` characters (0 or 1) taken out and `insert` put in. */
interface CharacterEdit {
  at: number;
  remove: number;
  insert: string;
}

/**
 * How `line` is `read` with one letter put right (changed, also from or to a digit or a mark, left out or added), or
 * undefined when they differ otherwise. A space or a mark against another is no misread letter (`SUPER SEVEN`
 * printed, `SUPER.SEVEN` in other receipts' text), nor a digit against another (a branch's number).
 */
function oneCharacterAway(read: string, line: string): CharacterEdit | undefined {
  if (Math.abs(read.length - line.length) > 1 || read === line) return undefined;
  let at = 0;
  while (at < read.length && read[at] === line[at]) at++;
  if (read.length === line.length) {
    const [a, b] = [read[at]!, line[at]!];
    const letter = a !== ' ' && b !== ' ' && (isLetter(a) || isLetter(b));
    return letter && read.slice(at + 1) === line.slice(at + 1) ? { at, remove: 1, insert: b } : undefined;
  }
  if (read.length < line.length) return isLetter(line[at]) && read.slice(at) === line.slice(at + 1) ? { at, remove: 0, insert: line[at]! } : undefined;
  return isLetter(read[at]) && read.slice(at + 1) === line.slice(at) ? { at, remove: 1, insert: '' } : undefined;
}

/**
 * A name read one letter away from a line known from other receipts, put right to that line in the name's own case
 * (`TED HENG STATIONERY & BOOKS` → `TEO HENG …`, `Derbang Alaf Restaurants` → `Gerbang …`, `LAN HING` → `LIAN
 * HING`); the line seen most often where several are, none where two are seen alike. Left as read: a name of fewer
 * than ten letters and digits (one letter is too much of a short name), and a word read with high confidence
 * (`sure`, as `sureWords` writes them: printed so, another seller's name). A name so put right is a repair and
 * doubted as one (`nameDoubt`), so it waits for review, with the right letters.
 */
export function nearestKnownLine(name: string, known: ReadonlyMap<string, number>, sure?: ReadonlySet<string>): string | undefined {
  const read = printedLineKey(name);
  if (known.has(read) || read.length !== name.length || (read.match(/[\p{L}\d]/gu) ?? []).length < KNOWN_LINE_MIN_CHARACTERS) return undefined;
  let best: { seen: number; edit: CharacterEdit } | undefined;
  let tie = false;
  for (const [line, seen] of known) {
    if (best && seen < best.seen) continue;
    const edit = oneCharacterAway(read, line);
    if (!edit) continue;
    tie = !!best && seen === best.seen;
    if (!tie) best = { seen, edit };
  }
  if (!best || tie) return undefined;
  const { at, remove, insert } = best.edit;
  const word = name.slice(name.lastIndexOf(' ', at - 1) + 1).split(' ')[0]!;
  if (sure?.has(sureWordKey(word))) return undefined;
  // In the case the name prints there: that of the letter changed, or of the one before an added letter.
  const around = remove ? name[at] : (name[at - 1] ?? name[at]);
  return name.slice(0, at) + (/\p{Ll}/u.test(around ?? '') ? insert.toLowerCase() : insert) + name.slice(at + remove);
}

const isLetterOrDigit = (c: string) => /[\p{L}\d]/u.test(c);

/** A line's letters and digits alone, upper case: how two spellings of the same print are told alike. */
export const lettersKey = (text: string) => [...text.toUpperCase()].filter(isLetterOrDigit).join('');

/** The known lines by their letters and digits, each key's spellings most-seen first (built once per map). */
const spellingsIndex = new WeakMap<ReadonlyMap<string, number>, Map<string, [string, number][]>>();

function spellingsOf(known: ReadonlyMap<string, number>): Map<string, [string, number][]> {
  let index = spellingsIndex.get(known);
  if (!index) {
    index = new Map();
    for (const [line, seen] of known) {
      const key = lettersKey(line);
      if (!key) continue;
      const list = index.get(key) ?? [];
      list.push([line, seen]);
      index.set(key, list);
    }
    for (const list of index.values()) list.sort((a, b) => b[1] - a[1]);
    spellingsIndex.set(known, index);
  }
  return index;
}

/**
 * A seller's address read letter for letter and digit for digit as a known line, written with that line's spaces
 * and marks, its letters in the case they were read (`No. 2, Jalan Temenggung 19/9` → `No.2, Jalan …`, `Pelabur 231`
 * → `Pelabur 23/1`, `SETIA ALAM SEKSYEN` → `SETIA ALAM, SEKSYEN`). The known lines hold the addresses other
 * receipts of the seller gave, whole; what the recogniser reads worst in an address is its commas, full stops,
 * slashes and the spaces around them, which a reading alone cannot tell (docs/recognition.md, "Stop 41"). Only a
 * spelling seen at least twice as often as any other of the same letters is taken (a shop's receipts that were
 * written `NO. 1,` five times and `NO.1,` four leave it as read), and only for ten letters and digits or more.
 * Lines of the address are not matched one by one: other receipts' lines are spaced as their print, the address
 * as a whole as the seller's records write it, and the two differ.
 */
export function knownSpelling(address: string, known: ReadonlyMap<string, number>): string | undefined {
  const key = lettersKey(address);
  if (key.length < KNOWN_LINE_MIN_CHARACTERS) return undefined;
  const spellings = spellingsOf(known).get(key);
  const [best, next] = spellings ?? [];
  if (!best || (next && next[1] * 2 > best[1])) return undefined;
  const letters = [...address].filter(isLetterOrDigit);
  if (letters.length !== [...best[0]].filter(isLetterOrDigit).length) return undefined;
  let i = 0;
  const spelt = [...best[0]].map((c) => (isLetterOrDigit(c) ? letters[i++]! : c)).join('');
  return spelt === address ? undefined : spelt;
}

/** The least letters of a name's words after its first, legal forms aside, for `knownFirstWord` to go by. */
const KNOWN_REST_MIN_LETTERS = 12;

/**
 * A name whose first word was misread, by up to two letters, or lost its start (faint print at the line's start:
 * `ng Alaf Restaurants Sdn Bhd`, `embang …`, `UAN HING STATIONERY SDN BHD`), where its other words are, word for
 * word, those of one known line and one only, with as many words: put right to that line's first word, in the case
 * the name prints. Left as read: a first word read with high confidence (`sure`), other words of fewer than twelve
 * letters besides legal forms (`HARDWARE TRADING SDN BHD` is many sellers' rest), and a name whose rest two known
 * lines share. A name so put right is a repair and doubted as one (`nameDoubt`).
 */
export function knownFirstWord(name: string, known: ReadonlyMap<string, number>, sure?: ReadonlySet<string>): string | undefined {
  const words = name.split(' ');
  const first = words[0]!;
  if (words.length < 3 || sure?.has(sureWordKey(first))) return undefined;
  const rest = printedLineKey(words.slice(1).join(' '));
  const restLetters = words.slice(1).filter((w) => !isLegalFormToken(w)).join('');
  if ((restLetters.match(/\p{L}/gu) ?? []).length < KNOWN_REST_MIN_LETTERS) return undefined;
  const read = first.toUpperCase();
  const lines = [...known.keys()].filter((line) => line.endsWith(` ${rest}`) && line.split(' ').length === words.length);
  if (lines.length !== 1) return undefined;
  const word = lines[0]!.split(' ')[0]!;
  if (word === read || !(word.endsWith(read) || levenshtein(read, word, 2) <= 2)) return undefined;
  const titleCase = /\p{Ll}/u.test(words[1]!);
  return [titleCase ? word[0]! + word.slice(1).toLowerCase() : word, ...words.slice(1)].join(' ');
}

/**
 * A word read with at least this confidence is taken as printed. On the development receipts 84.5 % of the
 * English words in the top rows are read with 97 or more, and every word the dictionary repairs change was read
 * with less, 75–96 (`scripts/bench/name-repairs.ts`).
 */
const SURE_CONFIDENCE = 97;

/** A word as `sureWords` holds it: upper case, letters only. */
const sureWordKey = (word: string) => foldDiacritics(word).toUpperCase().replace(/[^A-Z]/g, '');

/**
 * The words of rows read with high confidence, upper case, letters only: a name's words not to repair. A word without
 * letters (`&`, `99`) holds none to keep, and is left out: its empty key would stand for every other such word (a
 * sure `&` kept `8 & BEST RESTAURANT`'s misread `8`).
 */
export function sureWords(rows: Row[]): Set<string> {
  return new Set(
    rows.flatMap((r) => r.words).filter((w) => w.confidence >= SURE_CONFIDENCE).map((w) => sureWordKey(w.text)).filter((key) => key !== ''),
  );
}
