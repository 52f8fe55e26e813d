/**
 * Synthetic page layout for office text: the reader gives paragraphs and tables in reading order, this
 * places them on an A4 page like a fixed-width printout, so the shared extraction (visual rows, cells
 * separated by wide gaps, labels left of or above their values) reads them as it reads a PDF.
 *
 * - One line per paragraph line or table row, evenly spaced down the page (one page per document, one per
 *   sheet of a workbook).
 * - Words are placed by character offset. A tab moves to the next tab stop, at least three characters on,
 *   so a label and its value (`Total:\t121.00`) stay on one row as two cells.
 * - Table cells of one row sit on one line, left to right, in columns as wide as their longest line
 *   (cells wrap at MAX_CELL_CHARS), three characters apart; a cell of several paragraphs takes as many
 *   lines, so side-by-side party blocks stay in their columns. Spreadsheet cells do not wrap: a text
 *   flows over the empty cells to its right, as in the spreadsheet.
 * - Boxes are fractions of the page (Textract's convention), confidence 99: the text is exact.
 */
import { roundBox } from '../geometry';
import type { OcrDocument, OcrLine, OcrPage, OcrWord } from '../types';

export interface TableCell {
  /** 0-based column of the cell's first grid column. */
  column: number;
  /** Grid columns the cell covers (default 1). */
  span?: number;
  /** The cell's lines (paragraphs and line breaks). */
  lines: string[];
}

export interface TableRow {
  cells: TableCell[];
}

export type Block =
  | { kind: 'text'; lines: string[] }
  | { kind: 'table'; rows: TableRow[]; sheet?: boolean };

/** One page of blocks in reading order. */
export type FlowPage = Block[];

export const PAGE_WIDTH = 595.28;
export const PAGE_HEIGHT = 841.89;
const MARGIN = 36;
/** Characters a text line holds before it wraps (and the narrowest page, in characters). */
export const WRAP_CHARS = 100;
export const MAX_CELL_CHARS = 60;
const CELL_GAP = 3;
const TAB_STOP = 8;
const MIN_TAB_GAP = 3;
/** Line pitch and text height at most, in points (a 10 pt font). */
const MAX_PITCH = 14;
/** Lines laid out per page; the rest of a very long document or sheet is not read. */
export const MAX_LINES_PER_PAGE = 2000;
export const OFFICE_CONFIDENCE = 99;

interface Span {
  col: number;
  text: string;
}
type PageLine = Span[];

/** A line's text with tabs expanded to tab stops, as spans starting at `col`. */
function expandTabs(line: string, col = 0): Span[] {
  const spans: Span[] = [];
  let at = col;
  line.split('\t').forEach((part, i) => {
    if (i > 0) at = Math.ceil((at + MIN_TAB_GAP) / TAB_STOP) * TAB_STOP;
    if (part.trim()) spans.push({ col: at, text: part });
    at += part.length;
  });
  return spans;
}

/** Greedy word wrap at `width` characters (words longer than the width are left whole). */
export function wrap(text: string, width: number): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const out: string[] = [];
  let cur = '';
  for (const w of words) {
    if (cur && cur.length + 1 + w.length > width) {
      out.push(cur);
      cur = w;
    } else cur = cur ? `${cur} ${w}` : w;
  }
  if (cur) out.push(cur);
  return out;
}

function textLines(lines: string[]): PageLine[] {
  const out: PageLine[] = [];
  for (const raw of lines) {
    const line = raw.replace(/\s+$/, '');
    if (!line.trim()) {
      out.push([]);
      continue;
    }
    if (!line.includes('\t') && line.length > WRAP_CHARS) {
      const indent = line.length - line.trimStart().length;
      for (const part of wrap(line, WRAP_CHARS - indent)) out.push([{ col: indent, text: part }]);
    } else out.push(expandTabs(line));
  }
  return out;
}

/** Cell text on one line of a table: tabs become gaps (three spaces), runs of blanks one space. */
function cellLine(s: string): string {
  return s
    .split('\t')
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('   ');
}

/** Without blank lines at the start and the end. */
function trimBlank(lines: string[]): string[] {
  let a = 0;
  let b = lines.length;
  while (a < b && !lines[a]) a++;
  while (b > a && !lines[b - 1]) b--;
  return lines.slice(a, b);
}

function tableLines(block: Extract<Block, { kind: 'table' }>): PageLine[] {
  const sheet = !!block.sheet;
  const rows = block.rows.map((r) => ({
    cells: [...r.cells]
      .sort((a, b) => a.column - b.column)
      .map((c) => {
        const lines = trimBlank(c.lines.map(cellLine));
        const shown = sheet ? [lines.filter(Boolean).join(' ')] : lines.flatMap((l) => (l.length > MAX_CELL_CHARS ? wrap(l, MAX_CELL_CHARS) : [l]));
        return { column: c.column, span: Math.max(1, c.span ?? 1), lines: shown };
      })
      .filter((c) => c.lines.some(Boolean)),
  }));
  const ncols = Math.max(0, ...rows.flatMap((r) => r.cells.map((c) => c.column + c.span)));
  if (ncols === 0) return [];
  // In a sheet a text flows over the empty cells to its right: it spans up to the next filled cell.
  if (sheet) {
    for (const r of rows) r.cells.forEach((c, i) => (c.span = Math.max(c.span, (r.cells[i + 1]?.column ?? ncols) - c.column)));
  }
  const widthOf = (c: { lines: string[] }) => Math.max(...c.lines.map((l) => l.length));
  const widths = new Array<number>(ncols).fill(0);
  for (const r of rows) for (const c of r.cells) if (c.span === 1) widths[c.column] = Math.max(widths[c.column]!, widthOf(c));
  // A cell over several columns widens the last of them when it does not fit (columns without width take no room).
  for (const r of rows) {
    for (const c of r.cells) {
      if (c.span === 1) continue;
      const covered = widths.slice(c.column, c.column + c.span);
      const have = covered.reduce((a, b) => a + b, 0) + CELL_GAP * Math.max(0, covered.filter((w) => w > 0).length - 1);
      const need = widthOf(c);
      if (need > have) widths[c.column + c.span - 1]! += need - have;
    }
  }
  // Columns left empty by every row take no room.
  const x: number[] = [];
  let at = 0;
  for (let i = 0; i < ncols; i++) {
    x.push(at);
    if (widths[i]! > 0) at += widths[i]! + CELL_GAP;
  }
  const out: PageLine[] = [];
  for (const r of rows) {
    if (!r.cells.length) continue;
    const height = Math.max(...r.cells.map((c) => c.lines.length));
    for (let k = 0; k < height; k++) {
      out.push(r.cells.flatMap((c) => (c.lines[k] ? [{ col: x[c.column]!, text: c.lines[k]! }] : [])));
    }
  }
  return out;
}

function pageLines(blocks: FlowPage): PageLine[] {
  const lines = blocks.flatMap((b) => (b.kind === 'text' ? textLines(b.lines) : tableLines(b)));
  // No blank lines at the top or bottom, at most one in a row.
  const out: PageLine[] = [];
  for (const l of lines) {
    if (!l.length && (!out.length || !out[out.length - 1]!.length)) continue;
    out.push(l);
  }
  while (out.length && !out[out.length - 1]!.length) out.pop();
  return out.slice(0, MAX_LINES_PER_PAGE);
}

function layoutPage(lines: PageLine[], pageNumber: number): OcrPage {
  const widest = Math.max(WRAP_CHARS, ...lines.map((l) => Math.max(0, ...l.map((s) => s.col + s.text.length))));
  const cw = (PAGE_WIDTH - 2 * MARGIN) / widest;
  const pitch = Math.min(MAX_PITCH, (PAGE_HEIGHT - 2 * MARGIN) / Math.max(1, lines.length));
  const height = pitch * 0.75;
  const ocrLines: OcrLine[] = [];
  lines.forEach((spans, i) => {
    const top = MARGIN + i * pitch + (pitch - height) / 2;
    const words: OcrWord[] = [];
    for (const s of spans) {
      for (const m of s.text.matchAll(/\S+/g)) {
        const left = MARGIN + (s.col + m.index) * cw;
        words.push({
          text: m[0],
          box: roundBox({ left: left / PAGE_WIDTH, top: top / PAGE_HEIGHT, width: (m[0].length * cw) / PAGE_WIDTH, height: height / PAGE_HEIGHT }),
          confidence: OFFICE_CONFIDENCE,
          page: pageNumber,
        });
      }
    }
    if (!words.length) return;
    const first = words[0]!.box;
    const last = words[words.length - 1]!.box;
    ocrLines.push({
      text: words.map((w) => w.text).join(' '),
      words,
      box: roundBox({ left: first.left, top: first.top, width: last.left + last.width - first.left, height: first.height }),
      confidence: OFFICE_CONFIDENCE,
      page: pageNumber,
    });
  });
  return { page: pageNumber, width: PAGE_WIDTH, height: PAGE_HEIGHT, lines: ocrLines };
}

/** The pages of blocks as positioned words; pages without text are left out. */
export function layoutDocument(pages: FlowPage[]): OcrDocument {
  const out: OcrPage[] = [];
  for (const blocks of pages) {
    const lines = pageLines(blocks);
    if (!lines.some((l) => l.length)) continue;
    out.push(layoutPage(lines, out.length + 1));
  }
  return { source: 'office', pages: out };
}
