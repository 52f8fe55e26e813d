/**
 * The second look at names (`lambdas/core/recognition/second-look.ts`), on a SROIE-style folder:
 *   npx tsx scripts/bench/second-look.ts <folder> [--every N]
 *     Time: every N-th receipt (default 2) read by two `LocalRecogniser`s, with and without the second look, taking
 *     turns receipt by receipt (the first of the pair alternates); prints milliseconds per receipt and the ratio.
 *   npx tsx scripts/bench/second-look.ts <folder> --names <dump dir> [<dump dir> ...]
 *     Its gate: for each kept reading (`bench:recognition --dump`), the supplier names sure enough for `ready`, how
 *     many have a name word under SURE_NAME_WORD (and how many under other bars), and, for each wrong one, its least
 *     sure name word.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { LocalRecogniser } from '../../lambdas/adapters/local-recogniser';
import { blocksToDocument } from '../../lambdas/core/recognition/expense';
import { extractDocument } from '../../lambdas/core/recognition/extract';
import { nameLines, namesToLookAt, SURE_NAME_WORD } from '../../lambdas/core/recognition/second-look';
import { isRight, listReceipts, option } from './recognition/sroie';

async function time(folder: string, every: number): Promise<void> {
  const receipts = listReceipts(folder).filter((_, i) => i % every === 0);
  const withLook = new LocalRecogniser({ secondLook: true });
  const without = new LocalRecogniser({ secondLook: false });
  const ms = new Map([
    [withLook, 0],
    [without, 0],
  ]);
  try {
    await Promise.all([withLook.warmUp(), without.warmUp()]);
    for (const [k, r] of receipts.entries()) {
      const bytes = readFileSync(r.image);
      for (const reader of k % 2 ? [without, withLook] : [withLook, without]) {
        const started = performance.now();
        await reader.analyzeExpense({ bytes, mime: 'image/jpeg' });
        ms.set(reader, ms.get(reader)! + performance.now() - started);
      }
    }
  } finally {
    await Promise.all([withLook.close(), without.close()]);
  }
  const a = ms.get(withLook)! / receipts.length;
  const b = ms.get(without)! / receipts.length;
  console.log(`receipts: ${receipts.length} (one in ${every}), taking turns`);
  console.log(`per receipt: with the second look ${a.toFixed(0)} ms, without ${b.toFixed(0)} ms, ratio ${(a / b).toFixed(3)}`);
}

function names(folder: string, dumps: string[]): void {
  const bars = [90, 95, SURE_NAME_WORD, 99, 101];
  for (const dump of dumps) {
    const rows: { least: number; right: boolean; text: string }[] = [];
    for (const r of listReceipts(folder)) {
      const file = join(dump, `${r.id}.json`);
      if (!existsSync(file)) continue;
      const doc = blocksToDocument(JSON.parse(readFileSync(file, 'utf8')));
      for (const { field, found } of namesToLookAt(extractDocument(doc))) {
        const page = doc.pages.find((p) => p.page === found.page);
        if (field !== 'supplier_name' || !page) continue;
        const words = nameLines(found, page).flatMap((l) => l.words);
        rows.push({ least: Math.min(...words.map((w) => w.confidence)), right: isRight('company', r.keys.company ?? '', found.value), text: `${r.id} ${found.value}` });
      }
    }
    const under = (bar: number) => rows.filter((x) => x.least < bar);
    console.log(
      `${dump}: ${rows.length} names ≥ 90, ${rows.filter((x) => !x.right).length} wrong; with a word under ` +
        bars.map((bar) => `${bar}: ${under(bar).length} (${under(bar).filter((x) => !x.right).length} wrong)`).join(', '),
    );
    for (const x of rows.filter((x) => !x.right)) console.log(`  wrong, least sure word ${x.least}: ${x.text}`);
  }
}

async function main() {
  const argv = process.argv.slice(2);
  const folder = argv[0];
  if (!folder || folder.startsWith('--')) throw new Error('Usage: second-look.ts <folder> [--every N] | --names <dump dir>...');
  const at = argv.indexOf('--names');
  if (at >= 0) {
    const dumps = argv.slice(at + 1).filter((a) => !a.startsWith('--'));
    if (!dumps.length) throw new Error('--names takes one or more dump folders');
    names(folder, dumps);
    return;
  }
  const every = Number(option(argv, '--every') ?? 2);
  if (!(every >= 1)) throw new Error('--every takes a number of at least 1');
  await time(folder, every);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
