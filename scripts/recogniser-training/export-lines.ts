/**
 * Training lines for the text-line recogniser, from a SROIE-style folder (images/, ocr/):
 *   npx tsx scripts/recogniser-training/export-lines.ts <folder> <out> [--rec-model <file|base>]
 * Cuts every line the product's detector finds exactly as the product reads it (`recognitionBoxes`, `lineImage`,
 * `scaledBand`: widened, straightened, 48 px high) and labels it with the challenge's line annotations: the whole
 * annotated words, among the annotated lines beside the box, that the current reading is closest to. A line whose
 * reading is further than three edits in ten from every such span (case ignored) is left out (a box that cuts a
 * word, or an annotation that does not cover the box); the label's letters take the case the page prints
 * (`printedCase`). Writes <out>/img/<receipt>_<n>.webp (RGB, lossless WebP: the recogniser's
 * input before padding) and <out>/lines.jsonl ({ file, receipt, label, read, distance } per line).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { lineImage, recognitionBoxes, scaledBand } from '../../lambdas/adapters/local-recogniser/line-images';
import { PaddleOcr } from '../../lambdas/adapters/local-recogniser/paddle-ocr';
import { alignEdits } from '../bench/ocr-confusions';
import { annotatedLines, listReceipts } from '../bench/recognition/sroie';

interface AnnotatedLine {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The challenge's line annotations of one receipt, each as its text and the box around its four corners. */
function annotatedBoxes(csvPath: string): AnnotatedLine[] {
  return annotatedLines(csvPath).map(({ corners: c, text }) => {
    const xs = [c[0], c[2], c[4], c[6]];
    const ys = [c[1], c[3], c[5], c[7]];
    return { text, x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
  });
}

const squeeze = (s: string) => s.replace(/\s+/g, '');

/** Edit distance of two strings, case ignored, and for each character of `a` the character of `b` aligned to it (-1: none). */
export function alignCaseless(a: string, b: string): { distance: number; pairs: number[] } {
  const { distance, pairs } = alignEdits(a.toUpperCase(), b.toUpperCase());
  return { distance, pairs };
}

/** The run of whole annotated words closest to a reading, and its distance (spaces and case ignored). */
export function closestSpan(words: string[], read: string): { label: string; distance: number } | undefined {
  const target = squeeze(read);
  let best: { label: string; distance: number } | undefined;
  for (let s = 0; s < words.length; s++) {
    for (let e = s + 1; e <= words.length; e++) {
      const label = words.slice(s, e).join(' ');
      if (squeeze(label).length > target.length * 2 + 4) break;
      const { distance } = alignCaseless(squeeze(label), target);
      if (!best || distance < best.distance) best = { label, distance };
    }
  }
  return best;
}

/**
 * The label's letters in the case the page prints them. Many of the challenge's annotations are written in capitals
 * whatever the receipt prints (`TEL:` for `Tel:`): where a label has no small letter, each letter takes the case of
 * the letter read at its place, or of the last letter read before it. A label with small letters is kept as written.
 */
export function printedCase(label: string, read: string): string {
  if (/[a-z]/.test(label) || !/[a-z]/.test(read)) return label;
  const l = squeeze(label);
  const r = squeeze(read);
  const { pairs } = alignCaseless(l, r);
  let lower = false;
  let k = 0;
  let out = '';
  for (const c of label) {
    if (/\s/.test(c)) {
      out += c;
      continue;
    }
    const j = pairs[k++]!;
    const seen = j >= 0 ? r[j]! : '';
    if (/[A-Za-z]/.test(seen)) lower = seen === seen.toLowerCase();
    out += /[A-Za-z]/.test(c) && lower ? c.toLowerCase() : c;
  }
  return out;
}

async function main() {
  const [folder, out, flag, model] = process.argv.slice(2);
  if (!folder || !out || (flag && flag !== '--rec-model')) throw new Error('Usage: export-lines.ts <folder> <out> [--rec-model <file|base>]');
  mkdirSync(join(out, 'img'), { recursive: true });
  // The reading only picks each box's annotated words and their case; the shipped data used `--rec-model base`.
  const ocr = new PaddleOcr({ recogniserModel: model });
  const rows: string[] = [];
  let seen = 0;
  for (const r of listReceipts(folder)) {
    const bytes = readFileSync(r.image);
    // Decoded as the product decodes it (a large scan at half size), the annotations scaled to it.
    const { page: img, boxes: found } = await ocr.decodePage(bytes);
    const { autoOrient } = await sharp(bytes).metadata();
    const [sx, sy] = [img.width / autoOrient.width, img.height / autoOrient.height];
    const annotated = annotatedBoxes(join(folder, 'ocr', `${r.id}.csv`)).map((a) => ({ ...a, x0: a.x0 * sx, x1: a.x1 * sx, y0: a.y0 * sy, y1: a.y1 * sy }));
    const kept = recognitionBoxes(img, found ?? (await ocr.detect(img)));
    const bands = await Promise.all(kept.map((k) => lineImage(img, k.b)));
    const reads = await ocr.readBands(bands);
    for (const [n, { b }] of kept.entries()) {
      seen++;
      const read = reads[n]!.raw.text.trim();
      if (!read) continue;
      const h = b.y1 - b.y0;
      const beside = annotated
        .filter((a) => Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) >= 0.5 * Math.min(h, a.y1 - a.y0) && Math.min(a.x1, b.x1) > Math.max(a.x0, b.x0))
        .sort((p, q) => p.x0 - q.x0);
      const span = closestSpan(beside.flatMap((a) => a.text.split(/\s+/)), read);
      if (!span || span.distance > Math.floor(0.3 * squeeze(span.label).length)) continue;
      const scaled = await scaledBand(bands[n]!);
      const file = `img/${r.id}_${n}.webp`;
      await sharp(scaled.data, { raw: { width: scaled.width, height: scaled.height, channels: 3 } }).webp({ lossless: true, effort: 6 }).toFile(join(out, file));
      rows.push(JSON.stringify({ file, receipt: r.id, label: printedCase(span.label, read), read, distance: span.distance }));
    }
    process.stdout.write(`${r.id} `);
  }
  await ocr.close();
  writeFileSync(join(out, 'lines.jsonl'), rows.join('\n') + '\n');
  console.log(`\nlines: ${rows.length} of ${seen} boxes labelled`);
}

if (process.argv[1]?.endsWith('export-lines.ts')) main();
