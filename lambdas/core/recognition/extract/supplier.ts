/**
 * The seller's name and address at the top of a receipt or an invoice without a "Seller" label:
 * name = the top line that reads like a business (legal form, business words, capitals), continued
 * over a broken line; address = the lines after it until a phone / tax number / document line.
 */
import { unionBoxes } from '../geometry';
import type { Box, OcrWord } from '../types';
import { BUSINESS_WORDS, cleanToken, correctBusinessWords, fixLegalForms, isLegalFormToken, leadingLegalForm, legalFormEnd } from './legal';
import { findDates } from './dates';
import { correctMisreadWords, isEnglishWord, joinSplitWords } from './lexicon';
import { findAmounts } from './amounts';
import { buildRow, type Found, type Row } from './rows';
import { collapseSpaces, foldDiacritics, fuzzyEquals, LETTER_FOR_DIGIT, levenshtein, oneSlipFrom } from './text';
import { hasAddressWord, joinAddressLines, repairAddressWords } from './address';
import { KNOWN_LINE_CONFIDENCE, knownFirstWord, knownSpelling, lettersKey, nearestKnownLine, printedLineKey, sureWords } from './known-spellings';

/** Lines that are document furniture, never the seller's name. */
const NOT_A_NAME =
  /\b(tax\s*invoice|invoice|receipt|cash\s*bill|cash\s*sale|bill|order|table|cashier|date|time|tel|fax|phone|gst|vat|reg(istration)?\s*no|company\s*no|co[-\s.]*reg|welcome|thank|official|customer|copy|member|counter|terminal|pvm|s[aą]skaita|kvitas|page|formerly)\b|\b(tq|thanks|goods\s*sold|returnable|refundable|exchangeable|come\s*again)\b/i;

const ADDRESS_WORDS =
  /\b(jalan|jln|lot|no|taman|tmn|lorong|persiaran|bandar|seksyen|section|kawasan|wisma|plaza|kompleks|complex|block|blok|level|floor|basement|flr|tingkat|unit|street|st|road|rd|avenue|ave|lane|suite|building|centre|center|mall|kampung|kg|batu|mukim|g\.?|g\/?f|gatv[eė]|g\.|pr\.|al\.|kel(ias)?|pl\.|km|box|po)\b/i;

/**
 * Lines that end the address: phone, fax, tax and registration numbers, e-mail, web, document titles. A label run
 * into its number ("TEL027010") still counts: the word is not followed by a letter.
 */
const ADDRESS_STOP =
  /(\b(tel|telefon|phone|ph|fax|h\/p|hp|mobile|mob|e-?mail|www|http|gst|sst|vat|pvm|reg\.?\s*no|registration|company\s*(no|reg)|co[-\s.]*reg|roc|tax\s*invoice|invoice|receipt|guest\s*check|cash\s*bill|cash\s*sale|date|cashier|table|order|bill\s*no|doc(ument)?\s*no|counter|member|official)(?![a-z])|@|\b\d{2,4}[-\s]?\d{3,4}[-\s]\d{3,4}\b|\b0\d{1,2}-\d{6,8}\b|\+\d{2,3}[\s-]?\d)/i;

const STATE_OR_COUNTRY =
  /^(malaysia|johor|kedah|kelantan|melaka|malacca|negeri\s*sembilan|pahang|penang|pulau\s*pinang|perak|perlis|sabah|sarawak|selangor(\s*darul\s*ehsan)?|terengganu|kuala\s*lumpur|w\.?\s*p\.?(\s*kuala\s*lumpur)?|wilayah\s*persekutuan|lithuania|lietuva|lietuvos\s*respublika|latvia|estonia|poland|germany)[.,]?$/i;

/** A line's letters and full stops as words, for the state and country names ("47200 SUBANG, SELANGOR." → 3 words). */
function placeWords(line: string): string[] {
  return foldDiacritics(line).replace(/[^A-Za-z.\s]/g, ' ').trim().split(/\s+/);
}

/** Whether a line is a state's or a country's name and nothing else ("SELANGOR DARUL EHSAN", "MALAYSIA."). */
function isStateOrCountry(line: string): boolean {
  return STATE_OR_COUNTRY.test(placeWords(line).join(' '));
}

/** Whether a line ends with a state's or a country's name ("47200 SUBANG SELANGOR", "KUALA LUMPUR, MALAYSIA."). */
function endsWithStateOrCountry(line: string): boolean {
  const words = placeWords(line);
  return words.some((_, k) => STATE_OR_COUNTRY.test(words.slice(k).join(' ')));
}

/**
 * A company registration line, also as OCR misreads it ("C0.REG:704427-T)", "Co-RE: 860671-D", "Co.No. 1 13825-W)",
 * "Companyro;1174703-K"), or a register number with its check letter under a short label however misread
 * ("Co-REi:360671-D").
 */
function registrationLine(text: string): boolean {
  return (
    /\b(c[o0][-\s.]*reg|company\s*(no|reg)|roc)\b/i.test(text) ||
    (/\b(c[o0][-\s.]*re\s*:|c[o0]\.\s*no\b|company\s*[nr]o\s*[;:.])/i.test(text) && digits(text) >= 5) ||
    (COMPANY_NUMBER.test(text) && letters(text.replace(COMPANY_NUMBER, '')) <= 6)
  );
}

/** A company's register number with its check letter ("360671-D", "1203194-W", "002693074-K"). */
const COMPANY_NUMBER = /(?<![\p{L}\d])\d{5,12}-[A-Z](?![\p{L}\d])/u;

const REG_NUMBER_LINE = /^\(?\s*(co\.?\s*(reg\.?)?\s*no\.?\s*:?)?\s*[A-Z]{0,3}\d{4,12}[\s-]*[A-Z]?\s*\)?[.,]?$/i;

function letters(s: string): number {
  return (s.match(/\p{L}/gu) ?? []).length;
}
function digits(s: string): number {
  return (s.match(/\d/g) ?? []).length;
}

function isUpperish(s: string): boolean {
  const l = s.match(/\p{L}/gu) ?? [];
  if (!l.length) return false;
  return l.filter((c) => c === c.toUpperCase()).length / l.length >= 0.8;
}

export function looksLikeAddress(text: string): boolean {
  return (
    (ADDRESS_WORDS.test(text) && digits(text) > 0) ||
    /\b\d{5}\b/.test(text) ||
    /\b(LT|LV|EE|PL)-?\d{4,5}\b/.test(text) ||
    // Street names that start a line: "JALAN LAPANGAN TERBANG", "LORONG 3".
    /^\s*(jalan|jln|lorong|persiaran|lebuh|lebuhraya|taman|tmn|kampung|kg)\b/i.test(text) ||
    // A house number and its comma opening the line ("109, SS21/1A,", "12-A, ").
    /^\s*\d{1,5}[A-Z]?(-\d{1,4}[A-Z]?)?,\s*\S/i.test(text)
  );
}

function tokensOf(text: string): string[] {
  // Tokens without OCR junk ("|", "-", "." standing alone).
  return text.split(/\s+/).filter((t) => t && /[\p{L}\d&]/u.test(t));
}

const NOT_A_NAME_WORDS = ['INVOICE', 'RECEIPT', 'CASHIER', 'WELCOME', 'CUSTOMER', 'MEMBER', 'COUNTER', 'TERMINAL', 'SIMPLIFIED', 'OFFICIAL', 'ORDER'];

/** A bookkeeper's stamp on the receipt, a line of its own ("POSTED" over the seller's name). */
const STAMP_LINE = /^\W*(posted|paid|received|entered)\W*$/i;

/** NOT_A_NAME, also with one OCR slip in a long keyword ("TAX INVQICE"). */
function notAName(text: string): boolean {
  if (NOT_A_NAME.test(text) || STAMP_LINE.test(text)) return true;
  // Words run together by the OCR still name document furniture, also with one slip ("SIMPLIFIEDTAXINYOICE").
  const compact = cleanToken(text.replace(/\s+/g, ''));
  const within = (k: string) => [...Array(Math.max(0, compact.length - k.length + 1)).keys()].some((i) => levenshtein(compact.slice(i, i + k.length), k, 1) <= 1);
  if (compact.length >= 10 && ['INVOICE', 'RECEIPT', 'CASHBILL', 'CASHSALE', 'CASHIER', 'WELCOME', 'THANKYOU'].some(within)) return true;
  return tokensOf(text).some((t) => {
    const u = cleanToken(t);
    return u.length >= 5 && !!oneSlipFrom(u, NOT_A_NAME_WORDS);
  });
}

interface Candidate {
  row: Row;
  score: number;
  strong: boolean;
}

function scoreNameRow(row: Row, pos: number, maxHeight: number): Candidate | undefined {
  const text = row.text;
  const toks = tokensOf(text);
  const l = letters(text);
  if (l < 3) return undefined;
  if (digits(text) > l) return undefined;
  if (findAmounts(text).length) return undefined;
  const legalEnd = legalFormEnd(toks);
  const strong = legalEnd > 0 || leadingLegalForm(toks);
  if (!strong && notAName(text)) return undefined;
  if (findDates(text).length) return undefined;
  if (!strong && looksLikeAddress(text)) return undefined;
  if (!strong && ADDRESS_STOP.test(text)) return undefined;
  let score = 0;
  if (strong) score += 6;
  const business = toks.filter((t) => BUSINESS_WORDS.has(cleanToken(t))).length;
  // Business words make a name, but a line of nothing else ("BISTRO & CAFE") describes the name above it.
  const generic = toks.every((t) => BUSINESS_WORDS.has(cleanToken(t)) || /^(&|and)$/i.test(t));
  if (business && !generic) score += 1.5;
  if (isUpperish(text)) score += 1;
  if (toks.length >= 2) score += 1;
  // Bigger print is usual for the name.
  if (maxHeight > 0) score += (row.box.height / maxHeight) * 2;
  // Earlier lines are likelier, and low-confidence lines are often logos or handwriting.
  score -= Math.min(pos, 4) * 0.6 + Math.max(0, pos - 4) * 0.2;
  if (row.confidence < 60) score -= 1.5;
  if (/[|{}[\]<>=~_*#]/.test(text)) score -= 1;
  if (l < 5 && !strong) score -= 2;
  return { row, score, strong };
}

export interface NameOptions {
  /**
   * Put right what OCR misreads in names: digits for letters ("AE0N"), an opening bracket read as a letter, a speck
   * read as a full stop, spacing around punctuation, legal forms and business and English words a letter off
   * ("8HD", "HARDUARE", "SFEED"). Default true; off for exact text (PDF text layers, office files).
   */
  repairMisreadings?: boolean;
  /** Words of the name (upper case, letters only) read with high confidence: left as read (`sureWords`). */
  sureWords?: ReadonlySet<string>;
  /**
   * Lines of print known from other receipts, as `printedLineKey` writes them, with how many times they were
   * seen: a name whose every line reads as one of them is not doubted for the words the reading was unsure of
   * (`KNOWN_LINE_CONFIDENCE`); a name read one letter away from one is put right to it
   * (`nearestKnownLine`); an address spelt letter for letter as one takes its spaces and marks (`knownSpelling`).
   */
  knownLines?: ReadonlyMap<string, number>;
}


/**
 * Digits read for letters inside words: "D.1.Y." → "D.I.Y.", "AE0N" → "AEON", "TRADIN6" → "TRADING"; a 1 is an L
 * where that makes an English or business word and an I does not ("TOTA1").
 */
function lettersForDigits(name: string): string {
  const known = (w: string) => isEnglishWord(w) || BUSINESS_WORDS.has(w.toUpperCase());
  return name
    .split(' ')
    .map((t) => {
      const letters = (t.match(/\p{L}/gu) ?? []).length;
      const digitCount = (t.match(/\d/g) ?? []).length;
      if (!digitCount || letters <= digitCount || /\d{2,}/.test(t)) return t;
      const read = (one: string) => t.replace(/(?<=[\p{L}.]|^)[01568](?=[\p{L}.]|$)/gu, (d) => (d === '1' ? one : LETTER_FOR_DIGIT[d]!.upper));
      const withI = read('I');
      const withL = read('L');
      const word = (w: string) => w.replace(/[^\p{L}]/gu, '');
      return withL !== withI && known(word(withL)) && !known(word(withI)) ? withL : withI;
    })
    .join(' ');
}

/** Words that say who owns or runs the shop ("OWNED BY", "DIMILIKI OLEH"). */
const OWNER_WORDS = String.raw`own(ed)?\s*by|dimiliki(\s*oleh)?|operated\s*by|managed\s*by`;

/** Those words opening a line, with their colon: the name follows them ("DIMILIKI: BANH MI CAFE SDN BHD"). */
const OWNER_LABEL = new RegExp(String.raw`^(${OWNER_WORDS})\s*[:.]?\s+(?=\S)`, 'i');

/** Removes a registration number and stray characters around a name. */
export function cleanCompanyName(text: string, opts: NameOptions = {}): string {
  const repair = opts.repairMisreadings ?? true;
  // The words that say who owns the shop, on the name's own line ("DIMILIKI: BANH MI CAFE SDN BHD", "OWN BY: …").
  let s = collapseSpaces(text).replace(OWNER_LABEL, '');
  // A shop's number before the name ("#000002 BAIFU (M) SDN BHD").
  s = s.replace(/^#\s*\d+\s+(?=\p{L})/u, '');
  // Registration and tax numbers printed on the same line: "(CO NO. 315481-T) GST NO. 0012...".
  s = s.replace(/\s*[([]?\s*\b(co\.?\s*(no|reg)|company\s*(no|reg)|gst|sst|vat|reg(istration)?\.?\s*no|roc)\b.*$/i, '');
  // Registration numbers printed after the name: "(126926-H)", "(1125830-V)", "1000131-K", "(139386 X)".
  s = s.replace(/\s*[([{]\s*(co\.?\s*(reg\.?)?\s*no\.?\s*:?\s*)?[^)\]}\d\s]{0,3}\d[\d\s\-":.]{3,}\s*-?\s*[A-Z]?\s*["']?\s*[)\]}]?(\s+\S{1,3})?\s*$/i, '');
  s = s.replace(/\s+\d{5,}-?[A-Z]\s*$/i, '');
  // A registration number in brackets ends the name; what follows it names something else ("MYNEWS RETAIL
  // SB(306295-X) FKA BISON STORES SB": a former name).
  s = s.replace(/\s*\(\s*\d{5,}\s*-\s*[A-Z]\s*\)\s+\S.*$/i, '');
  // A registration number run into the name's last word: "bakery o00965911.p".
  s = s.replace(/\s+\S*\d{5,}\S*\s*$/, '');
  s = s.replace(/^[^\p{L}\d("„'&]+/u, '').replace(/[^\p{L}\d).'"“”]+$/u, '');
  // Junk before the name: a stray lower-case letter or symbol from a logo ("i SWC ENTERPRISE").
  s = s.replace(/^(?:[a-z]{1,2}|[^\p{L}\d\s]{1,2}|\p{Lu}[,;:.]|\p{L}{1,2}\.\s?\p{L}?\.)\s+(?=[\p{Lu}\d]{2})/u, '');
  // A lone digit or letter after the name ("PERNIAGAAN RIANG RIA 4"): a speck the reading made a character of, or
  // part of the name ("RESTORAN DE COFFEE O"); exact text keeps it, and a reading that drops it is in doubt.
  if (repair && s.split(' ').length >= 3) s = s.replace(/\s+[\p{L}\d]$/u, '');
  if (repair) s = lettersForDigits(s);
  // A title before the name read with N or H for M, the letter thermal print loses strokes of most ("NR. D.I.Y.").
  if (repair) s = s.replace(/^([NnHh])(?=[Rr][Ss]?\.\s)/, (n) => (n === n.toUpperCase() ? 'M' : 'm'));
  // A closing bracket without an opening one: the opening one was read as a letter ("ISETIA ALAM)").
  if (repair && /\)/.test(s) && !/\(/.test(s)) s = s.replace(/(^|\s)[IlC1|[{](?=\p{Lu}{2,}(?:\s+\S+){0,2}\))/u, '$1(');
  // A registration number in brackets after the name, however the OCR spaced or misread it: "(1 B9386 X)".
  const bracket = /\s*[([{]([^()[\]{}]*)[)\]}]?\s*$/.exec(s);
  if (bracket && (bracket[1]!.match(/\d/g) ?? []).length >= 4 && (bracket[1]!.match(/\p{L}/gu) ?? []).length <= 3) s = s.slice(0, bracket.index);
  // What is left of one after the legal form, its other digits lost: "GARDENIA BAKERIES (KL) SDN BHD (86 X)".
  else if (repair && bracket && /\d/.test(bracket[1]!) && (bracket[1]!.match(/\p{L}/gu) ?? []).length <= 3) {
    const before = tokensOf(s.slice(0, bracket.index));
    if (before.length >= 3 && legalFormEnd(before) === before.length) s = s.slice(0, bracket.index);
  }
  // A bracket opened before the legal form and never closed: its closing one was lost ("BAKERIES (KL SDN BHD").
  if (repair) s = s.replace(/\(([\p{L}\d&.]{1,6})(?=\s+(?:SDN|Sdn|BHD|Bhd|S\/B)\b)(?![^(]*\))/u, '($1)');
  const plain = collapseSpaces(s.replace(/\s+[|]\s+/g, ' ').replace(/(^|\s)_+(?=\S)/g, '$1').replace(/_/g, ' '));
  if (!repair) return plain;
  const repaired = correctMisreadWords(correctBusinessWords(fixLegalForms(joinSplitWords(normalisePunctuationSpacing(plain)))), opts.sureWords);
  if (!opts.knownLines) return repaired;
  return nearestKnownLine(repaired, opts.knownLines, opts.sureWords) ?? knownFirstWord(repaired, opts.knownLines, opts.sureWords) ?? repaired;
}

/**
 * Spacing around punctuation as names are printed: none before a full stop, comma or closing bracket,
 * none after an opening bracket, one before an opening and after a closing bracket ("BAKERIES(KL)SDN BHD"
 * → "BAKERIES (KL) SDN BHD"), legal forms run into the word before them split off ("GROUPSDN BHD"), initials
 * closed up and words split where the case changes.
 */
export function normalisePunctuationSpacing(name: string): string {
  return collapseSpaces(
    name
      .replace(/\s+([.,)\]])/g, '$1')
      .replace(/([([])\s+/g, '$1')
      .replace(/(?<=[\p{L}\d.,])([([])/gu, ' $1')
      .replace(/([)\]])(?=[\p{L}\d])/gu, '$1 ')
      .replace(/(?<=\p{Lu}{2})(SDN\.?)\s*(BHD\.?)$/u, ' $1 $2')
      .replace(/\b(SDN\.?)(BHD\.?)$/u, '$1 $2')
      .replace(/\b(SDN\.)(?=BHD)/giu, '$1 ')
      // Initials close up ("D. I.Y." → "D.I.Y."); a word's full stop is followed by a space ("MR.D." → "MR. D."),
      // but not a web address's ("ECOSWAY.COM SDN BHD").
      .replace(/(?<=(?:^|[\s.(])\p{L})\.\s+(?=\p{L}\.)/gu, '.')
      .replace(/(?<=(?:^|\s)\p{L}{2,})\.(?!(?:COM|NET|ORG|MY|com|net|org|my)\b)(?=\p{L})/gu, '. ')
      // A dash or an ampersand spaced on one side only is spaced on both: "CT281- TEALIVE", "HARDWARE& ELECTRICAL".
      .replace(/(?<=\S)([-–&])(?=\s)|(?<=\s)([-–&])(?=\S)/gu, ' $1$2 ')
      // Words run together where the case changes: "ShellKepong".
      .replace(/(?<=\p{Ll}{2})(?=\p{Lu}\p{Ll}{2})/gu, ' '),
  );
}

export interface SupplierHeader {
  name?: Found;
  address?: Found;
  /** Index of the last row used by the name. */
  nameRows: Row[];
  addressRows: Row[];
}

/** How far above its least sure word a value of several words may be sure. */
const WEAKEST_WORD_MARGIN = 10;

/**
 * A value's confidence from its words': their mean, but no more than the least sure word's + 10. The mean of a
 * long name hides one word the reading doubted (`MR. D.I.T. (M) SDN BHD`, the T read at 78.5 in a name of 95).
 */
function valueConfidence(words: OcrWord[]): number {
  if (!words.length) return 0;
  const mean = words.reduce((s, w) => s + w.confidence, 0) / words.length;
  return Math.min(mean, Math.min(...words.map((w) => w.confidence)) + WEAKEST_WORD_MARGIN);
}

/**
 * The words a value is made of, for its confidence: a word of one character that the value leaves out between its
 * other words (a speck read as a character, `SDN 1 BHD` for a printed `SDN BHD`) is no part of it. A character the
 * value has in its place (a misread one put right: `8 & BEST` as `B & BEST`) still counts, and so does one before or
 * after the value (the name's doubts weigh on those).
 */
function wordsOfValue(words: OcrWord[], value: string): OcrWord[] {
  const wanted = lettersKey(value);
  const joined = (ws: OcrWord[]) => ws.map((w) => lettersKey(w.text)).join('');
  if (!wanted || joined(words).includes(wanted)) return words;
  const speck = (w: OcrWord, k: number) => [...w.text].length === 1 && joined(words.filter((_, n) => n !== k)).includes(wanted);
  const kept = words.filter((w, k) => !speck(w, k));
  return kept.length ? kept : words;
}

/** A value read from rows; its words count with at least `least` confidence (`KNOWN_LINE_CONFIDENCE`). */
function found(rows: Row[], value: string, factor: number, least = 0): Found {
  const words = rows.flatMap((r) => r.words);
  const confidence = valueConfidence(wordsOfValue(words, value).map((w) => (w.confidence < least ? { ...w, confidence: least } : w)));
  return {
    value,
    raw: rows.map((r) => r.text).join(' '),
    page: rows[0]!.page,
    box: unionBoxes(words.map((w) => w.box)),
    confidence: Math.round(confidence * factor * 10) / 10,
  };
}

/** A row with no word read with confidence: specks and torn edges ("2A, |", ". 5 Y."), not part of a name. */
function garbled(row: Row): boolean {
  return !row.words.some((w) => w.confidence >= 60 && /\p{L}{2,}/u.test(w.text));
}

/** Opening brackets less closing ones: positive when a bracket is left open, negative when one closes an earlier one. */
function unclosedBrackets(text: string): number {
  return (text.match(/\(/g) ?? []).length - (text.match(/\)/g) ?? []).length;
}

/** Does the row continue a name broken over two lines? */
function continuesName(prev: Row, row: Row): boolean {
  if (garbled(prev) || garbled(row)) return false;
  const toks = tokensOf(row.text);
  const pt = tokensOf(prev.text);
  if (!pt.length || !toks.length) return false;
  if (notAName(prev.text) || looksLikeAddress(prev.text) || ADDRESS_STOP.test(prev.text)) return false;
  if (notAName(row.text) || looksLikeAddress(row.text) || ADDRESS_STOP.test(row.text) || findDates(row.text).length || findAmounts(row.text).length) return false;
  if (digits(prev.text) > 2 && digits(prev.text) > letters(prev.text) / 3) return false;
  if (!isUpperish(prev.text) && isUpperish(row.text)) return false;
  if (/[&,]$/.test(pt.join(' ')) || /^(&|and|\()/i.test(toks.join(' '))) return true;
  // A bracket opened on the line above and closed on this one: "ENTERPRISE (SETIA" + "ALAM) SDN BHD".
  if (unclosedBrackets(prev.text) > 0 && unclosedBrackets(row.text) < 0) return true;
  // The row holds the legal form and at most one word of name: "OTTOGO ENTERPRISE", "CO. (M) SDN BHD".
  const end = legalFormEnd(toks);
  if (end > 0) {
    const nameWords = toks.slice(0, end).filter((t) => {
      const c = cleanToken(t);
      return c.length > 1 && !isLegalFormToken(t) && !['S/B', 'CO', 'M'].includes(c);
    });
    // A name's lines are printed as one block: a line more than a line's height above stands apart (a
    // handwritten note, a mall's name over the shop's: "TAN WOON YANN" over "YONGFATT ENTERPRISE").
    const gap = row.box.top - (prev.box.top + prev.box.height);
    return nameWords.length <= 1 && gap <= Math.min(row.box.height, prev.box.height) * 1.05;
  }
  return false;
}

/** A row without the stray cells at its ends that hold no word ("7 | LIAN HING ... | |", "... SELANGOR |"). */
export function trimJunkCells(row: Row): Row {
  const alnum = (t: string) => (t.match(/[\p{L}\d]/gu) ?? []).length;
  let first = 0;
  let last = row.cells.length - 1;
  const total = alnum(row.text);
  while (first < last && alnum(row.cells[first]!.text) <= 1 && total - alnum(row.cells[first]!.text) >= 3) first++;
  while (last > first && alnum(row.cells[last]!.text) <= 1 && total - alnum(row.cells[last]!.text) >= 3) last--;
  if (first === 0 && last === row.cells.length - 1) return row;
  const words = row.cells.slice(first, last + 1).flatMap((c) => c.words);
  return buildRow(words, row.page, row.index);
}

/**
 * The left part of a row whose cells stand far apart (two-column headers: the seller on the left,
 * "Invoice No" on the right); the whole row otherwise.
 */
export function leadPart(row: Row): Row {
  if (row.cells.length < 2) return row;
  for (let i = 1; i < row.cells.length; i++) {
    const prev = row.cells[i - 1]!;
    const gap = row.cells[i]!.box.left - (prev.box.left + prev.box.width);
    if (gap <= 0.05) continue;
    const left = row.words.slice(0, row.cells[i]!.first);
    const rightText = row.words.slice(row.cells[i]!.first).map((w) => w.text).join(' ');
    // Only a label/value column on the right ("Invoice No: 1", "Date 01/02/2024", "FREIGHT INVOICE") is cut off.
    const labelLike = /[:#]|\d{3,}/.test(rightText) || NOT_A_NAME.test(rightText);
    if (letters(left.map((w) => w.text).join(' ')) >= 3 && labelLike) return buildRow(left, row.page, row.index);
  }
  return row;
}

/**
 * A name opening with the kind of business a Malaysian registered business name states ("SYARIKAT PERNIAGAAN GIN
 * KEE", "PERNIAGAAN RIANG RIA", "KEDAI PAPAN YEW CHUAN", "RESTORAN WAN SHENG"): the seller's own name, as sure as
 * one with a legal form. Only the name's confidence: a name with a legal form still wins the choice of line.
 */
function businessDesignation(name: string): boolean {
  return /^(syarikat|perniagaan|kedai|restoran)\s+\p{L}/iu.test(foldDiacritics(name));
}

/**
 * A company's registration number as Malaysia's companies register gives it: digits and a check letter
 * ("(002049088-U)", "1125830-V", "(139386 X)"), or any number after a registration label ("CO. REG: 704427-T",
 * "COMPANY NO :256628-W").
 */
const REGISTRATION_NUMBER = /\d{4,12}\s*-?\s*[A-Z](?![\p{L}\d])/iu;

/**
 * Does a registration number follow the name, after it on its last line or alone on the line under it? The
 * register's number is printed with the name it was registered under, so that line names the seller as the books
 * know it, as sure as one with a legal form ("FTOF NOODLE HOUSE" over "(002049088-U)", "LEONG HENG SHELL SERVICE
 * STATION" over "COMPANY NO :256628-W"). A bare number with no check letter (a phone, a tax number) is none.
 */
function registeredName(page1: Row[], nameRows: Row[]): boolean {
  const last = nameRows[nameRows.length - 1]!;
  if (/\d{4,12}\s*-?\s*[A-Z]\s*[)\]]?[.,]?$/i.test(last.text.trim()) && letters(last.text) > 3) return true;
  const next = page1[page1.indexOf(last) + 1];
  if (!next) return false;
  const t = collapseSpaces(next.text);
  return (REG_NUMBER_LINE.test(t) || registrationLine(t)) && REGISTRATION_NUMBER.test(t);
}

/** Do two lines share their left edge, centre or right edge, within two line heights? */
function alignedWith(a: Box, b: Box): boolean {
  const tol = Math.max(a.height, b.height) * 2;
  const l = Math.abs(a.left - b.left);
  const c = Math.abs(a.left + a.width / 2 - (b.left + b.width / 2));
  const r = Math.abs(a.left + a.width - (b.left + b.width));
  return Math.min(l, c, r) <= tol;
}

/** How much less sure a name is for each doubt about it (its confidence is multiplied by this). */
export const NAME_DOUBT = 0.9;

/**
 * A line that names who owns or runs the shop ("OWNED BY …", "DIMILIKI OLEH …", "Franchisee …"): the top holds
 * two sellers, a brand and a company, and which one the books know is a choice.
 */
const OWNERSHIP_LINE = new RegExp(String.raw`\b(${OWNER_WORDS}|franchisee)\b`, 'i');

/**
 * A line that says what the name above it is ("LICENSEE OF MCDONALD'S", "FORMERLY KNOWN AS …", "A MEMBER OF …"):
 * under the seller's name it names a brand, a former name or a group, and the seller is the name above it.
 * Above the seller's name it is a doubt as an owner's line is.
 */
const NAME_ABOVE_LINE = /\b(licensee\s*of|formerly\s*known\s*as|a\s*member\s*of)\b/i;

/** Initials with a full stop after each but the last ("D.I.T"): the last one's stop, or more, was lost. */
const INITIALS_WITHOUT_LAST_STOP = /^(\p{L}\.){2,}\p{L}$/u;

/** A word of one letter, bare or beside one bracket ("K", "(K", "L)"); not an initial ("D.") nor "(M)". */
function loneLetter(token: string): boolean {
  return /^\(?\p{L}\)?$/u.test(token) && !/^\(\p{L}\)$/u.test(token);
}

/**
 * A logo over the name that spells only the name's own words ("ELKEN" + "SERVICE" over "ELKEN SERVICE SDN BHD") names
 * no other seller; nor does one that spells them with the slips a reading makes in a word (`fuzzyEquals`: one in a
 * word of four letters or more, two from eight), since logos are what the recogniser reads worst (`TELKEN` over
 * `ELKEN SERVICE SDN BHD`, `Bers Indepeneeat Gracer` over `BENS INDEPENDENT GROCER SDN. BHD`).
 */
function repeatsName(row: Row, nameText: string): boolean {
  const nameWords = tokensOf(nameText).map(cleanToken);
  const words = tokensOf(row.text).map(cleanToken);
  return words.length > 0 && words.every((w) => w.length > 1 && nameWords.some((n) => fuzzyEquals(w, n)));
}

/**
 * Doubts about a found name that its letters' confidence does not show, each lowering the name's confidence (so
 * the ready rule sends the document to review unless master data or a learnt layout confirms the supplier):
 * - text stands above it (a logo's words, a brand, a branch, a handwritten note): which of them is the seller
 *   as the books know it is a choice, and logos are what the recogniser reads worst. Document furniture above it
 *   (`TAX INVOICE`, `Cash Sale`, `WELCOME`), a bookkeeper's stamp (`POSTED`) or a logo of the name's own words names
 *   no other seller and is no doubt;
 * - the top names a second seller: a line in the letterhead (not a footnote under the seller's address) that says
 *   who owns or runs the shop, the line right under the name
 *   ending in a legal form too (a brand over its company: `AMPHAWA THAI TEA & CO.` over `Dimiliki oleh T PLUS F&B
 *   SDN. BHD.`, also where the owner's words are misread), or, above the name, a line that says what it is;
 * - the name is not as read: the misreading repairs changed its letters or its spacing (a repair is a likely
 *   reading, not a certain one);
 * - on a reading, a letter stands alone in it, or ends initials, with no full stop after it: what is left of a
 *   word split by the reading, or of a mark it lost ("BOOK TA K" printed "BOOK TA .K", "(K L)" printed "(KL)",
 *   "D.I.T" printed "D.I.Y."); a letter joined to a word by "&" is the name's own ("B & BEST", "A & W");
 * - on a reading, its last line ends on "&" with no line found to go on with: the name was cut ("HOME MASTER
 *   HARDWARE &" over an address line that took in "ELECTRICAL");
 * - on a reading, its first word is in small letters before capitalised ones: a name is printed in one case, so the
 *   word's start, which holds its capital, was read wrong or lost (faint or shaded print: "ng Alaf Restaurants Sdn
 *   Bhd" printed "Gerbang Alaf …", every letter read at 97 or more).
 */
function nameDoubt(page1: Row[], nameRows: Row[], addressRows: Row[], nameText: string, opts: NameOptions): number {
  let factor = 1;
  const first = page1.indexOf(nameRows[0]!);
  // Text above the name that could name the seller: not a document title or a stamp (a legal form always could), not
  // the name's own words again.
  const namesAnother = (r: Row) => /\p{L}{2}/u.test(r.text) && !garbled(r) && (!notAName(r.text) || legalFormEnd(tokensOf(r.text)) > 0) && !repeatsName(r, nameText);
  if (page1.slice(0, first).some(namesAnother)) factor *= NAME_DOUBT;
  const afterName = first + nameRows.length;
  const secondSeller = (r: Row, k: number) => k === afterName && legalFormEnd(tokensOf(r.text)) > 0 && !garbled(r);
  // An owner's line in the letterhead, above the seller's address or with no address found, names a second seller; one
  // under the address, among the contacts and the tax number ("OWNED BY :" over "SANYU SUPPLY SDN BHD"), is the
  // footnote saying which company trades under the name at the head.
  const addressEnd = addressRows.length ? page1.indexOf(addressRows[addressRows.length - 1]!) : -1;
  const owner = (r: Row, k: number) => OWNERSHIP_LINE.test(r.text) && !(addressEnd >= 0 && k > addressEnd);
  if (page1.slice(0, first + 14).some((r, k) => owner(r, k) || (k < afterName && NAME_ABOVE_LINE.test(r.text)) || secondSeller(r, k))) factor *= NAME_DOUBT;
  if (opts.repairMisreadings !== false) {
    const words = nameText.split(' ');
    const joinedByAmpersand = (k: number) => words[k - 1] === '&' || words[k + 1] === '&';
    if (words.some((t, k) => (loneLetter(t) && !joinedByAmpersand(k)) || INITIALS_WITHOUT_LAST_STOP.test(t))) factor *= NAME_DOUBT;
    if (/^\p{Ll}+$/u.test(words[0]!) && words.slice(1).some((t) => /^\p{Lu}/u.test(t))) factor *= NAME_DOUBT;
    const asRead = cleanCompanyName(nameRows.map((r) => r.text).join(' '), { ...opts, repairMisreadings: false });
    // A lone character after the name left out: a speck, or the name's own last letter.
    const lone = /\s([\p{L}\d])$/u.exec(asRead);
    if (lone && !collapseSpaces(nameText).endsWith(` ${lone[1]}`)) factor *= NAME_DOUBT;
    // A name whose last line ends on "&" goes on where no line was found to go on with ("HOME MASTER HARDWARE &").
    if (/(^|\s)&$/.test(nameRows[nameRows.length - 1]!.text.trim())) factor *= NAME_DOUBT;
    // Words after the legal form left out (stamps, branches) are not a repair.
    if (!collapseSpaces(asRead).toUpperCase().startsWith(collapseSpaces(nameText).toUpperCase())) factor *= NAME_DOUBT;
  }
  return factor;
}

/**
 * Finds the seller's name and address in the top part of the first page.
 * `start`/`end` limit the rows considered (e.g. the block under a "Seller" label).
 */
export function extractSupplierHeader(rows: Row[], opts: { maxRows?: number } & NameOptions = {}): SupplierHeader {
  const page1 = rows.filter((r) => r.page === rows[0]?.page).map((r) => trimJunkCells(leadPart(r)));
  const top = page1.slice(0, opts.maxRows ?? 14);
  if (!top.length) return { nameRows: [], addressRows: [] };
  const maxHeight = Math.max(...top.map((r) => r.box.height));
  const cands = top.map((r, i) => scoreNameRow(r, i, maxHeight)).filter((c): c is Candidate => !!c);
  // The name comes before the address: a candidate below the first address line is likely an owner
  // ("OWNED BY ... SDN BHD") or a slogan.
  const firstAddress = top.findIndex((r) => looksLikeAddress(r.text) && legalFormEnd(tokensOf(r.text)) < 0);
  if (firstAddress >= 0) {
    for (const c of cands) if (top.indexOf(c.row) > firstAddress) c.score -= 5;
  }
  if (!cands.length) return { nameRows: [], addressRows: [] };
  // A legal form is the best evidence; among rows with one, the earliest wins.
  const best = cands.reduce((a, b) => (b.score > a.score ? b : a));

  let nameRows = [best.row];
  let i = page1.indexOf(best.row);
  // Upwards: the first part of a broken name.
  while (i > 0 && nameRows.length < 3 && continuesName(page1[i - 1]!, page1[i]!)) {
    nameRows = [page1[i - 1]!, ...nameRows];
    i--;
  }
  // Downwards: "POPULAR BOOK" + "CO. (M) SDN BHD", "HOME MASTER HARDWARE &" + "ELECTRICAL".
  let j = page1.indexOf(best.row);
  while (j + 1 < page1.length && nameRows.length < 3) {
    const next = page1[j + 1]!;
    const cur = page1[j]!;
    const curHasForm = legalFormEnd(tokensOf(cur.text)) === tokensOf(cur.text).length;
    if (curHasForm && !/[&\-]$/.test(cur.text.trim())) break;
    if (!continuesName(cur, next) && !(legalFormEnd(tokensOf(next.text)) > 0 && !best.strong && !looksLikeAddress(next.text) && !NOT_A_NAME.test(next.text) && tokensOf(next.text).length <= 4)) break;
    nameRows.push(next);
    j++;
  }
  let nameText = cleanCompanyName(nameRows.map((r) => r.text).join(' '), { ...opts, sureWords: sureWords(nameRows) });
  // Words after the legal form are stamps or branch names ("YONG CEN ENTERPRISE POSTED").
  const nameTokens = nameText.split(' ').filter(Boolean);
  const formEnd = legalFormEnd(nameTokens);
  if (formEnd > 0 && nameTokens.length - formEnd <= 2 && !/^\(/.test(nameTokens[formEnd] ?? '')) nameText = nameTokens.slice(0, formEnd).join(' ');

  // Address: after the name, skipping registration numbers and brand lines, until a stop line.
  const after = page1.slice(page1.indexOf(nameRows[nameRows.length - 1]!) + 1);
  const addressRows: Row[] = [];
  let started = false;
  let sawPostcode = false;
  let sawState = false;
  const nameBox = unionBoxes(nameRows.map((r) => r.box));
  for (let k = 0; k < after.length && k < 10; k++) {
    const r = after[k]!;
    // Read with the address's glyph slips undone ("1OT 6, JA1AN", "IEVEL 6", "REG. N0:").
    const t = collapseSpaces(opts.repairMisreadings === false ? r.text : repairAddressWords(r.text));
    // A speck read as a line of one character ("L") between two address lines is no line of it.
    if (started && (t.match(/[\p{L}\d]/gu) ?? []).length < 2) continue;
    // The address stands in the name's column.
    if (r.box.left > nameBox.left + nameBox.width || r.box.left + r.box.width < nameBox.left) {
      if (started) break;
      continue;
    }
    if (!started) {
      if (REG_NUMBER_LINE.test(t) || registrationLine(t)) continue;
      // A line wholly in brackets before the address ("(MUTIARA RINI 16)") names the branch, not where it is.
      if (/^\(.*\)$/.test(t)) continue;
      if (ADDRESS_STOP.test(t)) {
        if (k < 3) continue;
        break;
      }
      // A line of words right above the first address line opens the address: right under the name any such line
      // (a street or place without a number), further down one that names a place (a mall, a building: "PARADIGM
      // MALL" over "LOT NO.: 4F-27").
      const leads = !!after[k + 1] && looksLikeAddress(after[k + 1]!.text) && !tokensOf(t).some((x) => BUSINESS_WORDS.has(cleanToken(x))) && letters(t) > 3;
      if (looksLikeAddress(t) || (leads && (k === 0 || ADDRESS_WORDS.test(t)))) {
        started = true;
      } else if (k < 5) continue;
      else break;
    } else {
      if (ADDRESS_STOP.test(t) || REG_NUMBER_LINE.test(t) || findAmounts(t).length) break;
      // After the postcode line only short place lines follow (state, country, branch).
      if (sawPostcode && tokensOf(t).length > 5 && !isStateOrCountry(t)) break;
      // The state or the country closes the address: a line after it goes on only naming a place (a mall, a
      // branch's number, a state's honorific run together: "DARULEHSAN"), not a dealer's or an operator's name
      // ("SELANGOR" + "D'ROSH SERVPORT").
      if (sawState && !digits(t) && !ADDRESS_WORDS.test(t) && !hasAddressWord(joinAddressLines([t]))) break;
      // A line far below the previous one starts another block.
      const prev = addressRows[addressRows.length - 1]!;
      if (r.box.top - (prev.box.top + prev.box.height) > prev.box.height * 1.6) break;
      // The address's lines share an alignment (left, centre or right); a line under it with none of them starts
      // another block ("NO7,JLN UERO,SHAH ALAM." centred, then the first item at the left margin). A line read in
      // two pieces counts as one.
      const below = r.box.top > prev.box.top + prev.box.height / 2;
      const prevLine = unionBoxes(addressRows.filter((a) => Math.abs(a.box.top - prev.box.top) < prev.box.height / 2).map((a) => a.box));
      if (below && !alignedWith(prevLine, r.box)) break;
    }
    addressRows.push(r);
    if (/\b\d{5}\b/.test(t) && !/\b\d{6,}\b/.test(t)) sawPostcode = true;
    if (sawPostcode && endsWithStateOrCountry(t)) sawState = true;
    if (addressRows.length >= 6) break;
  }
  const addrRead = joinAddressLines(addressRows.map((r) => r.text), opts.repairMisreadings === false).replace(/^[^\p{L}\d]+/u, '');
  const addrText = (opts.knownLines && knownSpelling(addrRead, opts.knownLines)) ?? addrRead;
  const address = addressRows.length && addrText ? found(addressRows, addrText, 0.9) : undefined;
  // The letterhead's layout names the seller too: the name, and right under it the address of two lines or more to
  // its postcode. A line between them (a branch, a slogan, a phone) leaves whose name it is open.
  const headsAddress = addressRows.length >= 2 && sawPostcode && page1.indexOf(addressRows[0]!) === page1.indexOf(nameRows[nameRows.length - 1]!) + 1;
  const named = best.strong || businessDesignation(nameText) || registeredName(page1, nameRows) || headsAddress;
  const known = !!opts.knownLines && nameRows.every((r) => opts.knownLines!.has(printedLineKey(r.text)));
  const factor = (named ? 1 : 0.8) * nameDoubt(page1, nameRows, addressRows, nameText, opts);
  const name = nameText ? found(nameRows, nameText, factor, known ? KNOWN_LINE_CONFIDENCE : 0) : undefined;
  return { name, address, nameRows, addressRows };
}
