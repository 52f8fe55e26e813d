/**
 * The pixels of one text line as the recogniser reads them: its box cut from the page (turned level where the line
 * slants), widened so as not to clip end letters, scaled to the recogniser's height; and the line's ink per column,
 * which places word gaps.
 */
import sharp from 'sharp';
import { cropRgb, type RgbImage } from './page-image';
import { REC_HEIGHT } from './paddle-models';
import type { TextBox } from './text-detection';

/** Each line box is widened by this share of its height on both sides (the detector can clip end letters). */
export const REC_PAD = 0.15;
/** Longest line image the recogniser gets, as a width/height ratio (longer lines are squeezed). */
export const REC_MAX_RATIO = 40;
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

/** Lines slanting less than this (radians, about 1°) are read as they are. */
export const DESKEW_MIN = 0.0175;

/**
 * The slant of a text line's box and the height of the text along it: a box holding a line of length L and height
 * T at angle θ is L·cos θ + T·sin θ wide and L·sin θ + T·cos θ high, so T = (h·cos θ − w·sin θ) / (cos²θ − sin²θ).
 * None for a box too short or too steep to tell a line's length from its height.
 */
export function lineSlant(b: { x0: number; y0: number; x1: number; y1: number; angle?: number }): { theta: number; thickness: number } | undefined {
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
