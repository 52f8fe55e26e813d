/**
 * Lines of print known from other receipts, for the extraction's `knownLines`: the lines of the language model's
 * text (`languageModelLines`) that it holds at least twice, with how many times it holds each. A line printed on one
 * receipt only may be an annotator's slip (`TED HENG STATIONERY & BOOKS` once against `TEO HENG …` five times); a
 * seller's name, address or footer printed on two receipts or more is what that seller prints.
 */
import { printedLineKey } from '../../core/recognition/extract/known-spellings';

/** How many times the text must hold a line for it to count as known. */
export const KNOWN_LINE_MIN_COUNT = 2;

export function knownLines(lines: readonly string[], minCount = KNOWN_LINE_MIN_COUNT): ReadonlyMap<string, number> {
  const counts = new Map<string, number>();
  for (const line of lines) {
    const key = printedLineKey(line);
    if (key) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return new Map([...counts].filter(([, n]) => n >= minCount));
}
