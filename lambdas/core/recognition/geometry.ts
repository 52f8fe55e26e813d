import { pointBeforeTurn, type QuarterTurn } from '../../../shared/page-turns';
import type { Box, OcrLine, OcrPage, OcrWord } from './types';

export const EMPTY_BOX: Box = { left: 0, top: 0, width: 0, height: 0 };

export function right(b: Box): number {
  return b.left + b.width;
}
export function bottom(b: Box): number {
  return b.top + b.height;
}
export function centerY(b: Box): number {
  return b.top + b.height / 2;
}
export function centerX(b: Box): number {
  return b.left + b.width / 2;
}

export function unionBoxes(boxes: readonly Box[]): Box {
  if (boxes.length === 0) return { ...EMPTY_BOX };
  let l = Infinity;
  let t = Infinity;
  let r = -Infinity;
  let b = -Infinity;
  for (const x of boxes) {
    l = Math.min(l, x.left);
    t = Math.min(t, x.top);
    r = Math.max(r, right(x));
    b = Math.max(b, bottom(x));
  }
  return { left: l, top: t, width: r - l, height: b - t };
}

/** Share of the smaller box's height that both boxes have in common vertically. */
export function verticalOverlap(a: Box, b: Box): number {
  const inter = Math.min(bottom(a), bottom(b)) - Math.max(a.top, b.top);
  const h = Math.min(a.height, b.height);
  return h > 0 ? Math.max(0, inter) / h : 0;
}

export function horizontalOverlap(a: Box, b: Box): number {
  const inter = Math.min(right(a), right(b)) - Math.max(a.left, b.left);
  const w = Math.min(a.width, b.width);
  return w > 0 ? Math.max(0, inter) / w : 0;
}

export function roundBox(b: Box): Box {
  const r = (n: number) => Math.round(n * 1e6) / 1e6;
  return { left: r(b.left), top: r(b.top), width: r(b.width), height: r(b.height) };
}

export function pixelBox(x0: number, y0: number, x1: number, y1: number, pageW: number, pageH: number): Box {
  return roundBox({ left: x0 / pageW, top: y0 / pageH, width: (x1 - x0) / pageW, height: (y1 - y0) / pageH });
}

export function lineFromWords(words: OcrWord[]): OcrLine {
  const sorted = [...words].sort((a, b) => a.box.left - b.box.left);
  const conf = sorted.length ? sorted.reduce((s, w) => s + w.confidence, 0) / sorted.length : 0;
  return {
    text: sorted.map((w) => w.text).join(' '),
    words: sorted,
    box: unionBoxes(sorted.map((w) => w.box)),
    confidence: conf,
    page: sorted[0]?.page ?? 1,
  };
}

/**
 * Groups items into visual rows, top to bottom: each item (at its levelled box `b`) joins the row among the last few
 * that it overlaps most vertically (at least `minOverlap` of the smaller height) and whose items it does not overlap
 * horizontally by more than `collision` of the narrower width; otherwise it starts a row. A row's vertical span is
 * that of its median item, so that one tall item does not swallow the next row.
 */
function groupIntoRows<T>(items: { item: T; b: Box }[], minOverlap: number, collision: number): T[][] {
  items.sort((a, b) => centerY(a.b) - centerY(b.b) || a.b.left - b.b.left);
  const rows: { items: T[]; boxes: Box[]; box: Box }[] = [];
  for (const { item, b } of items) {
    let best: (typeof rows)[number] | undefined;
    let bestOverlap = minOverlap;
    // Only the last few rows can overlap an item that comes later in top-to-bottom order.
    for (let i = Math.max(0, rows.length - 4); i < rows.length; i++) {
      const row = rows[i]!;
      const ov = verticalOverlap(row.box, b);
      const collides = row.boxes.some((x) => horizontalOverlap(x, b) > collision);
      if (ov >= bestOverlap && !collides) {
        bestOverlap = ov;
        best = row;
      }
    }
    if (best) {
      best.items.push(item);
      best.boxes.push(b);
      const tops = best.boxes.map((x) => x.top).sort((p, q) => p - q);
      const bottoms = best.boxes.map((x) => bottom(x)).sort((p, q) => p - q);
      const mid = Math.floor(best.boxes.length / 2);
      best.box = { left: 0, top: tops[mid]!, width: 1, height: bottoms[mid]! - tops[mid]! };
    } else {
      rows.push({ items: [item], boxes: [b], box: { left: 0, top: b.top, width: 1, height: b.height } });
    }
  }
  return rows.map((r) => r.items);
}

/**
 * Groups words into lines by vertical overlap, left to right. Used for text that comes without line
 * structure (PDF text items) and to rebuild rows of a receipt where the OCR split a label from its
 * amount into separate blocks. `slope` (dy/dx of the text lines, in page fractions) undoes a skew:
 * words are compared at the height they would have on a level page.
 */
export function groupWordsIntoLines(words: readonly OcrWord[], minOverlap = 0.5, slope = 0): OcrLine[] {
  const level = (w: OcrWord): Box => ({ ...w.box, top: w.box.top - slope * centerX(w.box) });
  const rows = groupIntoRows(words.map((w) => ({ item: w, b: level(w) })), minOverlap, 0.3);
  return rows.map((r) => lineFromWords(r)).sort((a, b) => a.box.top - b.box.top);
}

/** The slope (dy/dx in page fractions) of a line long enough to tell, its height on the page and its length. */
interface MeasuredSlope {
  s: number;
  y: number;
  w: number;
}

function measuredSlopes(lines: readonly OcrLine[]): MeasuredSlope[] {
  const slopes: MeasuredSlope[] = [];
  for (const l of lines) {
    if (l.words.length < 2) continue;
    const first = l.words[0]!;
    const last = l.words[l.words.length - 1]!;
    const dx = centerX(last.box) - centerX(first.box);
    if (dx < 0.15) continue;
    slopes.push({ s: (centerY(last.box) - centerY(first.box)) / dx, y: centerY(l.box), w: dx });
  }
  return slopes;
}

/** The length-weighted median slope (long lines tell the slope best); 0 for fewer than three, or a steep one. */
function medianSlope(slopes: readonly MeasuredSlope[]): number {
  if (slopes.length < 3) return 0;
  const sorted = [...slopes].sort((a, b) => a.s - b.s);
  const total = sorted.reduce((t, x) => t + x.w, 0);
  let acc = 0;
  for (const x of sorted) {
    acc += x.w;
    if (acc >= total / 2) return Math.abs(x.s) < 0.2 ? x.s : 0;
  }
  return 0;
}

/**
 * The skew of a page's text: the median slope of its lines (dy/dx in page fractions), measured on
 * lines long enough to tell. 0 when there are too few.
 */
export function estimateSlope(lines: readonly OcrLine[]): number {
  return medianSlope(measuredSlopes(lines));
}

/** How far above and below a row the lines that tell its slope lie (page fractions), and how many it takes. */
const LOCAL_SLOPE_REACH = 0.15;
const LOCAL_SLOPE_LINES = 4;

/**
 * The skew of the text where each height of the page lies: the median slope of the lines within
 * LOCAL_SLOPE_REACH above and below it, or the page's where fewer than LOCAL_SLOPE_LINES lie there. A page
 * photographed at an angle shows its rows converging (slanting one way at the top, the other way at the
 * bottom), and a curled receipt bends them, so that one slope for the page misplaces rows far from its middle.
 */
export function slopeAlongPage(lines: readonly OcrLine[]): (y: number) => number {
  const slopes = measuredSlopes(lines);
  const page = medianSlope(slopes);
  return (y) => {
    const near = slopes.filter((x) => Math.abs(x.y - y) <= LOCAL_SLOPE_REACH);
    return near.length >= LOCAL_SLOPE_LINES ? medianSlope(near) : page;
  };
}

/**
 * Merges OCR lines of one page that sit on the same visual row (label on the left, amount on the
 * right) into rows, keeping each line's words together and in reading order; the skew of the text
 * where each line lies is taken into account (`slopeAlongPage`). Lines are the unit, so a stray word
 * cannot split a line the OCR read whole.
 */
export function pageRows(page: OcrPage, minOverlap = 0.4): OcrLine[] {
  const slope = slopeAlongPage(page.lines);
  const level = (b: Box): Box => ({ ...b, top: b.top - slope(centerY(b)) * centerX(b) });
  const lines = page.lines.filter((l) => l.words.length > 0).map((l) => ({ item: l, b: level(l.box) }));
  return groupIntoRows(lines, minOverlap, 0.15)
    .map((r) => lineFromWords(r.sort((a, b) => a.box.left - b.box.left).flatMap((x) => x.words)))
    .sort((a, b) => a.box.top - b.box.top);
}

/**
 * How a page image was read: turned a quarter clockwise, and then, where its print slanted, turned level by a small
 * angle (`level`).
 */
export interface PageReading {
  turn: QuarterTurn;
  level?: Levelling;
}

/**
 * A page image of `width` × `height` pixels (after its quarter turn) turned clockwise by `radians` about its centre,
 * onto a canvas of `readWidth` × `readHeight` pixels that holds all of it.
 */
export interface Levelling {
  radians: number;
  width: number;
  height: number;
  readWidth: number;
  readHeight: number;
}

/** A point of the levelled canvas (fractions of it), back on the page before levelling (fractions of that). */
export function pointBeforeLevelling(x: number, y: number, l: Levelling): { x: number; y: number } {
  const dx = x * l.readWidth - l.readWidth / 2;
  const dy = y * l.readHeight - l.readHeight / 2;
  const cos = Math.cos(l.radians);
  const sin = Math.sin(l.radians);
  // The inverse of the clockwise turn (y grows downwards): turned back by -radians.
  return { x: (dx * cos + dy * sin + l.width / 2) / l.width, y: (-dx * sin + dy * cos + l.height / 2) / l.height };
}

/** A point of a page as read, back on the page as stored. */
export function pointBefore(x: number, y: number, reading: PageReading): { x: number; y: number } {
  const p = reading.level ? pointBeforeLevelling(x, y, reading.level) : { x, y };
  return pointBeforeTurn(p.x, p.y, reading.turn);
}

/** A box of a page as read, back on the page as stored: the box around its four corners there, inside the page. */
export function boxBefore(b: Box, reading: PageReading): Box {
  const corners = [
    pointBefore(b.left, b.top, reading),
    pointBefore(b.left + b.width, b.top, reading),
    pointBefore(b.left, b.top + b.height, reading),
    pointBefore(b.left + b.width, b.top + b.height, reading),
  ];
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  const xs = corners.map((c) => clamp(c.x));
  const ys = corners.map((c) => clamp(c.y));
  const left = Math.min(...xs);
  const top = Math.min(...ys);
  return roundBox({ left, top, width: Math.max(...xs) - left, height: Math.max(...ys) - top });
}
