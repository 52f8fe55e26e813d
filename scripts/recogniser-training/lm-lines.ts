/**
 * The text lines the recogniser's character language model is counted from:
 *   npx tsx scripts/recogniser-training/lm-lines.ts <folder> <out.txt> [--only 000,010,...] [--also <folder>]... [--keys <folder>]...
 * Every annotated line of the folder's receipts (ocr/*.csv, the challenge's own transcriptions), in upper case with
 * spaces collapsed, receipt by receipt. `--only` writes some receipts' lines, so that the other receipts can be read
 * by a model that never saw them (held-out measures, docs/recognition.md "Language model"). `--also` adds every
 * annotated line of another folder (annotations without images will do); `--keys` adds the seller's name and address
 * of each key file (`*.json` with `company` and `address`) in a folder, one line each.
 * `lambdas/adapters/local-recogniser/models/receipt-lines.txt` is this over the whole development folder, the
 * further training receipts' annotations and the keys of the rest (docs/recognition.md "Stop 38").
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
}

function parseArgs(argv: string[]): Args {
  const [folder, out, ...rest] = argv;
  const usage = 'Usage: lm-lines.ts <folder> <out.txt> [--only ids] [--also <folder>]... [--keys <folder>]...';
  if (!folder || !out) throw new Error(usage);
  const args: Args = { folder, out, also: [], keys: [] };
  for (let i = 0; i < rest.length; i += 2) {
    const [flag, value] = [rest[i], rest[i + 1]];
    if (!value) throw new Error(usage);
    if (flag === '--only') args.only = new Set(value.split(','));
    else if (flag === '--also') args.also.push(value);
    else if (flag === '--keys') args.keys.push(value);
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
  const raw = [...annotationLines(args.folder, args.only), ...args.also.flatMap((f) => annotationLines(f)), ...args.keys.flatMap(keyLines)];
  const lines = raw.map((t) => CharNgramModel.normalise(t)).filter(Boolean);
  writeFileSync(args.out, `${lines.join('\n')}\n`);
  console.log(`${lines.length} lines → ${args.out}`);
}

main();
