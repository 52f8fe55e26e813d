/**
 * Reading values off the page: the words inside a box, in reading order, normalised for the datapoint
 * they fill (amounts as 0.00, dates as YYYY-MM-DD, ...). Used by "select a box" and by the line-items grid.
 */
import type { Box, SchemaField } from '../../../shared/schemas/content';
import { normaliseValue } from '../recognition/map-fields';
import type { DateFormat } from '../recognition/types';
import type { OcrBox } from './build';

export const center = (b: Box) => ({ x: b.left + b.width / 2, y: b.top + b.height / 2 });

export function inside(b: Box, area: Box): boolean {
  const c = center(b);
  return c.x >= area.left && c.x <= area.left + area.width && c.y >= area.top && c.y <= area.top + area.height;
}

export function unionBox(boxes: Box[]): Box | null {
  if (!boxes.length) return null;
  const l = Math.min(...boxes.map((b) => b.left));
  const t = Math.min(...boxes.map((b) => b.top));
  const r = Math.max(...boxes.map((b) => b.left + b.width));
  const bo = Math.max(...boxes.map((b) => b.top + b.height));
  const round = (n: number) => Math.round(n * 1e6) / 1e6;
  return { left: round(l), top: round(t), width: round(r - l), height: round(bo - t) };
}

/** Groups words into text lines by vertical overlap, top to bottom, each line left to right. */
export function textLines(words: OcrBox[]): OcrBox[][] {
  const sorted = [...words].sort((a, b) => a.top + a.height / 2 - (b.top + b.height / 2));
  const lines: { words: OcrBox[]; top: number; bottom: number }[] = [];
  for (const w of sorted) {
    const mid = w.top + w.height / 2;
    const line = lines.find((l) => mid >= l.top && mid <= l.bottom);
    if (line) {
      line.words.push(w);
      line.top = Math.min(line.top, w.top);
      line.bottom = Math.max(line.bottom, w.top + w.height);
    } else lines.push({ words: [w], top: w.top, bottom: w.top + w.height });
  }
  return lines.sort((a, b) => a.top - b.top).map((l) => l.words.sort((a, b) => a.left - b.left));
}

export interface ReadResult {
  text: string;
  value: string;
  position: Box | null;
  block_id: string | null;
  confidence: number | null;
}

/** How a datapoint's value is normalised when read from the page. */
function kindOf(field: Pick<SchemaField, 'id' | 'type'>): Parameters<typeof normaliseValue>[0] | undefined {
  if (field.id === 'currency') return 'currency';
  if (field.id === 'iban') return 'iban';
  if (field.id === 'bic_swift') return 'bic';
  switch (field.type) {
    case 'amount':
      return 'amount';
    case 'date':
      return 'date';
    case 'rate':
      return 'rate';
    case 'quantity':
      return 'quantity';
    case 'code':
      return 'id';
    default:
      return undefined;
  }
}

/** The text as the datapoint stores it; the raw text when it cannot be read as its type (validation then says so). */
export function normaliseFor(field: Pick<SchemaField, 'id' | 'type'>, text: string, dateFormat?: DateFormat): string {
  const kind = kindOf(field);
  const raw = text.replace(/\s+/g, ' ').trim();
  if (!kind || !raw) return raw;
  return normaliseValue(kind, raw, dateFormat ? { dateFormat } : {}) ?? raw;
}

/** The words of a page inside `area`, read for `field`. */
export function readArea(words: OcrBox[], area: Box, field: Pick<SchemaField, 'id' | 'type'>, dateFormat?: DateFormat): ReadResult {
  const hit = words.filter((w) => inside(w, area));
  const lines = textLines(hit);
  const text = lines.map((l) => l.map((w) => w.text).join(' ')).join(' ').trim();
  return {
    text,
    value: normaliseFor(field, text, dateFormat),
    position: unionBox(hit) ?? roundArea(area),
    block_id: hit.length ? hit.map((w) => w.id).join(',') : null,
    confidence: hit.length ? Math.min(...hit.map((w) => w.confidence)) : null,
  };
}

function roundArea(b: Box): Box {
  const r = (n: number) => Math.round(n * 1e6) / 1e6;
  return { left: r(b.left), top: r(b.top), width: r(b.width), height: r(b.height) };
}
