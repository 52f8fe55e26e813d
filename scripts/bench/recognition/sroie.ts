/** SROIE-style receipt folders: images/NNN.jpg, keys/NNN.json, ocr/NNN.csv; scoring rules of its README. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { parseDate } from '../../../lambdas/core/recognition/extract/dates';
import { pixelBox } from '../../../lambdas/core/recognition/geometry';
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

export function listReceipts(folder: string): Receipt[] {
  const images = readdirSync(join(folder, 'images'))
    .filter((f) => /\.(jpe?g|png|tiff?)$/i.test(f))
    .sort();
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
      const a = parseDate(expected) ?? collapse(expected);
      const b = parseDate(got) ?? collapse(got);
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
export async function annotationsDocument(csvPath: string, imagePath: string): Promise<OcrDocument> {
  const meta = await sharp(imagePath).metadata();
  const W = meta.width ?? 1;
  const H = meta.height ?? 1;
  const lines: OcrLine[] = [];
  for (const raw of readFileSync(csvPath, 'utf8').split(/\r?\n/)) {
    const parts = raw.split(',');
    if (parts.length < 9) continue;
    const xs = [0, 2, 4, 6].map((i) => Number(parts[i]));
    const ys = [1, 3, 5, 7].map((i) => Number(parts[i]));
    const text = parts.slice(8).join(',').trim();
    if (!text || xs.some(Number.isNaN)) continue;
    const x0 = Math.min(...xs);
    const x1 = Math.max(...xs);
    const y0 = Math.min(...ys);
    const y1 = Math.max(...ys);
    const tokens = text.split(/\s+/);
    const total = text.length;
    let cursor = 0;
    const words: OcrWord[] = [];
    for (const t of tokens) {
      const start = text.indexOf(t, cursor);
      cursor = start + t.length;
      const wx0 = x0 + ((x1 - x0) * start) / total;
      const wx1 = x0 + ((x1 - x0) * cursor) / total;
      words.push({ text: t, box: pixelBox(wx0, y0, wx1, y1, W, H), confidence: 95, page: 1 });
    }
    lines.push({ text, words, box: pixelBox(x0, y0, x1, y1, W, H), confidence: 95, page: 1 });
  }
  return { source: 'ocr', pages: [{ page: 1, width: W, height: H, lines }] };
}
