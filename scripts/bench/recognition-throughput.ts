/**
 * How the local recogniser uses the machine when several documents wait (local mode runs two processing jobs at a
 * time, `scripts/local/jobs.ts`), on a SROIE-style folder:
 *   npx tsx scripts/bench/recognition-throughput.ts <folder> [--every N] [--limit N]
 * One `LocalRecogniser` (as the processing job holds one per process) reads every N-th receipt (default 10, at most
 * `--limit`, default 10) twice after a warm-up: one document at a time, then two at once (each half of them in
 * turn). Prints the milliseconds per receipt and the process's CPU milliseconds per receipt of each, and their ratio.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { LocalRecogniser } from '../../lambdas/adapters/local-recogniser';
import { listReceipts, option } from './recognition/sroie';

async function timed(run: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await run();
  const used = process.cpuUsage(cpu);
  return { wall: performance.now() - started, cpu: (used.user + used.system) / 1000 };
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
  const recogniser = new LocalRecogniser();
  const read = (bytes: Buffer) => recogniser.analyzeExpense({ bytes, mime: 'image/jpeg' });
  try {
    await recogniser.warmUp();
    await read(files[0]!);
    const one = await timed(async () => {
      for (const bytes of files) await read(bytes);
    });
    const half = Math.ceil(files.length / 2);
    const two = await timed(() =>
      Promise.all([files.slice(0, half), files.slice(half)].map(async (part) => {
        for (const bytes of part) await read(bytes);
      })),
    );
    const per = (ms: number) => Math.round(ms / files.length);
    console.log(`receipts: ${files.length}`);
    console.log(`one at a time: ${per(one.wall)} ms a receipt, CPU ${per(one.cpu)} ms`);
    console.log(`two at once: ${per(two.wall)} ms a receipt, CPU ${per(two.cpu)} ms`);
    console.log(`ratio two at once / one at a time: ${(two.wall / one.wall).toFixed(2)}`);
  } finally {
    await recogniser.close();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
