/**
 * Where PaddleOCR's time goes, on a SROIE-style folder:
 *   npx tsx scripts/bench/ocr-phases.ts <folder> [--every N] [--threads N] [--against-det <file|base>] [--against-rec <file|base>]
 *     [--against-lm <file|none>] [--against-batch N] [--against-min-ratio R] [--against-deskew 0|1] [--against-level-map 0|1]
 *     [--against-halve 0|1]
 * Reads every N-th receipt (default 6) after one warm-up receipt and prints, per receipt, the milliseconds of
 * decoding the image, detection (and the detector model's share), recognition (and the recogniser model's share,
 * its runs and its input columns), and the process's CPU seconds, so that a change to the reading can be judged by
 * the phase it touches. Times are of one run on a shared machine: compare phases measured in the same run.
 * With `--against-det`, `--against-rec` or `--against-lm` each receipt is also read with those model files (`base`:
 * the package's own; `none`: no language model, greedy decoding), with `--against-batch` with that many lines of one
 * width a recogniser run (1: every line on its own), with `--against-min-ratio` shorter lines padded only to R times
 * their height (`PaddleOcrOptions.minRecognitionRatio`; 320/48 in use), with `--against-deskew 0` without turning
 * slanting pages level (`deskewPage`; levelling counts to detection), with `--against-level-map 0` a levelled page's lines
 * found by the detector run again on it (`levelMap`), with `--against-halve 0` every page
 * decoded at its own size (`halveLargePages`; a large page's detection at half size counts to decoding), the two readers taking turns
 * receipt by receipt, and the ratios of their phases are printed.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { type ModelRun, PaddleOcr, type PaddleOcrOptions } from '../../lambdas/adapters/local-recogniser/paddle-ocr';
import { listReceipts, option } from './recognition/sroie';

/** One reader's models, its phase times and the model runs it made. */
class TimedReader {
  readonly runs: ModelRun[] = [];
  readonly phase = { decode: 0, detect: 0, recognise: 0 };
  readonly ocr: PaddleOcr;

  constructor(opts: PaddleOcrOptions) {
    this.ocr = new PaddleOcr({ ...opts, onModelRun: (run) => this.runs.push(run) });
  }

  async warmUp(file: Buffer): Promise<void> {
    await this.ocr.recognize(file);
    this.runs.length = 0;
  }

  async read(file: Buffer): Promise<void> {
    const t0 = performance.now();
    const { page, boxes: found } = await this.ocr.decodePage(file);
    const t1 = performance.now();
    const { image, boxes } = await this.ocr.detectLevel(page, found);
    const t2 = performance.now();
    await this.ocr.recognizeBoxes(image, boxes, 1);
    const t3 = performance.now();
    this.phase.decode += t1 - t0;
    this.phase.detect += t2 - t1;
    this.phase.recognise += t3 - t2;
  }

  modelMs(model: ModelRun['model']): number {
    return this.runs.filter((r) => r.model === model).reduce((s, r) => s + r.ms, 0);
  }

  report(n: number): void {
    const sum = (model: ModelRun['model'], f: (r: ModelRun) => number) => this.runs.filter((r) => r.model === model).reduce((s, r) => s + f(r), 0) / n;
    const ms = (v: number) => `${Math.round(v)} ms`;
    const { decode, detect, recognise } = this.phase;
    console.log(`per receipt: ${ms((decode + detect + recognise) / n)}`);
    console.log(`decode: ${ms(decode / n)}`);
    console.log(`detect: ${ms(detect / n)} (model ${ms(sum('detector', (r) => r.ms))}, ${Math.round(sum('detector', (r) => r.width * r.height) / 1000)} k pixels)`);
    console.log(
      `recognise: ${ms(recognise / n)} (model ${ms(sum('recogniser', (r) => r.ms))}, ${Math.round(sum('recogniser', () => 1))} runs, ` +
        `${Math.round(sum('recogniser', (r) => r.width))} columns)`,
    );
  }

  total(): number {
    return this.phase.decode + this.phase.detect + this.phase.recognise;
  }
}

async function main() {
  const argv = process.argv.slice(2);
  const folder = argv.find((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
  const every = Number(option(argv, '--every') ?? 6);
  const threads = Number(option(argv, '--threads') ?? 0);
  const againstDet = option(argv, '--against-det');
  const againstRec = option(argv, '--against-rec');
  const againstLm = option(argv, '--against-lm');
  const againstBatch = option(argv, '--against-batch') === undefined ? undefined : Number(option(argv, '--against-batch'));
  const againstMinRatio = option(argv, '--against-min-ratio') === undefined ? undefined : Number(option(argv, '--against-min-ratio'));
  const againstDeskew = option(argv, '--against-deskew');
  const againstHalve = option(argv, '--against-halve');
  const againstLevelMap = option(argv, '--against-level-map');
  if (
    !folder ||
    !(every >= 1) ||
    !(threads >= 0) ||
    (againstBatch !== undefined && !(againstBatch >= 1)) ||
    (againstMinRatio !== undefined && !(againstMinRatio > 0)) ||
    (againstDeskew !== undefined && againstDeskew !== '0' && againstDeskew !== '1') ||
    (againstHalve !== undefined && againstHalve !== '0' && againstHalve !== '1') ||
    (againstLevelMap !== undefined && againstLevelMap !== '0' && againstLevelMap !== '1')
  ) {
    throw new Error(
      'Usage: ocr-phases.ts <folder> [--every N] [--threads N] [--against-det <file|base>] [--against-rec <file|base>] [--against-lm <file|none>] [--against-batch N] [--against-min-ratio R] [--against-deskew 0|1] [--against-level-map 0|1] [--against-halve 0|1]',
    );
  }
  const files = listReceipts(folder)
    .filter((_, i) => i % every === 0)
    .map((r) => readFileSync(r.image));
  if (files.length < 2) throw new Error('Too few receipts: lower --every');
  const reader = new TimedReader({ threads });
  const other =
    againstDet || againstRec || againstLm || againstBatch || againstMinRatio || againstDeskew || againstLevelMap || againstHalve
      ? new TimedReader({
          threads,
          detectorModel: againstDet,
          recogniserModel: againstRec,
          languageModel: againstLm,
          recognitionBatch: againstBatch,
          minRecognitionRatio: againstMinRatio,
          deskewPage: againstDeskew === undefined ? undefined : againstDeskew === '1',
          levelMap: againstLevelMap === undefined ? undefined : againstLevelMap === '1',
          halveLargePages: againstHalve === undefined ? undefined : againstHalve === '1',
        })
      : undefined;
  const readers = other ? [reader, other] : [reader];
  let cpu = { user: 0, system: 0 };
  try {
    for (const r of readers) await r.warmUp(files[0]!);
    const cpuStart = process.cpuUsage();
    for (const [i, file] of files.slice(1).entries()) {
      // Taking turns, each starting every other receipt, so the machine's load falls on both alike.
      for (const r of i % 2 ? [...readers].reverse() : readers) await r.read(file);
    }
    cpu = process.cpuUsage(cpuStart);
  } finally {
    await Promise.all(readers.map((r) => r.ocr.close()));
  }
  const n = files.length - 1;
  console.log(`receipts: ${n} (every ${every}th after a warm-up), ONNX threads: ${threads || 'ONNX Runtime default'}`);
  console.log(`CPU per receipt, all readers: ${((cpu.user + cpu.system) / 1e6 / n).toFixed(2)} s`);
  if (!other) {
    reader.report(n);
    return;
  }
  console.log('— the models in use');
  reader.report(n);
  console.log(
    `— against detector ${againstDet ?? '(in use)'}, recogniser ${againstRec ?? '(in use)'}, language model ${againstLm ?? '(in use)'}, ` +
      `lines a run ${againstBatch ?? '(in use)'}, narrowest input ${againstMinRatio ?? '(in use)'}, ` +
      `slanting pages turned level ${againstDeskew === undefined ? '(in use)' : againstDeskew === '1' ? 'yes' : 'no'}, ` +
      `their lines from the turned probabilities ${againstLevelMap === undefined ? '(in use)' : againstLevelMap === '1' ? 'yes' : 'no'}, ` +
      `large pages at half size ${againstHalve === undefined ? '(in use)' : againstHalve === '1' ? 'yes' : 'no'}`,
  );
  other.report(n);
  const ratio = (a: number, b: number) => (b ? (a / b).toFixed(2) : '—');
  console.log(
    `ratio in use / against: per receipt ${ratio(reader.total(), other.total())}, detector model ${ratio(reader.modelMs('detector'), other.modelMs('detector'))}, ` +
      `recogniser model ${ratio(reader.modelMs('recogniser'), other.modelMs('recogniser'))}`,
  );
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
