/**
 * Which OCR languages a page needs. The first reading is English only (half the time of English plus
 * Lithuanian, and as good on Latin-script receipts); a page whose English reading shows Lithuanian
 * words or identifiers is read again with the Lithuanian model too, so names keep their letters
 * (ą č ę ė į š ų ū ž).
 */
import { foldDiacritics } from './text';

/** Words (folded to ASCII, upper case) that Lithuanian receipts and invoices print. */
const LITHUANIAN_WORDS = [
  'PVM', 'UAB', 'KVITAS', 'SUMA', 'VISO', 'MOKETI', 'MOKEJIMAS', 'GRAZA', 'GRYNAIS', 'KORTELE', 'KASININKAS',
  'KASA', 'PIRKIMO', 'SASKAITA', 'SASKAITOS', 'FAKTURA', 'FAKTUROS', 'SERIJA', 'PREKE', 'PREKES', 'KIEKIS',
  'KAINA', 'NUOLAIDA', 'TARPINE', 'APMOKETI', 'PARDAVEJAS', 'PIRKEJAS', 'IMONES', 'KODAS', 'ADRESAS', 'DATA',
  'LIETUVA', 'VILNIUS', 'KAUNAS', 'KLAIPEDA', 'SIAULIAI', 'PANEVEZYS', 'GATVE', 'PREKYBA', 'PASLAUGOS',
];
const WORD_SET = new Set(LITHUANIAN_WORDS);
/** A Lithuanian VAT ID (LT + 9 or 12 digits). */
const LT_VAT = /\bLT\s?(\d{9}|\d{12})\b/;

/** Distinct Lithuanian cues in a text: cue words, Lithuanian letters, LT VAT IDs. */
export function lithuanianCues(text: string): number {
  const cues = new Set<string>();
  if (/[ąčęėįšųūž]/i.test(text)) cues.add('letters');
  if (LT_VAT.test(text.toUpperCase())) cues.add('vat');
  for (const w of foldDiacritics(text).toUpperCase().split(/[^A-Z]+/)) if (WORD_SET.has(w)) cues.add(w);
  return cues.size;
}

/** Two distinct cues: one alone ("DATA", "KASA") also appears on English receipts. */
export function looksLithuanian(text: string): boolean {
  return lithuanianCues(text) >= 2;
}
