/**
 * A folder of SROIE training receipts (`ocr/<id>.csv`, `keys/<id>.json`) from a public copy of the training split's
 * word boxes and keys as JSON lines (`metadata.jsonl`: per receipt `key`, `entities` {company, date, address,
 * total}, `words` (one per annotated line) and `bboxes` [x1, y1, x2, y2]):
 *   npx tsx scripts/recogniser-training/sroie-jsonl.ts <metadata.jsonl> <out folder> [--skip <folder>]... [--keys <folder>]...
 * Numbering as the development folder's: the 626 receipts sorted by name, 000-625. The development folder's receipts
 * (every fifth) are never written, nor those a `--skip` folder already holds (`ocr/<id>.csv`). A key file of the
 * same id in a `--keys` folder (labels with the corrections of the development folder's source) is written instead
 * of the copy's own entities.
 * That copy's loader cut every line at its first comma ("NO.2&4, JALAN HARMONI 3/2," is "NO.2&4"), so the
 * annotations serve the names, dates and totals, not the addresses; `lm-lines.ts --also-cut` takes only the lines a
 * comma did not cut (docs/recognition.md "Stop 39").
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface Record {
  key: string;
  entities: { company?: string; date?: string; address?: string; total?: string };
  words: string[];
  bboxes: [number, number, number, number][];
}

const TRAINING_RECEIPTS = 626;

function main(): void {
  const [input, out, ...rest] = process.argv.slice(2);
  const usage = 'Usage: sroie-jsonl.ts <metadata.jsonl> <out folder> [--skip <folder>]... [--keys <folder>]...';
  if (!input || !out) throw new Error(usage);
  const skip: string[] = [];
  const keys: string[] = [];
  for (let i = 0; i < rest.length; i += 2) {
    const [flag, value] = [rest[i], rest[i + 1]];
    if (!value) throw new Error(usage);
    if (flag === '--skip') skip.push(value);
    else if (flag === '--keys') keys.push(value);
    else throw new Error(usage);
  }
  const records = readFileSync(input, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record)
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  if (records.length !== TRAINING_RECEIPTS) throw new Error(`${records.length} receipts, not the training split's ${TRAINING_RECEIPTS}: the numbering would not match`);
  mkdirSync(join(out, 'ocr'), { recursive: true });
  mkdirSync(join(out, 'keys'), { recursive: true });
  let written = 0;
  records.forEach((r, index) => {
    const id = String(index).padStart(3, '0');
    if (index % 5 === 0 || skip.some((f) => existsSync(join(f, 'ocr', `${id}.csv`)))) return;
    if (r.words.length !== r.bboxes.length) throw new Error(`${r.key}: ${r.words.length} lines, ${r.bboxes.length} boxes`);
    const lines = r.words.map((text, i) => {
      const [x1, y1, x2, y2] = r.bboxes[i]!;
      return `${x1},${y1},${x2},${y1},${x2},${y2},${x1},${y2},${text}`;
    });
    writeFileSync(join(out, 'ocr', `${id}.csv`), `${lines.join('\n')}\n`);
    const corrected = keys.map((f) => join(f, `${id}.json`)).find((f) => existsSync(f));
    writeFileSync(join(out, 'keys', `${id}.json`), corrected ? readFileSync(corrected, 'utf8') : JSON.stringify(r.entities, null, 2));
    written++;
  });
  console.log(`${written} receipts → ${out}`);
}

main();
