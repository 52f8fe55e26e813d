/**
 * A second look at the names a reading of an image is sure of. The seller's (or buyer's) name is what keeps most
 * receipts from `ready`, and a name read wrong with confidence goes to `ready` wrong: a first letter misread in
 * bold print (`Derbang` for `Gerbang`) is read with as much confidence as the right one. Read again from other cuts
 * of the same line (a little taller, shorter, wider), a reading that rests on the print stays the same; one that
 * rests on what the cut clipped or took in from the lines around it changes. A name sure enough for `ready`, with a
 * word the recogniser was less sure of (`worthASecondLook`), whose reading does not hold under two of three other
 * cuts gets a doubt, as the extraction's own doubts about names (`NAME_DOUBT`). The adapter reads the cuts; the rule
 * is here.
 */
import { READY_CONFIDENCE } from '../documents/content';
import type { Extraction } from './extract';
import type { Found } from './extract/rows';
import { NAME_DOUBT } from './extract/supplier';
import type { OcrLine, OcrPage, OcrWord } from './types';

/** The fields that name a party, as `ready` requires one of them. */
export const NAME_FIELDS = ['supplier_name', 'customer_name'] as const;
export type NameField = (typeof NAME_FIELDS)[number];

/** The names sure enough for `ready`: the only ones a second look can change anything for. */
export function namesToLookAt(extraction: Extraction): { field: NameField; found: Found }[] {
  return NAME_FIELDS.flatMap((field) => {
    const found = extraction.fields[field];
    return found && found.confidence >= READY_CONFIDENCE ? [{ field, found }] : [];
  });
}

/** Letters, digits and marks only: the cuts may space a line otherwise, and case is no misreading. */
const comparable = (text: string) => text.replace(/\s+/g, '').toUpperCase();

/**
 * The lines of its page a name was read from, each with its words that are the name's: those whose centre lies in
 * the name's box and whose text is in the name (a line may hold more than the name, such as a company number, and a
 * slanting line below may reach into the box; a name may run over two lines).
 */
export function nameLines(found: Found, page: OcrPage): { line: OcrLine; words: OcrWord[] }[] {
  const b = found.box;
  const name = comparable(found.value);
  const inName = (w: OcrWord) => {
    const x = w.box.left + w.box.width / 2;
    const y = w.box.top + w.box.height / 2;
    return x >= b.left && x <= b.left + b.width && y >= b.top && y <= b.top + b.height && name.includes(comparable(w.text));
  };
  return page.lines.flatMap((line) => {
    const words = line.words.filter(inName);
    return words.length ? [{ line, words }] : [];
  });
}

/**
 * A name word read with less confidence than this makes the name worth a second look. Surer names are not looked at
 * again (the cuts cost as much as reading the lines): on the kept readings of the development folder, each name
 * sure enough for `ready` but wrong had a word under 98, while on the fine-tuned recogniser's readings three fifths
 * to four fifths of all such names had none (`npm run bench:second-look -- <folder> --names <dump dir>…`;
 * docs/recognition.md "Stop 37").
 */
export const SURE_NAME_WORD = 98;

/** Whether a name's words leave room for a second look: one of them read with less than SURE_NAME_WORD. */
export function worthASecondLook(lines: readonly { words: readonly OcrWord[] }[]): boolean {
  return lines.some((l) => l.words.some((w) => w.confidence < SURE_NAME_WORD));
}

/** Whether a line's name words hold under other cuts of it: at least two of the cuts read every one of them. */
export function holdsUnderCuts(words: readonly string[], cuts: readonly string[]): boolean {
  return cuts.filter((cut) => words.every((w) => comparable(cut).includes(comparable(w)))).length >= 2;
}

/** The extraction with a doubt on each of the given names. */
export function withDoubtedNames(extraction: Extraction, doubted: readonly NameField[]): Extraction {
  if (!doubted.length) return extraction;
  const fields = { ...extraction.fields };
  for (const field of doubted) {
    const found = fields[field];
    if (found) fields[field] = { ...found, confidence: Math.round(found.confidence * NAME_DOUBT * 10) / 10 };
  }
  return { ...extraction, fields };
}
