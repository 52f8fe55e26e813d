/**
 * The seller's address lines joined as printed. The text recogniser, reading small print, reads commas as
 * full stops and runs words together ("JALANHARMONI", "Seksyen25"). On OCR readings (never on
 * a document's own text) those are undone:
 * - a full stop right after a number and before the next word or number is a comma ("NO 290. JALAN",
 *   "BATU 5.51200"), and so is one after a word before the next word or the postcode ("TAMAN SERDANG RAYA.
 *   43300"): addresses separate their parts with commas, and a comma's tail is what thin print loses;
 * - a space between an address word that takes a number and that number ("Seksyen25", "Lot6", "Batu5");
 * - a run-together word split where it starts with a common address word and the rest is a word of its own
 *   ("JALANHARMONI", "BANDARSETIA", "DARULEHSAN").
 * - a digit read for a letter inside a word ("L0T", "N0.", "Ja1an", "ANG5A"), a letter O inside a number
 *   ("400O0"), a capital I for an l after a word's capital ("JIn", "BIk") and a lower-case l for the capital I
 *   before a consonant at a word's start ("lpoh"), a capitals word's last letter read in lower case ("BAHRu"):
 *   glyphs that look alike, told apart by the characters around them.
 * - the town and state of the address's postcode read a letter or two off ("SNAH ALAM", "SCLANGOR"), written as
 *   the postcode names them (`places.ts`);
 * - a digit, a mark or a look-alike letter in a word where that makes a known word ("5HAH", "JA:AN", "TANAN",
 *   "JIN"), an F between consonants ("SFTIA"): the recogniser's usual confusions (`npm run bench:ocr-confusions`).
 * Commas are left spaced as read: addresses print both "7/4,KAWASAN" and "290, JALAN", and putting a space after
 * every comma lost more addresses read right than it won (docs/recognition.md).
 */
import { isEnglishWord, joinSplitWords } from './lexicon';
import { correctPlaceNames, correctPostcodes, isPlaceWord } from './places';
import { collapseSpaces, eForF, fixDigits, inCaseOf, LETTER_FOR_DIGIT, levenshtein } from './text';

/** Words of street addresses (Malaysian and English) that are printed before a name or a number. */
const LEADING_WORDS = [
  'JALAN',
  'TAMAN',
  'BANDAR',
  'DESA',
  'KAWASAN',
  'PERINDUSTRIAN',
  'PERSIARAN',
  'LORONG',
  'LEBUH',
  'LEBUHRAYA',
  'KAMPUNG',
  'SEKSYEN',
  'BUKIT',
  'PUSAT',
  'PLAZA',
  'WISMA',
  'KOMPLEKS',
  'BANGUNAN',
  'DARUL',
  'KUALA',
  'JOHOR',
  'PETALING',
  'SHAH',
  'SERI',
  'NEGERI',
  'PULAU',
  'SUNGAI',
  'SIMPANG',
  'MEDAN',
  'ANGKASA',
  'INDUSTRI',
];

/** Address words that take a number right after them ("SEKSYEN 25", "LOT 6", "BATU 5"). */
const NUMBERED_WORDS = /\b(SEKSYEN|SECTION|LOT|BATU|JALAN|JLN|LORONG|BLOK|BLOCK|LEVEL|TINGKAT|FLOOR|PERSIARAN|LEBUH|KM)(?=\d)/gi;
/** One of those words run into its one-digit number ("SEKSYEN1"). */
const TAKES_A_NUMBER = new RegExp(`^${NUMBERED_WORDS.source}\\d$`, 'i');

/** Splits a run-together word that starts with an address word and goes on with a word of at least 4 letters. */
function splitLeadingWord(token: string): string {
  const upper = token.toUpperCase();
  if (!/^[A-Z]+$/i.test(token)) return token;
  for (const w of LEADING_WORDS) {
    if (upper.startsWith(w) && upper.length - w.length >= 4 && /^[A-Z]{4,}/.test(upper.slice(w.length))) {
      return `${token.slice(0, w.length)} ${token.slice(w.length)}`;
    }
  }
  return token;
}

/**
 * Look-alike glyphs in one run of letters and digits: a word with one digit that looks like a letter (0 anywhere in
 * it; 1, 5 and 8 only between letters of a word of three letters or more, so "G5B" or "U13" stay, 6 between letters
 * of a word of five, so "PJU6A" stays; 5 and 8 also at the start of a word of four capitals or more, 1 and 5 at its
 * end unless the word is one that takes a number), a number with
 * the letter O inside, a capital I or a lower-case l where the word's case shows the other, a lower-case last
 * letter of a word in capitals, a number of three digits or more with one letter inside it that looks like a digit.
 */
function repairLookAlikes(run: string): string {
  const digits = run.match(/\d/g) ?? [];
  const letters = run.match(/\p{L}/gu) ?? [];
  if (digits.length === 1 && letters.length >= 1) {
    const at = run.search(/\d/);
    const d = run[at]!;
    const before = run[at - 1] ?? '';
    const after = run[at + 1] ?? '';
    const between = /\p{L}/u.test(before) && /\p{L}/u.test(after);
    // A 5 or an 8 at the start of a word of four letters or more in capitals ("5ELANGOR", "8ANDAR"; not "1ST").
    const leading = at === 0 && '58'.includes(d) && /^\d\p{Lu}{4,}$/u.test(run);
    // A 1 or a 5 at the end of one, unless the word takes a number ("TAMPO1", "HEIGHT5"; not "SEKSYEN1").
    const trailing = at === run.length - 1 && '15'.includes(d) && /^\p{Lu}{4,}\d$/u.test(run) && !TAKES_A_NUMBER.test(run);
    const inside = between && ((letters.length >= 3 && '158'.includes(d)) || (letters.length >= 5 && d === '6'));
    const lower = /\p{Ll}/u.test(before + after);
    // A digit in a word of letters, where one letter it looks like makes a known word ("5HAH", "6ROUND", "MA1AYSIA",
    // "1UMPUR", "J1N"), anywhere in the word.
    if (letters.length >= 2) {
      const known = (LETTERS_FOR_DIGIT[d] ?? [])
        .map((l) => run.slice(0, at) + (lower ? l.toLowerCase() : l) + run.slice(at + 1))
        .filter(knownAddressWord);
      if (known.length === 1) return known[0]!;
    }
    // A word ending in N and a 6 ends in NG, the commonest ending of Malay and Chinese place names ("KEPON6").
    if (d === '6' && at === run.length - 1 && /^\p{Lu}{2,}N6$/u.test(run)) return `${run.slice(0, -1)}G`;
    if (d === '0' || inside || leading || trailing) {
      const pair = LETTER_FOR_DIGIT[d];
      if (pair) return run.slice(0, at) + (lower ? pair.lower : pair.upper) + run.slice(at + 1);
    }
    return run;
  }
  if (!letters.length) return run;
  if (digits.length >= 2 && /^[\dOo]+$/.test(run)) return run.replace(/[Oo]/g, '0');
  // One letter inside a number of three digits or more, where a digit looks like it ("2B11", "15S8").
  if (letters.length === 1 && digits.length >= 3 && /^\d+\p{L}\d+$/u.test(run)) return fixDigits(run);
  // A word in capitals whose last letter was read in lower case ("BAHRu", "JAYa"; not a plural "ATMs"); three
  // letters are too few to tell it from a capital I read for an l ("BIk" is "Blk").
  if (/^\p{Lu}{3,}[^\P{Ll}s]$/u.test(run)) return run.toUpperCase();
  return run.replace(/^(\p{Lu})I(?=\p{Ll})/u, '$1l').replace(/^l(?=[bcdfghjkmnpqrstvwxz])/, 'I');
}

/**
 * Words of addresses that are not street names: parts of a building and a place, directions and the country
 * (Malay and English).
 */
const ADDRESS_PART_WORDS = [
  'MUKIM',
  'DAERAH',
  'WILAYAH',
  'PERSEKUTUAN',
  'PEKAN',
  'PASAR',
  'UTAMA',
  'INDAH',
  'UTARA',
  'SELATAN',
  'TIMUR',
  'BARAT',
  'TENGAH',
  'BESAR',
  'LEVEL',
  'FLOOR',
  'GROUND',
  'CENTRE',
  'SQUARE',
  'STATION',
  'VILLAGE',
  'HEIGHTS',
  'TOWER',
  'MALAYSIA',
  'SINGAPORE',
  // The states and their honorifics: "SELANGOR DARUL EHSAN", "JOHOR DARUL TAKZIM".
  'JOHOR',
  'KEDAH',
  'KELANTAN',
  'MELAKA',
  'PAHANG',
  'PERAK',
  'PERLIS',
  'PENANG',
  'PINANG',
  'SABAH',
  'SARAWAK',
  'SELANGOR',
  'TERENGGANU',
  'PUTRAJAYA',
  'LABUAN',
  'EHSAN',
  'TAKZIM',
  'MAKMUR',
  'RIDZUAN',
  'KHUSUS',
];

/** Address words a word of five letters or more may be a letter or two off from. */
const ADDRESS_VOCABULARY = [...LEADING_WORDS, ...ADDRESS_PART_WORDS].filter((w) => w.length >= 5);

/** The letters each digit is read for. */
const LETTERS_FOR_DIGIT: Readonly<Record<string, string[]>> = { '0': ['O'], '1': ['I', 'L'], '5': ['S'], '6': ['G', 'B'], '8': ['B'] };

/**
 * Abbreviations and short words of Malaysian addresses that are no place word of the postcode package (which
 * holds `JAYA`, `BARU`, `BATU`): street, garden, town, village, river, lot, block, floor, level, section; `SRI`;
 * `RAYA`; the honorifics of Kelantan, Terengganu and Kedah.
 */
const SHORT_ADDRESS_WORDS = ['JLN', 'TMN', 'BDR', 'KG', 'SG', 'LOT', 'BLK', 'FLR', 'LVL', 'SEK', 'SRI', 'RAYA', 'NAIM', 'IMAN', 'AMAN'];

const KNOWN_ADDRESS_WORDS = new Set([...LEADING_WORDS, ...ADDRESS_PART_WORDS, ...SHORT_ADDRESS_WORDS]);

/** Whether a line holds a word of street addresses ("JALAN", "TMN", "LEVEL", "SELANGOR"): a line of an address. */
export function hasAddressWord(line: string): boolean {
  return (line.toUpperCase().match(/\p{L}+/gu) ?? []).some((w) => KNOWN_ADDRESS_WORDS.has(w));
}

/** An address, place or English word (any case). */
function knownAddressWord(word: string): boolean {
  const up = word.toUpperCase();
  return KNOWN_ADDRESS_WORDS.has(up) || isPlaceWord(up) || isEnglishWord(up);
}

/** A word with a mark inside it, two letters or more on each side. */
const GLYPH_IN_WORD = /(?<![\p{L}\d])\p{L}{2,}[:_|!)]\p{L}{2,}(?![\p{L}\d])/gu;

/** The letters a mark inside a word stands for: the parts of them thin print kept. */
const LETTERS_FOR_GLYPH: Readonly<Record<string, string>> = { ':': 'LI', _: 'L', '|': 'IL', '!': 'IL', ')': 'D' };

/** A mark read for a letter inside a word ("JA:AN", "JA_AN", "PERIN)USTRIAN"): the letter that makes a known word. */
function letterForGlyph(token: string): string {
  const at = token.search(/[^\p{L}]/u);
  const lower = token === token.toLowerCase();
  const known = [...(LETTERS_FOR_GLYPH[token[at]!] ?? '')]
    .map((l) => token.slice(0, at) + (lower ? l.toLowerCase() : l) + token.slice(at + 1))
    .filter(knownAddressWord);
  return known.length === 1 ? known[0]! : token;
}

/**
 * The glyph slips of one address line undone, digits for letters and letters for look-alike letters ("1OT 6,
 * JA1AN BATAI" → "LOT 6, JALAN BATAI", "IEVEL 6" → "LEVEL 6"): what the line says, to tell an address line.
 */
export function repairAddressWords(line: string): string {
  return line
    .replace(/[\p{L}\d]+/gu, repairLookAlikes)
    .replace(GLYPH_IN_WORD, letterForGlyph)
    .replace(/(?<![\p{L}\d])\p{L}{2,}(?![\p{L}\d])/gu, correctAddressWord);
}

/** Letters print and OCR confuse with one another. */
const LOOK_ALIKE_LETTERS = ['MNH', 'IL', 'TI', 'ODQ', 'OC', 'UV', 'CG', 'EF', 'PF'];

/** Do the two words of one length differ in one letter only, a look-alike one ("TANAN"/"TAMAN", "JAIAN"/"JALAN")? */
function lookAlikeSlip(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  const diffs = [...a].flatMap((c, i) => (c === b[i] ? [] : [[c, b[i]!]]));
  return diffs.length === 1 && LOOK_ALIKE_LETTERS.some((set) => set.includes(diffs[0]![0]!) && set.includes(diffs[0]![1]!));
}

/**
 * An address word read a letter off, in the case it was read in:
 * - three letters: the one address abbreviation it is a look-alike letter from ("JIN" → "JLN");
 * - an F between consonants read as the E it lost a bar of ("SFTIA");
 * - four letters: the one known word it is a look-alike letter from ("DFSA" → "DESA"), failing one the one address
 *   word it is with a narrow or a twin letter put back ("FLOR" → "FLOOR");
 * - five letters or more: the one address word it is a look-alike letter from ("TANAN", "NALAYSIA"), or a letter off
 *   after the same first letter from six letters on, two from ten ("Perindustrlan", "Kawassn"); failing one, the
 *   one place or English word it is a look-alike letter from ("FUSAT" → "PUSAT", "FESTIUAL").
 * Known words ("INDUSTRIES" is not "INDUSTRI"), two-letter words, words in mixed case, and words near none or more
 * than one stay.
 */
function correctAddressWord(token: string): string {
  let up = token.toUpperCase();
  // Only words in one case or capitalised ("ATMs" is an abbreviation's plural).
  if (knownAddressWord(up) || !/^(\p{Lu}+|\p{Ll}+|\p{Lu}\p{Ll}+)$/u.test(token)) return token;
  // Abbreviations of three letters: only to one of the address's own ("JIN" → "JLN", "IOT" → "LOT"); two letters are
  // too few to tell ("SC", a shopping centre, is no "SG").
  if (up.length < 3) return token;
  if (up.length === 3) {
    const near = lookAlikeWords(up).filter((w) => SHORT_ADDRESS_WORDS.includes(w));
    return near.length === 1 ? inCaseOf(near[0]!, token) : token;
  }
  const withE = eForF(up);
  if (withE !== up) {
    token = inCaseOf(withE, token);
    up = withE;
    if (knownAddressWord(up)) return token;
  }
  if (up.length === 4) {
    const near = lookAlikeWords(up);
    if (!near.length) near.push(...lostLetterWords(up));
    return near.length === 1 ? inCaseOf(near[0]!, token) : token;
  }
  const slips = up.length >= 10 ? 2 : 1;
  const near = ADDRESS_VOCABULARY.filter(
    (w) =>
      // One look-alike letter, the first too ("NALAYSIA"); else other slips after the same first letter.
      lookAlikeSlip(up, w) ||
      (w[0] === up[0] &&
        Math.abs(w.length - up.length) <= slips &&
        levenshtein(up, w, slips) <= slips &&
        // Five letters leave names a letter from an address word ("TAMAR"): only a look-alike letter counts there.
        up.length >= 6),
  );
  // Town names and English words are many: only one look-alike letter counts there ("FUSAT" → "PUSAT", "NALL").
  if (!near.length) near.push(...lookAlikeWords(up));
  if (near.length !== 1) return token;
  return inCaseOf(near[0]!, token);
}

/**
 * The address words a word of four letters is with a letter the reading lost: a narrow I or L, or one of two same
 * letters ("FLOR" → "FLOOR", "WSMA" → "WISMA").
 */
function lostLetterWords(up: string): string[] {
  const found = new Set<string>();
  for (let i = 0; i <= up.length; i++) {
    const twins = [up[i - 1], up[i]].filter((c): c is string => !!c);
    for (const c of new Set(['I', 'L', ...twins])) {
      const candidate = up.slice(0, i) + c + up.slice(i);
      if (ADDRESS_VOCABULARY.includes(candidate)) found.add(candidate);
    }
  }
  return [...found];
}

/** The known words (address, place, English) one look-alike letter from a word (upper case). */
function lookAlikeWords(up: string): string[] {
  const found = new Set<string>();
  for (let i = 0; i < up.length; i++) {
    for (const set of LOOK_ALIKE_LETTERS) {
      if (!set.includes(up[i]!)) continue;
      for (const other of set) {
        const candidate = up.slice(0, i) + other + up.slice(i + 1);
        if (other !== up[i] && knownAddressWord(candidate)) found.add(candidate);
      }
    }
  }
  return [...found];
}

/** One address text from its printed lines (`exact`: the document's own text, taken as written). */
export function joinAddressLines(lines: string[], exact = false): string {
  // A postcode run into the town ("81100JOHOR BAHRU") is set apart.
  let text = collapseSpaces(lines.join(' ')).replace(/(?<![\p{L}\d])(\d{5})(?=\p{L}{3})/gu, '$1 ');
  if (exact) return text;
  text = text
    .replace(/[\p{L}\d]+/gu, repairLookAlikes)
    .replace(GLYPH_IN_WORD, letterForGlyph)
    // A full stop after a house or postcode number before the next part is a comma read as a full stop.
    .replace(/(?<=\d)\.\s*(?=\p{L}|\d{5}\b)|(?<=\d)\.\s+(?=\d)/gu, ', ')
    .replace(/(?<=\p{L}{3})\.\s*(?=\p{L}{2}|\d{5}\b)/gu, ', ')
    .replace(NUMBERED_WORDS, '$1 ')
    // A comma set apart by spaces on both sides ("JALAN KPB 6 , KAWASAN") is written against the word before it.
    .replace(/\s+,(?=\s|$)/g, ',');
  text = collapseSpaces(text.replace(/(?<!\p{L})\p{L}{8,}(?!\p{L})/gu, splitLeadingWord));
  const words = text.replace(/(?<![\p{L}\d])\p{L}{2,}(?![\p{L}\d])/gu, correctAddressWord);
  return joinSplitWords(correctPlaceNames(correctPostcodes(words)));
}
