/**
 * Where PaddleOCR's time goes, on a SROIE-style folder:
 *   npx tsx scripts/bench/ocr-phases.ts <folder> [--every N] [--threads N]
 * Reads every N-th receipt (default 6) after one warm-up receipt and prints, per receipt, the milliseconds of
 * decoding the image, detection (and the detector model's share), recognition (and the recogniser model's share,
 * its runs and its input columns), and the process's CPU seconds, so that a change to the reading can be judged by
 * the phase it touches. Times are of one run on a shared machine: compare phases measured in the same run.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { decodeRgb, PaddleOcr, type ModelRun } from '../../lambdas/adapters/local-recogniser/paddle-ocr';
import { listReceipts } from './recognition/sroie';

function option(argv: string[], name: string, fallback: number): number {
  const at = argv.indexOf(name);
  return at >= 0 ? Number(argv[at + 1]) : fallback;
}

async function main() {
  const argv = process.argv.slice(2);
  const folder = argv.find((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
  const every = option(argv, '--every', 6);
  const threads = option(argv, '--threads', 0);
  if (!folder || !(every >= 1) || !(threads >= 0)) throw new Error('Usage: ocr-phases.ts <folder> [--every N] [--threads N]');
  const files = listReceipts(folder)
    .filter((_, i) => i % every === 0)
    .map((r) => readFileSync(r.image));
  if (files.length < 2) throw new Error('Too few receipts: lower --every');
  const runs: ModelRun[] = [];
  const ocr = new PaddleOcr({ threads, onModelRun: (run) => runs.push(run) });
  const phase = { decode: 0, detect: 0, recognise: 0 };
  let cpu = { user: 0, system: 0 };
  try {
    await ocr.recognize(files[0]!);
    runs.length = 0;
    const cpuStart = process.cpuUsage();
    for (const file of files.slice(1)) {
      const t0 = performance.now();
      const img = await decodeRgb(file);
      const t1 = performance.now();
      const boxes = await ocr.detect(img);
      const t2 = performance.now();
      await ocr.recognizeBoxes(img, boxes, 1);
      const t3 = performance.now();
      phase.decode += t1 - t0;
      phase.detect += t2 - t1;
      phase.recognise += t3 - t2;
    }
    cpu = process.cpuUsage(cpuStart);
  } finally {
    await ocr.close();
  }
  const n = files.length - 1;
  const sum = (model: ModelRun['model'], f: (r: ModelRun) => number) => runs.filter((r) => r.model === model).reduce((s, r) => s + f(r), 0) / n;
  const ms = (v: number) => `${Math.round(v)} ms`;
  const total = phase.decode + phase.detect + phase.recognise;
  console.log(`receipts: ${n} (every ${every}th after a warm-up), ONNX threads: ${threads || 'ONNX Runtime default'}`);
  console.log(`per receipt: ${ms(total / n)}, CPU ${((cpu.user + cpu.system) / 1e6 / n).toFixed(2)} s`);
  console.log(`decode: ${ms(phase.decode / n)}`);
  console.log(`detect: ${ms(phase.detect / n)} (model ${ms(sum('detector', (r) => r.ms))}, ${Math.round(sum('detector', (r) => r.width * r.height) / 1000)} k pixels)`);
  console.log(
    `recognise: ${ms(phase.recognise / n)} (model ${ms(sum('recogniser', (r) => r.ms))}, ${Math.round(sum('recogniser', () => 1))} runs, ` +
      `${Math.round(sum('recogniser', (r) => r.width))} columns)`,
  );
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
