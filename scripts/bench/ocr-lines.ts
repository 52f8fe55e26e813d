/**
 * PaddleOCR's lines against the challenge's line annotations, on a SROIE-style folder:
 *   npx tsx scripts/bench/ocr-lines.ts <folder> [--every N]
 * For every N-th receipt (default 3), each detected line whose letters and digits equal an annotated line's is
 * compared with it as printed (spaces included, case ignored), once with the word spaces the recogniser adds
 * (`insertSpacesByPitch`) and once without; and the page's slant (median over long lines) is counted. Prints:
 *   lines spaced as annotated: with gap spaces <pct> % (<n>/<m>), without <pct> % (<n>/<m>)
 *   pages slanting ≥ 0.7°: <n> of <m> (largest <deg>°)
 */
import { readFileSync } from 'node:fs';
import { PaddleOcr } from '../../lambdas/adapters/local-recogniser/paddle-ocr';
import { decodeRgb } from '../../lambdas/adapters/local-recogniser/page-image';
import { listReceipts } from './recognition/sroie';

const letters = (s: string) => s.replace(/[^\p{L}\d]/gu, '').toUpperCase();
const printed = (s: string) => s.replace(/\s+/g, ' ').trim().toUpperCase();

function annotatedLines(csv: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const row of readFileSync(csv, 'utf8').split(/\r?\n/)) {
    const text = row.split(',').slice(8).join(',').trim();
    if (text.length >= 4) out.set(letters(text), printed(text));
  }
  return out;
}

async function main() {
  const argv = process.argv.slice(2);
  const folder = argv.find((a) => !a.startsWith('--'));
  const everyAt = argv.indexOf('--every');
  const every = everyAt >= 0 ? Number(argv[everyAt + 1]) : 3;
  if (!folder || !(every >= 1)) throw new Error('Usage: ocr-lines.ts <folder> [--every N]');
  const receipts = listReceipts(folder).filter((r, i) => r.annotations && i % every === 0);
  const engines = { with: new PaddleOcr({ gapSpaces: true }), without: new PaddleOcr({ gapSpaces: false }) };
  const counts = { with: { same: 0, all: 0 }, without: { same: 0, all: 0 } };
  const slants: number[] = [];
  try {
    for (const r of receipts) {
      const ann = annotatedLines(r.annotations!);
      const img = await decodeRgb(readFileSync(r.image));
      const boxes = await engines.with.detect(img);
      const long = boxes.filter((b) => b.x1 - b.x0 > 5 * (b.y1 - b.y0)).map((b) => Math.abs(((b.angle ?? 0) * 180) / Math.PI)).sort((a, b) => a - b);
      slants.push(long[long.length >> 1] ?? 0);
      for (const kind of ['with', 'without'] as const) {
        for (const line of await engines[kind].recognizeBoxes(img, boxes, 1)) {
          const expected = ann.get(letters(line.text));
          if (!expected) continue;
          counts[kind].all++;
          if (printed(line.text) === expected) counts[kind].same++;
        }
      }
    }
  } finally {
    await Promise.all([engines.with.close(), engines.without.close()]);
  }
  const pct = (c: { same: number; all: number }) => `${c.all ? ((c.same / c.all) * 100).toFixed(1) : '0.0'} % (${c.same}/${c.all})`;
  console.log(`lines spaced as annotated: with gap spaces ${pct(counts.with)}, without ${pct(counts.without)}`);
  const slanting = slants.filter((s) => s >= 0.7);
  console.log(`pages slanting ≥ 0.7°: ${slanting.length} of ${slants.length} (largest ${Math.max(0, ...slants).toFixed(1)}°)`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
