/**
 * Place names an address must hold: the town and state of its postcode. Malaysian postcodes from the
 * `malaysia-postcodes` package (every postcode with its town and state; docs/decisions.md). On OCR readings
 * (never on a document's own text) a town or state name that its postcode names, read a letter off ("SNAH ALAM",
 * "SCLANGOR", "Shah lam"), is written as the postcode says: the postcode is a check on the letters around it.
 * Only the postcode's own names: streets are named after states and flowers ("JALAN PINANG", "BUNGA KANTAN"), so
 * a state name a letter or two away from a word is no evidence by itself.
 */
import { allPostcodes } from 'malaysia-postcodes';
import { confusionVariants, DIGIT_CONFUSIONS, levenshtein } from './text';

interface Place {
  town: string;
  state: string;
}

interface Gazetteer {
  byPostcode: Map<string, Place[]>;
  /** Every word of every town and state name, upper case. */
  placeWords: Set<string>;
}

let gazetteer: Gazetteer | undefined;

/** "Wp Kuala Lumpur" is printed "Kuala Lumpur" (WP: federal territory). */
function stateName(name: string): string {
  return name.replace(/^Wp\s+/i, '').toUpperCase();
}

function places(): Gazetteer {
  if (!gazetteer) {
    const byPostcode = new Map<string, Place[]>();
    const placeWords = new Set<string>();
    for (const state of allPostcodes) {
      for (const city of state.city) {
        for (const code of city.postcode) {
          const ofCode = byPostcode.get(code) ?? [];
          ofCode.push({ town: city.name.toUpperCase(), state: stateName(state.name) });
          byPostcode.set(code, ofCode);
          for (const w of `${city.name} ${stateName(state.name)}`.toUpperCase().split(/\s+/)) placeWords.add(w);
        }
      }
    }
    gazetteer = { byPostcode, placeWords };
  }
  return gazetteer;
}

/** Whether a word (upper case) is a word of a Malaysian town or state name ("PUCHONG", "SHAH"). */
export function isPlaceWord(word: string): boolean {
  return places().placeWords.has(word);
}

/** Towns and states of a Malaysian postcode (upper case); empty when it is none. */
export function placesOfPostcode(code: string): Place[] {
  return places().byPostcode.get(code) ?? [];
}

/** Malay street words: with a Malaysian postcode, an address of Malaysia though its town is abbreviated ("47400 PJ"). */
const MALAY_STREET_WORDS = /\b(JALAN|JLN|TAMAN|TMN|LORONG|PERSIARAN|LEBUH|LEBUHRAYA|KAMPUNG|KG|BANDAR|KAWASAN|SEKSYEN|MEDAN)\b/;

/**
 * Whether an address is in Malaysia: it names the country, or it holds a Malaysian postcode together with that
 * postcode's town or state or a Malay street word. A postcode alone is not enough: five digits are a postcode
 * in many countries.
 */
export function isMalaysianAddress(address: string): boolean {
  const up = address.toUpperCase();
  if (/\bMALAYSIA\b/.test(up)) return true;
  const codes = [...up.matchAll(/(?<!\d)(\d{5})(?!\d)/g)].map((m) => m[1]!);
  return codes.some((code) => {
    const named = placesOfPostcode(code);
    return named.length > 0 && (MALAY_STREET_WORDS.test(up) || named.some((p) => up.includes(p.town) || up.includes(p.state)));
  });
}

/** Letter slips allowed in a place name of this many letters: one, two from eight letters on. */
function allowedSlips(letters: number): number {
  return letters >= 8 ? 2 : 1;
}

/** The name in the case the reading used: upper case, or capitalised words when the reading was not upper case. */
function recased(name: string, asRead: string): string {
  if (asRead === asRead.toUpperCase()) return name;
  return name.toLowerCase().replace(/(^|\s)\p{L}/gu, (m) => m.toUpperCase());
}

/**
 * Puts right the town and state names of an address that its postcodes name, read with a letter or two off.
 * A run of words is replaced only when it is not the name already, is within the slips allowed, starts with the
 * name's first letter and has a word that is no word of any place name (else it is another spelling: "TELUK" for
 * the postcode's "TELOK"); words keep the punctuation around them ("ALAN," → "ALAM,"). A name read with a space
 * inside one of its words ("Sel angor") is closed up.
 */
export function correctPlaceNames(address: string): string {
  const codes = [...address.matchAll(/(?<!\d)(\d{5})(?!\d)/g)].map((m) => m[1]!);
  const names = new Set(codes.flatMap((c) => placesOfPostcode(c).flatMap((p) => [p.town, p.state])));
  // Words, each with the space after it, or none where a comma runs into the next word ("Bahru,Jahor").
  const parts = address.split(/( |(?<=,)(?=\p{L}))/u);
  const tokens = parts.filter((_, k) => k % 2 === 0);
  const gaps = [...parts.filter((_, k) => k % 2 === 1), ''];
  for (const name of names) {
    const size = name.split(' ').length;
    const target = name.replace(/\s/g, '');
    for (let i = 0; i + size <= tokens.length; i++) {
      const window = tokens.slice(i, i + size);
      // Only words: punctuation may stand at the ends of each, digits not at all.
      const cores = window.map((t) => /^([^\p{L}\d]*)(\p{L}+)([^\p{L}\d]*)$/u.exec(t));
      if (cores.some((c) => !c)) continue;
      const asRead = cores.map((c) => c![2]!).join(' ');
      const letters = asRead.toUpperCase().replace(/\s/g, '');
      if (letters === target || letters[0] !== target[0]) continue;
      if (levenshtein(letters, target, allowedSlips(target.length)) > allowedSlips(target.length)) continue;
      // Words that are all place words are another spelling ("TELUK" for "TELOK"), not a misreading.
      if (asRead.toUpperCase().split(' ').every((w) => places().placeWords.has(w))) continue;
      const words = recased(name, asRead).split(' ');
      for (let k = 0; k < size; k++) tokens[i + k] = cores[k]![1] + words[k] + cores[k]![3];
    }
    // One of its words split in two by a space read inside it ("Sel angor"): the same letters, one word more.
    for (let i = 0; i + size + 1 <= tokens.length; i++) {
      const window = tokens.slice(i, i + size + 1);
      const inner = /^([^\p{L}\d]*)(\p{L}+(?: \p{L}+)*)([^\p{L}\d]*)$/u.exec(window.join(' '));
      if (!inner || inner[2]!.toUpperCase().replace(/\s/g, '') !== target) continue;
      const words = (inner[1] + recased(name, inner[2]!) + inner[3]).split(' ');
      tokens.splice(i, size + 1, ...words);
      gaps.splice(i, size + 1, ...words.map((_, k) => (k < words.length - 1 ? ' ' : gaps[i + size]!)));
    }
  }
  return tokens.map((t, k) => t + gaps[k]).join('');
}

/**
 * Puts right a postcode read with one look-alike digit (`DIGIT_CONFUSIONS`): an address prints the town, or the state,
 * after its postcode ("43800 DENGKIL", "69000 PAHANG"), so where the words after a postcode are neither its own town
 * nor its state but the town or state of exactly one postcode a look-alike digit away, that one was printed ("43600
 * DENGKIL": 43600 is Bangi's, 43800 Dengkil's; "59000 PAHANG": 59000 is in Kuala Lumpur, 69000 in Pahang). The
 * place is a check on the postcode's digits, as the postcode is on the place's letters (`correctPlaceNames`).
 */
export function correctPostcodes(address: string): string {
  return address.replace(/(?<!\d)(\d{5})(?!\d)/g, (code, _: string, at: number) => {
    const after = address.slice(at + code.length).toUpperCase().replace(/^[\s,.]+/, '');
    const printedAfter = (name: string) => after.startsWith(name) && !/\p{L}/u.test(after[name.length] ?? '');
    const printed = (p: Place) => printedAfter(p.town) || printedAfter(p.state);
    // Its own town or state (Setapak's 53300 printed "53300 KUALA LUMPUR", the state's name).
    if (placesOfPostcode(code).some(printed)) return code;
    const named = confusionVariants(code, DIGIT_CONFUSIONS, 1).filter((v) => placesOfPostcode(v).some(printed));
    return named.length === 1 ? named[0]! : code;
  });
}
