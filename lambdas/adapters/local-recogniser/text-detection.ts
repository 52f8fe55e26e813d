/**
 * Text lines on a page from PaddleOCR's detector: its probability map (DB) as boxes of connected regions, the map
 * turned with a levelled page, and what a page's boxes tell about it (line height, print on end, slant).
 */
import type { Levelling } from '../../core/recognition/geometry';

/** An axis-aligned text-line box in pixels of the page, with the detector's score. */
export interface TextBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  score: number;
  /** Slant of the line in radians (positive: falling to the right); 0 when unknown. */
  angle?: number;
}

/** The detector's text probabilities over a page: `width` × `height` cells, row by row, spread evenly over the page. */
export interface ProbabilityMap {
  prob: Float32Array;
  width: number;
  height: number;
}

/** A page's text-line boxes as the detector found them, with the probability map they were found on. */
export type DetectedLines = TextBox[] & { probabilities?: ProbabilityMap };

/** A map cell above this probability is text (PaddleOCR's `det_db_thresh`). */
const DET_THRESHOLD = 0.3;
/**
 * Least mean probability of a region kept as a line (PaddleOCR's settings say 0.6, which read the held-out receipts'
 * fields the same, stop 56).
 */
const DET_BOX_SCORE = 0.5;
/**
 * How far a region is grown to the line it stands for (DB maps shrink text): area × this / perimeter on each side.
 * PaddleOCR's own setting for its DB detectors (`det_db_unclip_ratio`); the 1.6 used before read held-out receipts
 * worse, and so did 1.4 and 1.8 (docs/recognition.md "Stop 56").
 */
const DET_UNCLIP = 1.5;

/**
 * Connected regions of the detector's probability map above the threshold, as boxes in map pixels
 * (unclipped: DB maps shrink the text, so each region is grown by area × ratio / perimeter).
 */
export function boxesFromProbabilityMap(prob: Float32Array, w: number, h: number): TextBox[] {
  const seen = new Uint8Array(w * h);
  const stack = new Int32Array(w * h);
  const boxes: TextBox[] = [];
  for (let start = 0; start < w * h; start++) {
    if (seen[start] || prob[start]! <= DET_THRESHOLD) continue;
    let top = 0;
    stack[top++] = start;
    seen[start] = 1;
    let x0 = w;
    let y0 = h;
    let x1 = -1;
    let y1 = -1;
    let sum = 0;
    let count = 0;
    let sx = 0;
    let sy = 0;
    let sxx = 0;
    let syy = 0;
    let sxy = 0;
    while (top > 0) {
      const p = stack[--top]!;
      const x = p % w;
      const y = (p - x) / w;
      sum += prob[p]!;
      count++;
      sx += x;
      sy += y;
      sxx += x * x;
      syy += y * y;
      sxy += x * y;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      // The four neighbours, written out: a closure per pixel took four times as long (about 40 ms a page).
      let q = p - 1;
      if (x > 0 && !seen[q] && prob[q]! > DET_THRESHOLD) {
        seen[q] = 1;
        stack[top++] = q;
      }
      q = p + 1;
      if (x < w - 1 && !seen[q] && prob[q]! > DET_THRESHOLD) {
        seen[q] = 1;
        stack[top++] = q;
      }
      q = p - w;
      if (y > 0 && !seen[q] && prob[q]! > DET_THRESHOLD) {
        seen[q] = 1;
        stack[top++] = q;
      }
      q = p + w;
      if (y < h - 1 && !seen[q] && prob[q]! > DET_THRESHOLD) {
        seen[q] = 1;
        stack[top++] = q;
      }
    }
    const bw = x1 - x0 + 1;
    const bh = y1 - y0 + 1;
    if (Math.min(bw, bh) < 2 || count < 6) continue;
    const score = sum / count;
    if (score < DET_BOX_SCORE) continue;
    const grow = (bw * bh * DET_UNCLIP) / (2 * (bw + bh));
    // The region's main axis from its second moments: the slant of a text line.
    const mx = sx / count;
    const my = sy / count;
    const angle = 0.5 * Math.atan2(2 * (sxy / count - mx * my), sxx / count - mx * mx - (syy / count - my * my));
    boxes.push({ x0: x0 - grow, y0: y0 - grow, x1: x1 + 1 + grow, y1: y1 + 1 + grow, score, angle });
  }
  return boxes;
}

/** The text-line boxes of a probability map spread over a page of `width` × `height` pixels, top to bottom. */
export function boxesOnPage(map: ProbabilityMap, width: number, height: number): TextBox[] {
  const sx = width / map.width;
  const sy = height / map.height;
  return boxesFromProbabilityMap(map.prob, map.width, map.height)
    .map((b) => ({
      x0: Math.max(0, Math.floor(b.x0 * sx)),
      y0: Math.max(0, Math.floor(b.y0 * sy)),
      x1: Math.min(width, Math.ceil(b.x1 * sx)),
      y1: Math.min(height, Math.ceil(b.y1 * sy)),
      score: b.score,
      // The map is scaled unevenly in x and y (both rounded to 32 px): the slant is measured on the page.
      angle: Math.atan2(Math.sin(b.angle ?? 0) * sy, Math.cos(b.angle ?? 0) * sx),
    }))
    .filter((b) => b.x1 - b.x0 >= 4 && b.y1 - b.y0 >= 4)
    .sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
}

/**
 * A page's probability map turned with the page as `level` turns it (`rotatedRgb`), spread over the levelled page at
 * the map's own scale: each cell takes the probability at its centre's place on the page before levelling
 * (`pointBeforeLevelling`'s turn, bilinear between the four nearest cells; 0 off the page).
 */
export function levelledMap(map: ProbabilityMap, level: Levelling): ProbabilityMap {
  const width = Math.max(1, Math.round((level.readWidth * map.width) / level.width));
  const height = Math.max(1, Math.round((level.readHeight * map.height) / level.height));
  const prob = new Float32Array(width * height);
  const cos = Math.cos(level.radians);
  const sin = Math.sin(level.radians);
  const [cellW, cellH] = [level.readWidth / width, level.readHeight / height];
  const [pageW, pageH] = [level.width / map.width, level.height / map.height];
  const at = (x: number, y: number) => (x < 0 || y < 0 || x >= map.width || y >= map.height ? 0 : map.prob[y * map.width + x]!);
  for (let j = 0; j < height; j++) {
    const dy = (j + 0.5) * cellH - level.readHeight / 2;
    for (let i = 0; i < width; i++) {
      const dx = (i + 0.5) * cellW - level.readWidth / 2;
      // The cell's centre on the page before levelling (page pixels), then in the page's map cells.
      const u = (dx * cos + dy * sin + level.width / 2) / pageW - 0.5;
      const v = (-dx * sin + dy * cos + level.height / 2) / pageH - 0.5;
      const x0 = Math.floor(u);
      const y0 = Math.floor(v);
      if (x0 < -1 || y0 < -1 || x0 >= map.width || y0 >= map.height) continue;
      const fx = u - x0;
      const fy = v - y0;
      prob[j * width + i] =
        (at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx) * (1 - fy) + (at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx) * fy;
    }
  }
  return { prob, width, height };
}

/** The middle height of text-line boxes, 0 for none. */
export function medianLineHeight(boxes: readonly TextBox[]): number {
  const heights = boxes.map((b) => b.y1 - b.y0).sort((a, b) => a - b);
  return heights.length ? heights[Math.floor(heights.length / 2)]! : 0;
}

/**
 * The share of a page's long boxes' length (one side at least twice the other) that stands on end: 0 for print
 * that lies level, 1 for a page on its side, 0 without long boxes.
 */
export function onEndShare(boxes: readonly TextBox[]): number {
  let level = 0;
  let onEnd = 0;
  for (const b of boxes) {
    const [w, h] = [b.x1 - b.x0, b.y1 - b.y0];
    if (w >= 2 * h) level += w;
    else if (h >= 2 * w) onEnd += h;
  }
  return level + onEnd ? onEnd / (level + onEnd) : 0;
}

/**
 * Whether a page's print stands on end (the page lies on its side): of its long boxes, those taller than wide hold
 * more length than those wider than tall (`onEndShare` over a half). On every second page of the development folder
 * the share is 0 upright or upside down, and 0.92 or more turned a quarter (`npm run bench:page-turns`;
 * docs/recognition.md "Stop 42").
 */
export function linesStandOnEnd(boxes: readonly TextBox[]): boolean {
  return onEndShare(boxes) > 0.5;
}

/**
 * The slant of a page's print (radians, positive where lines fall to the right): the median slant of its long
 * lines (boxes at least three times as wide as high), if it has three or more; else 0.
 */
export function pageSkew(boxes: TextBox[]): number {
  const long = boxes.filter((b) => b.x1 - b.x0 >= 3 * (b.y1 - b.y0) && b.angle !== undefined).map((b) => b.angle!);
  if (long.length < 3) return 0;
  long.sort((a, b) => a - b);
  return long[Math.floor(long.length / 2)]!;
}
