import { centerY, pageRows, unionBoxes } from '../geometry';
import type { Box, OcrDocument, OcrWord } from '../types';

/** A visual row of a page: words left to right, with the character span of each word in `text`. */
export interface Row {
  page: number;
  /** Position in the document's reading order (all pages). */
  index: number;
  text: string;
  words: OcrWord[];
  spans: { start: number; end: number }[];
  box: Box;
  confidence: number;
  /** Groups of words separated by wide gaps (table cells, label and value columns). */
  cells: Cell[];
}

export interface Cell {
  text: string;
  words: OcrWord[];
  box: Box;
  /** Index of the first word of the cell in the row. */
  first: number;
}

/** Something found in a row: its text span and where it sits. */
export interface Found {
  /** Normalised value (ISO date, "9.00", compact ID...). */
  value: string;
  /** Text as printed. */
  raw: string;
  page: number;
  box: Box;
  confidence: number;
  label?: { text: string; box: Box; page: number };
}

function median(xs: number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

export function buildRow(words: OcrWord[], page: number, index: number): Row {
  // A gap wider than ~2 average character widths separates cells.
  const charW = median(words.map((w) => w.box.width / Math.max(1, w.text.length)));
  const heightMedian = median(words.map((w) => w.box.height));
  const gapLimit = Math.max(charW * 2.2, heightMedian * 1.1);
  let text = '';
  const spans: { start: number; end: number }[] = [];
  const cells: Cell[] = [];
  words.forEach((w, i) => {
    const prev = words[i - 1];
    const sameCell = !!prev && w.box.left - (prev.box.left + prev.box.width) <= gapLimit;
    // Cells are joined with two spaces so that "21  147,00" (two cells) does not read as 21 147,00.
    if (text) text += sameCell ? ' ' : '  ';
    spans.push({ start: text.length, end: text.length + w.text.length });
    text += w.text;
    const last = cells[cells.length - 1];
    if (sameCell && last) {
      last.words.push(w);
      last.text += ` ${w.text}`;
      last.box = unionBoxes(last.words.map((x) => x.box));
    } else {
      cells.push({ text: w.text, words: [w], box: w.box, first: i });
    }
  });
  return {
    page,
    index,
    text,
    words,
    spans,
    box: unionBoxes(words.map((w) => w.box)),
    confidence: words.length ? words.reduce((s, w) => s + w.confidence, 0) / words.length : 0,
    cells,
  };
}

/** A speck is read as one or two characters under this confidence, lower than this share of the page's usual line. */
const SPECK_CONFIDENCE = 70;
const SPECK_HEIGHT = 0.6;

function medianLineHeight(page: OcrDocument['pages'][number]): number {
  const heights = page.lines.map((l) => l.box.height).sort((a, b) => a - b);
  return heights.length ? heights[Math.floor(heights.length / 2)]! : 0;
}

/** All rows of a document in reading order (page by page, top to bottom). */
export function documentRows(doc: OcrDocument): Row[] {
  const rows: Row[] = [];
  for (const page of doc.pages) {
    const speckHeight = SPECK_HEIGHT * medianLineHeight(page);
    // Pieces of a dashed or starred rule ("*", "--*"), far smaller than the print, are no line: they would hold a
    // row of their own beside the text they stand over ("*  T1 R000118085" kept from "19-04-18 18:04 SH01 ZJ86").
    const lines = pageRows({ ...page, lines: page.lines.filter((l) => /[\p{L}\d]/u.test(l.text) || l.box.height >= speckHeight) });
    for (const l of lines) {
      // OCR noise: lone symbols read with little confidence ("|", "~", "«"; an ampersand is part of names), and
      // specks read as a character or two, far smaller than the page's print and read with little confidence.
      const words = l.words.filter(
        (w) =>
          w.text.trim() !== '' &&
          !(/^[^\p{L}\d&]{1,2}$/u.test(w.text) && w.confidence < 50) &&
          !(w.text.trim().length <= 2 && w.confidence < SPECK_CONFIDENCE && w.box.height < speckHeight),
      );
      if (words.length) rows.push(buildRow(words, page.page, rows.length));
    }
  }
  return rows;
}

/** Words of a row that cover the characters [start, end) of its text. */
export function wordsInSpan(row: Row, start: number, end: number): OcrWord[] {
  return row.words.filter((_, i) => row.spans[i]!.end > start && row.spans[i]!.start < end);
}

export function spanBox(row: Row, start: number, end: number): Box {
  const ws = wordsInSpan(row, start, end);
  return ws.length ? unionBoxes(ws.map((w) => w.box)) : row.box;
}

export function spanConfidence(row: Row, start: number, end: number): number {
  const ws = wordsInSpan(row, start, end);
  return ws.length ? ws.reduce((s, w) => s + w.confidence, 0) / ws.length : row.confidence;
}

/** A found value from a character span of a row. */
export function foundInRow(row: Row, start: number, end: number, value: string, factor = 1): Found {
  return {
    value,
    raw: row.text.slice(start, end).trim(),
    page: row.page,
    box: spanBox(row, start, end),
    confidence: Math.round(spanConfidence(row, start, end) * factor * 10) / 10,
  };
}

/**
 * A value's label as printed on `row`: the text and the box of its own words (the edit screen shows it as the
 * field's key). `text` is looked up in the row unless its span is given; a label not found there keeps the row's box.
 */
export function labelIn(row: Row, text: string, span?: { start: number; end: number }): NonNullable<Found['label']> {
  const start = span?.start ?? row.text.indexOf(text);
  const end = span?.end ?? start + text.length;
  return { text, box: start >= 0 && end > start ? spanBox(row, start, end) : row.box, page: row.page };
}

/** Rows below `row` on the same page, nearest first, within `maxLines` line heights. */
export function rowsBelow(rows: Row[], row: Row, maxLines = 2.5): Row[] {
  const h = row.box.height || 0.01;
  return rows.filter(
    (r) => r.page === row.page && r.index > row.index && centerY(r.box) - centerY(row.box) <= h * (maxLines + 0.5),
  );
}
