/** SROIE-style receipt folders: images/NNN.jpg, keys/NNN.json, ocr/NNN.csv; scoring rules of its README. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { isValidDate, parseDate, toIso } from '../../../lambdas/core/recognition/extract/dates';
import { pixelBox } from '../../../lambdas/core/recognition/geometry';
import { knownLines } from '../../../lambdas/adapters/local-recogniser/known-lines';
import { languageModelLines } from '../../../lambdas/adapters/local-recogniser/paddle-models';
import { type PaddleOcrOptions } from '../../../lambdas/adapters/local-recogniser/paddle-ocr';
import { extractDocument, type Extraction } from '../../../lambdas/core/recognition/extract';
import type { ExtractedFields, OcrDocument, OcrLine, OcrWord } from '../../../lambdas/core/recognition/types';

export const SCORED_FIELDS = ['company', 'date', 'address', 'total'] as const;
export type ScoredField = (typeof SCORED_FIELDS)[number];
export type Keys = Partial<Record<ScoredField, string>>;

export interface Receipt {
  id: string;
  image: string;
  keys: Keys;
  annotations?: string;
}

/**
 * The folder's receipts, by image; a folder without `images/` (line annotations and keys only, for
 * `--from-annotations`) lists its annotated receipts instead.
 */
export function listReceipts(folder: string): Receipt[] {
  const images = existsSync(join(folder, 'images'))
    ? readdirSync(join(folder, 'images')).filter((f) => /\.(jpe?g|png|tiff?)$/i.test(f))
    : readdirSync(join(folder, 'ocr')).filter((f) => f.endsWith('.csv')).map((f) => f.replace(/\.csv$/, '.jpg'));
  images.sort();
  return images.map((f) => {
    const id = f.replace(/\.[^.]+$/, '');
    const keyPath = join(folder, 'keys', `${id}.json`);
    const ann = join(folder, 'ocr', `${id}.csv`);
    return {
      id,
      image: join(folder, 'images', f),
      keys: existsSync(keyPath) ? (JSON.parse(readFileSync(keyPath, 'utf8')) as Keys) : {},
      ...(existsSync(ann) ? { annotations: ann } : {}),
    };
  });
}

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Is the label field present (scorable)? */
export function scorable(keys: Keys, field: ScoredField): boolean {
  const v = keys[field];
  return typeof v === 'string' && collapse(v) !== '';
}

function totalNumber(s: string): number | undefined {
  const m = s.replace(/,(?=\d{3}\b)/g, '').match(/-?\d+(?:[.,]\d+)?/);
  return m ? Number(m[0].replace(',', '.')) : undefined;
}

/** A label printed as eight digits without separators ("20180304", "04032018"): year first, else day first. */
function compactDate(s: string): string | undefined {
  const m = /^(\d{8})$/.exec(collapse(s));
  if (!m) return undefined;
  const d = m[1]!;
  const [y1, m1, d1] = [Number(d.slice(0, 4)), Number(d.slice(4, 6)), Number(d.slice(6, 8))];
  if (isValidDate(y1, m1, d1)) return toIso(y1, m1, d1);
  const [d2, m2, y2] = [Number(d.slice(0, 2)), Number(d.slice(2, 4)), Number(d.slice(4, 8))];
  return isValidDate(y2, m2, d2) ? toIso(y2, m2, d2) : undefined;
}

/** The README's rules: whitespace collapsed; company/address case-insensitive; total as a number; date as YYYY-MM-DD. */
export function isRight(field: ScoredField, expected: string, got: string | undefined): boolean {
  if (got === undefined) return false;
  switch (field) {
    case 'company':
    case 'address':
      return collapse(expected).toUpperCase() === collapse(got).toUpperCase();
    case 'total': {
      const a = totalNumber(expected);
      const b = totalNumber(got);
      return a !== undefined && b !== undefined && Math.abs(a - b) < 0.001;
    }
    case 'date': {
      const a = parseDate(expected) ?? compactDate(expected) ?? collapse(expected);
      const b = parseDate(got) ?? compactDate(got) ?? collapse(got);
      return a === b;
    }
  }
}

/** The product's fields as the four SROIE fields. */
export function predictedKeys(fields: ExtractedFields): Partial<Record<ScoredField, string>> {
  return {
    ...(fields.supplier_name ? { company: fields.supplier_name.value } : {}),
    ...(fields.issue_date ? { date: fields.issue_date.value } : {}),
    ...(fields.supplier_address ? { address: fields.supplier_address.value } : {}),
    ...(fields.amount_total ? { total: fields.amount_total.value } : {}),
  };
}

/**
 * The challenge's line annotations as words: each line's text split at spaces, the words spread over
 * the line's box in proportion to their length.
 */
/** The challenge's line annotations of one receipt: four corners (x1,y1 … x4,y4, clockwise from top-left) and the text. */
export function annotatedLines(csvPath: string): { corners: [number, number, number, number, number, number, number, number]; text: string }[] {
  const lines: { corners: [number, number, number, number, number, number, number, number]; text: string }[] = [];
  for (const raw of readFileSync(csvPath, 'utf8').split(/\r?\n/)) {
    const parts = raw.split(',');
    if (parts.length < 9) continue;
    const corners = parts.slice(0, 8).map(Number) as [number, number, number, number, number, number, number, number];
    const text = parts.slice(8).join(',').trim();
    if (!text || corners.some(Number.isNaN)) continue;
    lines.push({ corners, text });
  }
  return lines;
}

/**
 * The page's size in pixels: the image's, or without the image the annotations' extent with as much margin
 * right and below as they leave left and above.
 */
async function pageSize(imagePath: string, annotated: { corners: number[] }[]): Promise<{ W: number; H: number }> {
  if (existsSync(imagePath)) {
    const meta = await sharp(imagePath).metadata();
    return { W: meta.width ?? 1, H: meta.height ?? 1 };
  }
  const xs = annotated.flatMap(({ corners }) => corners.filter((_, i) => i % 2 === 0));
  const ys = annotated.flatMap(({ corners }) => corners.filter((_, i) => i % 2 === 1));
  if (!xs.length) return { W: 1, H: 1 };
  return { W: Math.max(...xs) + Math.max(0, Math.min(...xs)), H: Math.max(...ys) + Math.max(0, Math.min(...ys)) };
}

export async function annotationsDocument(csvPath: string, imagePath: string): Promise<OcrDocument> {
  const annotated = annotatedLines(csvPath);
  const { W, H } = await pageSize(imagePath, annotated);
  const lines: OcrLine[] = [];
  for (const { corners, text } of annotated) {
    const [x1, y1, x2, y2, x3, y3, x4, y4] = corners;
    // Words placed along the quad (top edge from corner 1 to 2, bottom edge from 4 to 3), so a skewed line stays skewed.
    const at = (t: number) => ({
      x0: x1 + (x2 - x1) * t,
      yTop: y1 + (y2 - y1) * t,
      yBottom: y4 + (y3 - y4) * t,
      xb: x4 + (x3 - x4) * t,
    });
    const tokens = text.split(/\s+/);
    const total = text.length;
    let cursor = 0;
    const words: OcrWord[] = [];
    for (const t of tokens) {
      const start = text.indexOf(t, cursor);
      cursor = start + t.length;
      const a = at(start / total);
      const b = at(cursor / total);
      const left = Math.min(a.x0, a.xb);
      const right = Math.max(b.x0, b.xb);
      const top = Math.min(a.yTop, b.yTop);
      const bottom = Math.max(a.yBottom, b.yBottom);
      words.push({ text: t, box: pixelBox(left, top, right, bottom, W, H), confidence: 95, page: 1 });
    }
    const xs = [x1, x2, x3, x4];
    const ys = [y1, y2, y3, y4];
    lines.push({ text, words, box: pixelBox(Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys), W, H), confidence: 95, page: 1 });
  }
  return { source: 'ocr', pages: [{ page: 1, width: W, height: H, lines }] };
}

/** The value after a command-line flag (`--every 6` → "6"), or undefined when the flag is not given. */
export function option(argv: string[], name: string): string | undefined {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
}

const PADDLE_OPTIONS = ['threads', 'maxDetectionSide', 'minDetectionSide', 'minRecognitionRatio', 'gapSpaces', 'deskewPage', 'levelMap', 'halveLargePages'] as const;
const PADDLE_SWITCHES = new Set(['gapSpaces', 'deskewPage', 'levelMap', 'halveLargePages']);

/** `key=number` pairs; `gapSpaces`, `deskewPage`, `levelMap` and `halveLargePages` take 0 or 1. */
function parsePaddleOptions(text: string): PaddleOcrOptions {
  const opts: Record<string, number | boolean> = {};
  for (const pair of text.split(',').filter(Boolean)) {
    const [key, value] = pair.split('=');
    if (!PADDLE_OPTIONS.includes(key as (typeof PADDLE_OPTIONS)[number]) || !Number.isFinite(Number(value))) {
      throw new Error(`--paddle takes ${PADDLE_OPTIONS.join(', ')} as key=number pairs, not ${pair}`);
    }
    opts[key!] = PADDLE_SWITCHES.has(key!) ? Number(value) !== 0 : Number(value);
  }
  return opts;
}

/** The command-line flags `readerOptions` reads, each followed by its value. */
export const READER_FLAGS = new Set(['--paddle', '--rec-model', '--det-model', '--lm']);

/**
 * The first reading's options from a benchmark's command line: `--paddle key=value,…` (`parsePaddleOptions`),
 * `--rec-model` / `--det-model <file|base>` and `--lm <file|none>`.
 */
export function readerOptions(argv: string[]): PaddleOcrOptions {
  const opts: PaddleOcrOptions = parsePaddleOptions(option(argv, '--paddle') ?? '');
  const rec = option(argv, '--rec-model');
  const det = option(argv, '--det-model');
  const lm = option(argv, '--lm');
  if (rec) opts.recogniserModel = rec;
  if (det) opts.detectorModel = det;
  if (lm) opts.languageModel = lm;
  return opts;
}

/**
 * The extraction of a kept reading replayed (`--from-dump`, `--from-annotations`) as the local recogniser extracts a
 * live one: a reading of images weighs its names against the lines known from other receipts, taken from the
 * text `--lm` names (`readerOptions`; default the shipped one; `known-lines.ts`).
 */
export function replayExtraction(reader: PaddleOcrOptions): (doc: OcrDocument) => Extraction {
  const known = knownLines(languageModelLines(reader.languageModel) ?? []);
  return (doc) => extractDocument(doc, doc.source === 'ocr' ? { knownLines: known } : {});
}
