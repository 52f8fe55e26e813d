/**
 * The text lines the recogniser's character language model is counted from:
 *   npx tsx scripts/recogniser-training/lm-lines.ts <folder> <out.txt> [--only 000,010,...] [--also <folder>]... [--keys <folder>]...
 *     [--also-cut <folder>]...
 * Every annotated line of the folder's receipts (ocr/*.csv, the challenge's own transcriptions), in upper case with
 * spaces collapsed, receipt by receipt. `--only` writes some receipts' lines, so that the other receipts can be read
 * by a model that never saw them (held-out measures, docs/recognition.md "Language model"). `--also` adds every
 * annotated line of another folder (annotations without images will do); `--keys` adds the seller's name and address
 * of each key file (`*.json` with `company` and `address`) in a folder, one line each. `--also-cut` adds the lines of
 * a folder whose annotations were cut at their first comma (`sroie-jsonl.ts`) that no comma cut: a line whose box is
 * wider for its characters than 1.3 times the receipt's median lost its end (on 59 receipts whose full lines are
 * known, 21 of the 2,547 lines this keeps were cut, and it drops 367, 238 of them whole).
 * `lambdas/adapters/local-recogniser/models/receipt-lines.txt` is this over the whole development folder, the
 * further training receipts' annotations, the keys of the rest and the uncut lines of the rest (docs/recognition.md
 * "Stop 38", "Stop 39").
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CharNgramModel } from '../../lambdas/adapters/local-recogniser/char-ngram';
import { annotatedLines, listReceipts } from '../bench/recognition/sroie';

interface Args {
  folder: string;
  out: string;
  only?: Set<string>;
  also: string[];
  keys: string[];
  alsoCut: string[];
}

function parseArgs(argv: string[]): Args {
  const [folder, out, ...rest] = argv;
  const usage = 'Usage: lm-lines.ts <folder> <out.txt> [--only ids] [--also <folder>]... [--keys <folder>]... [--also-cut <folder>]...';
  if (!folder || !out) throw new Error(usage);
  const args: Args = { folder, out, also: [], keys: [], alsoCut: [] };
  for (let i = 0; i < rest.length; i += 2) {
    const [flag, value] = [rest[i], rest[i + 1]];
    if (!value) throw new Error(usage);
    if (flag === '--only') args.only = new Set(value.split(','));
    else if (flag === '--also') args.also.push(value);
    else if (flag === '--keys') args.keys.push(value);
    else if (flag === '--also-cut') args.alsoCut.push(value);
    else throw new Error(usage);
  }
  return args;
}

function annotationLines(folder: string, only?: Set<string>): string[] {
  const lines: string[] = [];
  for (const r of listReceipts(folder)) {
    if (!r.annotations || (only && !only.has(r.id))) continue;
    for (const { text } of annotatedLines(r.annotations)) lines.push(text);
  }
  return lines;
}

/** A line is taken as whole when its box is at most this many times as wide per character as the receipt's median. */
const UNCUT_WIDTH_RATIO = 1.3;

/** The lines of a folder whose annotations were cut at their first comma, less those a comma cut. */
function uncutLines(folder: string): string[] {
  const lines: string[] = [];
  for (const r of listReceipts(folder)) {
    if (!r.annotations) continue;
    const annotated = annotatedLines(r.annotations).map(({ corners, text }) => {
      const xs = [corners[0], corners[2], corners[4], corners[6]];
      return { text, perChar: (Math.max(...xs) - Math.min(...xs)) / text.length };
    });
    const usual = annotated.filter((l) => l.text.length >= 4).map((l) => l.perChar).sort((a, b) => a - b);
    const median = usual[Math.floor(usual.length / 2)];
    if (median === undefined) continue;
    for (const l of annotated) if (l.perChar <= median * UNCUT_WIDTH_RATIO) lines.push(l.text);
  }
  return lines;
}

function keyLines(folder: string): string[] {
  const lines: string[] = [];
  for (const f of readdirSync(folder).filter((x) => x.endsWith('.json')).sort()) {
    const key = JSON.parse(readFileSync(join(folder, f), 'utf8')) as { company?: unknown; address?: unknown };
    for (const v of [key.company, key.address]) if (typeof v === 'string') lines.push(v);
  }
  return lines;
}

function main(): void {
  const args = parseArgs(process.argv.slice(2));
  const raw = [...annotationLines(args.folder, args.only), ...args.also.flatMap((f) => annotationLines(f)), ...args.keys.flatMap(keyLines), ...args.alsoCut.flatMap(uncutLines)];
  const lines = raw.map((t) => CharNgramModel.normalise(t)).filter(Boolean);
  writeFileSync(args.out, `${lines.join('\n')}\n`);
  console.log(`${lines.length} lines → ${args.out}`);
}

main();
