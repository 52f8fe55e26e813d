/**
 * The text of one recognised line: the recogniser's output decoded (CTC), word spaces from the line's ink where the
 * recogniser ran words together, each word's box from its characters' time steps; and lines cleaned of what the
 * detector found twice.
 */
import { pixelBox, unionBoxes } from '../../core/recognition/geometry';
import type { OcrLine, OcrWord } from '../../core/recognition/types';
import { scanOrder } from './ctc-beam';
import { blankRuns, lineSlant, type InkProfile } from './line-images';

/** Greedy CTC decoding of one line: characters, their confidences and the time steps they sit at. */
export function ctcDecode(
  probs: Float32Array,
  offset: number,
  steps: number,
  classes: number,
  chars: readonly string[],
): { text: string; confidences: number[]; positions: number[] } {
  let text = '';
  const confidences: number[] = [];
  const positions: number[] = [];
  let prev = -1;
  const order = scanOrder(chars, classes);
  for (let t = 0; t < steps; t++) {
    const base = offset + t * classes;
    let best = 0;
    let bestP = probs[base]!;
    // The classes' probabilities add up to 1: one above one half is the most likely. Most steps are blank, and most
    // others an ASCII character, which the scan order puts first.
    for (let k = 1; k < order.length && bestP <= 0.5; k++) {
      const p = probs[base + order[k]!]!;
      if (p > bestP) {
        bestP = p;
        best = order[k]!;
      }
    }
    // No class above one half: the likeliest, the first in the dictionary's order on a tie.
    if (bestP <= 0.5) {
      for (let c = 1; c < classes; c++) {
        const p = probs[base + c]!;
        if (p > bestP || (p === bestP && c < best)) {
          bestP = p;
          best = c;
        }
      }
    }
    if (best !== 0 && best !== prev) {
      text += chars[best] ?? '';
      confidences.push(bestP);
      positions.push(t);
    }
    prev = best;
  }
  return { text, confidences, positions };
}

/**
 * The words of one recognised line, each with a box: a word spans the time steps of its first to its
 * last character (one step is `stepWidth` page pixels, starting at `x0`).
 */
export function lineWords(
  decoded: { text: string; confidences: number[]; positions: number[] },
  box: { x0: number; y0: number; x1: number; y1: number; angle?: number },
  stepWidth: number,
  page: { width: number; height: number; number: number },
): OcrWord[] {
  const words: OcrWord[] = [];
  const band = slantedBand(box);
  const chars = [...decoded.text];
  let i = 0;
  while (i < chars.length) {
    if (chars[i] === ' ') {
      i++;
      continue;
    }
    let j = i;
    while (j < chars.length && chars[j] !== ' ') j++;
    const text = chars.slice(i, j).join('');
    const left = Math.max(box.x0, box.x0 + decoded.positions[i]! * stepWidth - stepWidth * 0.5);
    const right = Math.min(box.x1, box.x0 + (decoded.positions[j - 1]! + 1) * stepWidth + stepWidth * 0.5);
    const conf = decoded.confidences.slice(i, j);
    const confidence = (conf.reduce((s, c) => s + c, 0) / conf.length) * 100;
    const { top, bottom } = band(left, right);
    words.push({ text, box: pixelBox(left, top, right, bottom, page.width, page.height), confidence: Math.round(confidence * 10) / 10, page: page.number });
    i = j;
  }
  return words;
}

/**
 * Where a line's text lies between two x positions of its box: the whole box for a level line; along the slant
 * for a line that slants (as `lineImage` straightens it), so that its words show the skew where they lie (`slopeAlongPage`)
 * and a word's box holds its own stretch of the line.
 */
function slantedBand(box: { x0: number; y0: number; x1: number; y1: number; angle?: number }): (x0: number, x1: number) => { top: number; bottom: number } {
  const slant = lineSlant(box);
  if (!slant || slant.theta === 0) return () => ({ top: box.y0, bottom: box.y1 });
  const { theta, thickness } = slant;
  const tan = Math.tan(theta);
  const cx = (box.x0 + box.x1) / 2;
  const cy = (box.y0 + box.y1) / 2;
  return (x0, x1) => {
    const [a, b] = [cy + tan * (x0 - cx), cy + tan * (x1 - cx)];
    return { top: Math.max(box.y0, Math.min(a, b) - thickness / 2), bottom: Math.min(box.y1, Math.max(a, b) + thickness / 2) };
  };
}

/**
 * Narrow glyphs that sit in the middle of a full-width cell, with blank room around them: punctuation in
 * monospaced print, and the digit 1 in any print (figures are tabular: every digit takes the same width).
 */
const NARROW = /[.,:;'1]/;

/**
 * Separators that print is spaced after or not: a comma, colon or semicolon with no space after it has a narrower
 * blank before the next glyph than the narrow-glyph bar of 0.8 pitch allows for. On the dev folder's annotated
 * lines, 90 % of the unspaced commas had a blank run under 0.41 pitch after them and 90 % of the spaced ones over
 * 0.6; that bar missed a quarter of the spaces after commas. Their bar is 0.55 pitch.
 */
const SEPARATOR = /[,:;]/;

/**
 * Between two letters a space is added only where the recogniser itself gave the space class at least this
 * probability at some time step between them. Two letters are the one pair the recogniser spaces well by itself;
 * the geometry alone split proportional and large print inside words (`MODELL ING`, `COM E`, `SINNAT HAMBY`):
 * on every third development receipt, the fine-tuned model's letter pairs got 28 such spaces, all wrong, the
 * package's model's 170, 21 of them wrong; with this bar 3 and 153 (4 wrong): none of the package model's right
 * ones was lost (docs/recognition.md, "Stop 30").
 */
const LETTER_SPACE_EVIDENCE = 0.01;
const LETTER = /\p{L}/u;

const median = (xs: number[]): number | undefined => {
  if (!xs.length) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
};

/** Did the recogniser give the space class `LETTER_SPACE_EVIDENCE` or more at some step from `from` to `to`? */
function spaceLikely(spaceProbs: ArrayLike<number>, from: number, to: number): boolean {
  for (let t = from; t <= to; t++) if ((spaceProbs[t] ?? 0) >= LETTER_SPACE_EVIDENCE) return true;
  return false;
}

/**
 * Word spaces from the line's own geometry. The recogniser often runs words of small print together
 * ("25/12/20188:13:39PM"); each pair of neighbouring characters it read without a space gets one where the
 * widest blank column run between their time steps is wide for this line, measured in the line's character
 * pitch (the usual distance between neighbouring characters' time steps), so print of any size and any
 * letter spacing is judged alike:
 * - next to a narrow glyph (`.,:;'` or the digit 1, which sits in a full cell with blank room around it) the run
 *   must be most of a cell (0.8 pitch), between two narrow glyphs a whole one;
 * - where the recogniser itself put spaces in the line, its spaces show how wide a word gap is in this
 *   print: a run at least 0.7 of their median width (and 0.45 pitch) is one too;
 * - otherwise a run of 0.8 pitch, or of 0.45 pitch that is 2.5 times the line's usual gap between letters;
 * - and, whatever the pitch, a blank a third of the line image's height wide lying wholly between the two (not
 *   before closing punctuation nor after an opening bracket): large print spaces its words by its height.
 * No space after the decimal point of a number ("75. 70" is 75.70), and none between two letters that the
 * recogniser did not think might be spaced (`LETTER_SPACE_EVIDENCE`, where `decoded.spaceProbs` gives the space
 * class's probability at each time step). `columnsPerStep` is how many columns of the profile one time step covers.
 */
export function insertSpacesByPitch(
  decoded: { text: string; confidences: number[]; positions: number[]; spaceProbs?: ArrayLike<number> },
  profile: InkProfile,
  columnsPerStep: number,
): { text: string; confidences: number[]; positions: number[] } {
  const chars = [...decoded.text];
  const idx = chars.flatMap((c, i) => (c === ' ' ? [] : [i]));
  if (idx.length < 2) return decoded;
  const pos = idx.map((i) => decoded.positions[i]!);
  const spaced = idx.slice(1).map((i, j) => i - idx[j]! > 1);
  const dist = pos.slice(1).map((p, j) => p - pos[j]!);
  const mid = median(dist)!;
  const usual = dist.filter((d, j) => !spaced[j] && d >= 0.5 * mid && d <= 1.5 * mid);
  const pitch = Math.max(1e-6, usual.length ? usual.reduce((a, b) => a + b, 0) / usual.length : mid);
  // Widest blank run between the two characters' time steps, in pitches; and the widest one lying wholly
  // between them, in columns.
  const cols = profile.columns;
  const runs = blankRuns(profile, 1);
  const gap: number[] = [];
  const whole: number[] = [];
  for (let j = 0; j < dist.length; j++) {
    const a = (pos[j]! + 0.5) * columnsPerStep;
    const b = (pos[j + 1]! + 0.5) * columnsPerStep;
    let best = 0;
    let inside = 0;
    for (const [r0, r1] of runs) {
      const w = Math.min(r1, Math.round(b), cols.length) - Math.max(r0, Math.round(a), 0);
      if (w > best) best = w;
      if (r0 >= a && r1 <= b && r1 - r0 > inside) inside = r1 - r0;
    }
    gap.push(best / columnsPerStep / pitch);
    whole.push(inside);
  }
  const wordGap = median(gap.filter((_, j) => spaced[j]));
  const letterGap = median(gap.filter((_, j) => !spaced[j])) ?? 0;
  const space = new Set<number>();
  for (let j = 0; j < gap.length; j++) {
    if (spaced[j]) continue;
    const before = chars[idx[j]!]!;
    const after = chars[idx[j + 1]!]!;
    const g = gap[j]!;
    const decimalPoint = before === '.' && /\d/.test(chars[idx[j]! - 1] ?? '') && /\d/.test(after);
    if (decimalPoint) continue;
    const narrow = Number(NARROW.test(before)) + Number(NARROW.test(after));
    const byPitch = SEPARATOR.test(before) && !NARROW.test(after)
      ? g >= 0.55
      : narrow === 2 ? g >= 1 : narrow === 1 ? g >= 0.8 : wordGap !== undefined ? g >= Math.max(0.45, 0.7 * wordGap) : g >= 0.8 || (g >= 0.45 && g >= 2.5 * letterGap);
    // Large print spaces its words by its height: a blank a third of the line's height wide (not before closing
    // punctuation nor after an opening bracket, where monospaced print leaves room anyway).
    const byHeight = whole[j]! >= Math.max(2, profile.height / 3) && !/[.,:;)\]]/.test(after) && !/[([]/.test(before);
    if (!(byPitch || byHeight)) continue;
    if (decoded.spaceProbs && LETTER.test(before) && LETTER.test(after) && !spaceLikely(decoded.spaceProbs, pos[j]!, pos[j + 1]!)) continue;
    space.add(idx[j + 1]!);
  }
  if (!space.size) return decoded;
  const out = { text: '', confidences: [] as number[], positions: [] as number[] };
  for (let i = 0; i < chars.length; i++) {
    if (space.has(i)) {
      out.text += ' ';
      out.confidences.push(decoded.confidences[i]!);
      out.positions.push(decoded.positions[i]!);
    }
    out.text += chars[i];
    out.confidences.push(decoded.confidences[i]!);
    out.positions.push(decoded.positions[i]!);
  }
  return out;
}

/**
 * Lines without the fragments the detector found twice: a line of one or two characters whose box lies mostly (60 %)
 * inside a larger line's box is a sliver of that line's print, read as a stray character (`SDN 1 BHD`).
 */
export function withoutFragments(lines: OcrLine[]): OcrLine[] {
  const area = (b: OcrLine['box']) => b.width * b.height;
  return lines.filter((l) => {
    if (l.text.replace(/\s+/g, '').length > 2) return true;
    return !lines.some((o) => {
      if (o === l || area(o.box) <= area(l.box)) return false;
      const ix = Math.min(l.box.left + l.box.width, o.box.left + o.box.width) - Math.max(l.box.left, o.box.left);
      const iy = Math.min(l.box.top + l.box.height, o.box.top + o.box.height) - Math.max(l.box.top, o.box.top);
      return ix > 0 && iy > 0 && ix * iy >= 0.6 * area(l.box);
    });
  });
}

/** The characters of a word beyond the first `from` and before the last `to`, its box cut in proportion. */
function wordPart(w: OcrWord, from: number, to: number): OcrWord {
  const per = w.box.width / w.text.length;
  return { ...w, text: w.text.slice(from, w.text.length - to), box: { ...w.box, left: w.box.left + from * per, width: w.box.width - (from + to) * per } };
}

/**
 * Lines without the characters two pieces of one printed line both read. The detector can find a line in two
 * overlapping pieces (large or broken print, a slanting page), and each piece reads the glyph where they overlap:
 * `PERNIAGAAN RIANG` + `G RIA`, `15.` + `.00`, `Print Time : S` + `Saturday`. Where the last word of one line and the
 * first word of a line that starts within or after it, on the same row, and goes on beyond it overlap by half a
 * character or more (at most three and a half), and the characters there read the same on both sides, they are one
 * reading: the shorter word loses them (on a tie, the right one). Two words that both keep characters touch, so they
 * are one word (`15.00`), in the left line.
 */
export function withoutDoubleReadings(lines: readonly OcrLine[]): OcrLine[] {
  const out = lines.map((l) => ({ ...l, words: [...l.words] }));
  for (const a of out) {
    for (const b of out) {
      const left = a.words[a.words.length - 1];
      const right = b.words[0];
      if (a === b || !left || !right || right.box.left < left.box.left) continue;
      // The right line goes on beyond the left one's last word.
      const end = b.words[b.words.length - 1]!.box;
      if (end.left + end.width <= left.box.left + left.box.width) continue;
      const rise = Math.min(left.box.top + left.box.height, right.box.top + right.box.height) - Math.max(left.box.top, right.box.top);
      if (rise < 0.6 * Math.min(left.box.height, right.box.height)) continue;
      const shared = Math.min(left.box.left + left.box.width, right.box.left + right.box.width) - right.box.left;
      const charWidth = (left.box.width / left.text.length + right.box.width / right.text.length) / 2;
      if (shared < 0.5 * charWidth || shared > 3.5 * charWidth) continue;
      const guess = Math.round(shared / charWidth);
      const k = [guess, guess - 1, guess + 1].find(
        (n) => n >= 1 && n <= Math.min(left.text.length, right.text.length) && left.text.slice(-n).toUpperCase() === right.text.slice(0, n).toUpperCase(),
      );
      if (!k) continue;
      const [l, r] = left.text.length < right.text.length ? [wordPart(left, 0, k), right] : [left, wordPart(right, k, 0)];
      a.words.pop();
      b.words.shift();
      if (l.text && r.text) a.words.push({ ...l, text: l.text + r.text, box: unionBoxes([l.box, r.box]), confidence: Math.min(l.confidence, r.confidence) });
      else {
        if (l.text) a.words.push(l);
        if (r.text) b.words.unshift(r);
      }
    }
  }
  return out.map((l, k) =>
    l.words.length === lines[k]!.words.length && l.words.every((w, n) => w === lines[k]!.words[n])
      ? lines[k]!
      : { ...l, text: l.words.map((w) => w.text).join(' '), confidence: l.words.reduce((sum, w) => sum + w.confidence, 0) / Math.max(1, l.words.length) },
  );
}
