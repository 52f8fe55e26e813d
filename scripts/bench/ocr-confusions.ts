/**
 * Which characters the reading confuses, against the challenge's line annotations, on a SROIE-style folder:
 *   npx tsx scripts/bench/ocr-confusions.ts <folder> --from-dump <dir> [--top N]
 * Reads kept readings (`--dump` of the recognition benchmark), pairs each line of five characters or more with
 * the annotated line of the receipt closest to it (spaces and case ignored; at most one edit in eight characters,
 * or two), aligns the two and counts each substitution, loss and addition. Prints:
 *   lines compared: <n> (<n> read exactly), <n> characters
 *   M → N: 40          (annotated M, read N; ∅ is a character lost or added)
 * The slip kinds of `ocr-slips.ts` are taken from the top of this list; the annotations' own inconsistencies (the
 * letter O and the digit 0 in codes) show up here too.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { blocksToDocument } from '../../lambdas/core/recognition/expense';
import type { AnalyzeExpenseResult } from '../../lambdas/core/recognition/types';
import { listReceipts } from './recognition/sroie';

const LOST = '∅';
const squeeze = (s: string) => s.replace(/\s+/g, '').toUpperCase();

/**
 * Edit distance of two strings and one cheapest alignment: its edits ([annotated, read] pairs) and, for each
 * annotated character, the index of the read character aligned to it (-1: lost).
 */
export function alignEdits(annotated: string, read: string): { distance: number; edits: [string, string][]; pairs: number[] } {
  const n = annotated.length;
  const m = read.length;
  const d = Array.from({ length: n + 1 }, (_, i) => Array.from({ length: m + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (annotated[i - 1] === read[j - 1] ? 0 : 1));
    }
  }
  const edits: [string, string][] = [];
  const pairs = new Array<number>(n).fill(-1);
  let i = n;
  let j = m;
  while (i > 0 || j > 0) {
    if (i > 0 && j > 0 && d[i]![j] === d[i - 1]![j - 1]! + (annotated[i - 1] === read[j - 1] ? 0 : 1)) {
      if (annotated[i - 1] !== read[j - 1]) edits.push([annotated[i - 1]!, read[j - 1]!]);
      pairs[--i] = --j;
    } else if (i > 0 && d[i]![j] === d[i - 1]![j]! + 1) {
      edits.push([annotated[i - 1]!, LOST]);
      i--;
    } else {
      edits.push([LOST, read[j - 1]!]);
      j--;
    }
  }
  return { distance: d[n]![m]!, edits, pairs };
}

function main() {
  const argv = process.argv.slice(2);
  const folder = argv.find((a, i) => !a.startsWith('--') && !['--from-dump', '--top'].includes(argv[i - 1] ?? ''));
  const dumpAt = argv.indexOf('--from-dump');
  const dump = dumpAt >= 0 ? argv[dumpAt + 1] : undefined;
  const topAt = argv.indexOf('--top');
  const top = topAt >= 0 ? Number(argv[topAt + 1]) : 40;
  if (!folder || !dump) throw new Error('Usage: ocr-confusions.ts <folder> --from-dump <dir> [--top N]');
  const counts = new Map<string, number>();
  let lines = 0;
  let exact = 0;
  let characters = 0;
  for (const r of listReceipts(folder)) {
    const file = join(dump, `${r.id}.json`);
    if (!r.annotations || !existsSync(file)) continue;
    const annotated = readFileSync(r.annotations, 'utf8')
      .split(/\r?\n/)
      .map((row) => squeeze(row.split(',').slice(8).join(',')))
      .filter((t) => t.length >= 5);
    const doc = blocksToDocument(JSON.parse(readFileSync(file, 'utf8')) as AnalyzeExpenseResult);
    for (const line of doc.pages.flatMap((p) => p.lines)) {
      const read = squeeze(line.text);
      if (read.length < 5) continue;
      let best: ReturnType<typeof alignEdits> | undefined;
      for (const a of annotated) {
        if (Math.abs(a.length - read.length) > 3) continue;
        const aligned = alignEdits(a, read);
        if (!best || aligned.distance < best.distance) best = aligned;
      }
      if (!best || best.distance > Math.max(2, read.length / 8)) continue;
      lines++;
      characters += read.length;
      if (best.distance === 0) exact++;
      for (const [a, b] of best.edits) counts.set(`${a} → ${b}`, (counts.get(`${a} → ${b}`) ?? 0) + 1);
    }
  }
  console.log(`lines compared: ${lines} (${exact} read exactly), ${characters} characters`);
  for (const [kind, n] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${kind}: ${n}`);
}

if (process.argv[1]?.endsWith('ocr-confusions.ts')) main();
