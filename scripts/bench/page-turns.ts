/**
 * How well a page's lines tell how it lies, on a SROIE-style folder whose pages are upright:
 *   npx tsx scripts/bench/page-turns.ts <folder> [--every N] [--only 000,010] [--samples 1,2,4,8]
 *     [--rec-model <file|base>] [--lm <file|none>] [--paddle key=value,…]
 * Each page (every N-th, default 1) is turned in memory by 0°, 90°, 180° and 270° clockwise, as if stored so, and
 * measured as `LocalRecogniser.readUpright` reads it (docs/recognition.md "Stop 42"):
 * - the share of its long boxes' length that stands on end (`onEndShare`; `linesStandOnEnd` is that over a half),
 *   upright and upside down against turned a quarter;
 * - the mean word confidence of the page read as it lies, upright against upside down (`READS_WELL_CONFIDENCE`);
 * - for a page turned a quarter, how often `readsUpsideDown` with 1, 2, 4 or 8 lines chose the wrong quarter turn,
 *   and its milliseconds a page.
 * The reader's options are bench:recognition's: with a fold model that never saw the receipts (`--only` its held-out
 * half, scripts/recogniser-training/held-out.sh) the confidences are those of receipts never seen.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { READS_WELL_CONFIDENCE } from '../../lambdas/adapters/local-recogniser';
import { PaddleOcr } from '../../lambdas/adapters/local-recogniser/paddle-ocr';
import { decodeRgb } from '../../lambdas/adapters/local-recogniser/page-image';
import { onEndShare } from '../../lambdas/adapters/local-recogniser/text-detection';
import { listReceipts, option, readerOptions } from './recognition/sroie';

const range = (v: number[]) => (v.length ? `${Math.min(...v).toFixed(2)}–${Math.max(...v).toFixed(2)}` : '—');

async function main() {
  const argv = process.argv.slice(2);
  const folder = argv.find((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
  const every = Number(option(argv, '--every') ?? 1);
  const samples = (option(argv, '--samples') ?? '1,2,4,8').split(',').map(Number);
  const only = option(argv, '--only')?.split(',');
  if (!folder || !(every >= 1) || samples.some((k) => !(k >= 1))) {
    throw new Error('Usage: page-turns.ts <folder> [--every N] [--only ids] [--samples 1,2,4,8] [--rec-model …] [--lm …] [--paddle …]');
  }
  const ocr = new PaddleOcr(readerOptions(argv));
  const share = { level: [] as number[], quarter: [] as number[] };
  const confidence = { upright: [] as number[], over: [] as number[] };
  const unsure: string[] = [];
  const wrong = new Map(samples.map((k) => [k, [] as string[]]));
  const ms = new Map(samples.map((k) => [k, 0]));
  const receipts = listReceipts(folder)
    .filter((r) => !only || only.includes(r.id))
    .filter((_, i) => i % every === 0);
  try {
    for (const r of receipts) {
      const bytes = readFileSync(r.image);
      for (const turn of [0, 90, 180, 270] as const) {
        const page = await decodeRgb(bytes, turn);
        const boxes = await ocr.detect(page);
        if (turn % 180 === 0) {
          share.level.push(onEndShare(boxes));
          const read = await ocr.recognize(page, 1, boxes);
          (turn === 0 ? confidence.upright : confidence.over).push(read.confidence);
          if (turn === 0 && read.confidence < READS_WELL_CONFIDENCE) unsure.push(`${r.id} (${read.confidence.toFixed(1)})`);
          continue;
        }
        share.quarter.push(onEndShare(boxes));
        // readUpright turns a page on its side a quarter clockwise: stored at 90° it is then upside down.
        const quarter = await decodeRgb(bytes, ((turn + 90) % 360) as 0 | 180);
        const quarterBoxes = await ocr.detect(quarter);
        for (const k of samples) {
          const started = performance.now();
          const upsideDown = await ocr.readsUpsideDown(quarter, quarterBoxes, k);
          ms.set(k, ms.get(k)! + performance.now() - started);
          if (upsideDown !== (turn === 90)) wrong.get(k)!.push(`${r.id}@${turn}`);
        }
      }
      process.stdout.write(`${r.id} `);
    }
  } finally {
    await ocr.close();
  }
  const n = receipts.length;
  console.log(`\npages: ${n}, each turned 0°, 90°, 180° and 270°`);
  console.log(`long boxes' length on end: upright or upside down ${range(share.level)}, turned a quarter ${range(share.quarter)}`);
  console.log(`mean word confidence: upright ${range(confidence.upright)}, upside down ${range(confidence.over)}`);
  console.log(`upright under ${READS_WELL_CONFIDENCE} (read again turned): ${unsure.length} of ${n}${unsure.length ? ` (${unsure.join(' ')})` : ''}`);
  for (const k of samples) {
    const w = wrong.get(k)!;
    console.log(`quarter turn chosen by ${k} line(s): ${w.length} wrong of ${2 * n}${w.length ? ` (${w.join(' ')})` : ''}, ${Math.round(ms.get(k)! / (2 * n))} ms a page`);
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
