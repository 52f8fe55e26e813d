/**
 * How the local recogniser uses the machine when several documents wait (local mode runs two processing jobs at a
 * time, `scripts/local/jobs.ts`), on a SROIE-style folder:
 *   npx tsx scripts/bench/recognition-throughput.ts <folder> [--every N] [--limit N]
 * One `LocalRecogniser` reads every N-th receipt (default 10, at most `--limit`, default 10) twice after a warm-up:
 * one document at a time, then two at once (each half of them in turn). Then `RecogniserThreads` with two threads
 * (as the processing job holds in local mode) reads them two at once, after a warm-up that starts both threads.
 * Prints the time the models take to load in this process and a thread to start with them, the milliseconds per
 * receipt and the CPU milliseconds per receipt of each (the process's, all threads), and their ratios to one at a time.
 * First of all, while the process has loaded no model: how long the first receipt takes in `RecogniserThreads` that
 * start their thread for it, and in ones readied beforehand (`warmUp`, as `npm start` does), against the same
 * receipt read again.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { LocalRecogniser } from '../../lambdas/adapters/local-recogniser';
import { RecogniserThreads } from '../../lambdas/adapters/local-recogniser/threads';
import { listReceipts, option } from './recognition/sroie';

async function timed(run: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await run();
  const used = process.cpuUsage(cpu);
  return { wall: performance.now() - started, cpu: (used.user + used.system) / 1000 };
}

/**
 * The first document's time in a new `RecogniserThreads` of one thread, started for it (cold) or readied beforehand,
 * and the same document read again by the readied one.
 */
async function firstDocument(doc: { bytes: Buffer; mime: string }): Promise<{ cold: number; warmUp: number; readied: number; again: number }> {
  const cold = new RecogniserThreads({ threads: 1 });
  const readied = new RecogniserThreads({ threads: 1 });
  try {
    const coldRead = await timed(() => cold.analyzeExpense(doc));
    const warmUp = await timed(() => readied.warmUp());
    const readiedRead = await timed(() => readied.analyzeExpense(doc));
    const again = await timed(() => readied.analyzeExpense(doc));
    return { cold: coldRead.wall, warmUp: warmUp.wall, readied: readiedRead.wall, again: again.wall };
  } finally {
    await Promise.all([cold.close(), readied.close()]);
  }
}

async function main() {
  const argv = process.argv.slice(2);
  const folder = argv.find((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
  const every = Number(option(argv, '--every') ?? 10);
  const limit = Number(option(argv, '--limit') ?? 10);
  if (!folder || !(every >= 1) || !(limit >= 2)) throw new Error('Usage: recognition-throughput.ts <folder> [--every N] [--limit N]');
  const files = listReceipts(folder)
    .filter((_, i) => i % every === 0)
    .slice(0, limit)
    .map((r) => readFileSync(r.image));
  if (files.length < 2) throw new Error('Too few receipts: lower --every');
  const half = Math.ceil(files.length / 2);
  const twoAtOnce = (read: (bytes: Buffer) => Promise<unknown>) =>
    timed(() =>
      Promise.all([files.slice(0, half), files.slice(half)].map(async (part) => {
        for (const bytes of part) await read(bytes);
      })),
    );
  const input = (bytes: Buffer) => ({ bytes, mime: 'image/jpeg' });
  const first = await firstDocument(input(files[0]!));
  const recogniser = new LocalRecogniser();
  let one: { wall: number; cpu: number };
  let two: { wall: number; cpu: number };
  let load: { wall: number; cpu: number };
  try {
    load = await timed(() => recogniser.warmUp());
    await recogniser.analyzeExpense(input(files[0]!));
    one = await timed(async () => {
      for (const bytes of files) await recogniser.analyzeExpense(input(bytes));
    });
    two = await twoAtOnce((bytes) => recogniser.analyzeExpense(input(bytes)));
  } finally {
    await recogniser.close();
  }
  const threads = new RecogniserThreads({ threads: 2 });
  let inThreads: { wall: number; cpu: number };
  let threadStart: { wall: number; cpu: number };
  try {
    threadStart = await timed(() => threads.warmUp());
    await Promise.all(files.slice(0, 2).map((bytes) => threads.analyzeExpense(input(bytes))));
    inThreads = await twoAtOnce((bytes) => threads.analyzeExpense(input(bytes)));
  } finally {
    await threads.close();
  }
  const per = (ms: number) => Math.round(ms / files.length);
  console.log(
    `first receipt: ${Math.round(first.cold)} ms in a thread started for it; ${Math.round(first.readied)} ms in one readied before (in ${Math.round(first.warmUp)} ms); the same receipt again ${Math.round(first.again)} ms`,
  );
  console.log(`models loaded in this process: ${Math.round(load.wall)} ms; a thread started with its models: ${Math.round(threadStart.wall)} ms`);
  console.log(`receipts: ${files.length}`);
  console.log(`one at a time: ${per(one.wall)} ms a receipt, CPU ${per(one.cpu)} ms`);
  console.log(`two at once: ${per(two.wall)} ms a receipt, CPU ${per(two.cpu)} ms`);
  console.log(`ratio two at once / one at a time: ${(two.wall / one.wall).toFixed(2)}`);
  console.log(`two at once in two threads: ${per(inThreads.wall)} ms a receipt, CPU ${per(inThreads.cpu)} ms`);
  console.log(`ratio two threads / one at a time: ${(inThreads.wall / one.wall).toFixed(2)}`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
