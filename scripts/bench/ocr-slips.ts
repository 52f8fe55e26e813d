/**
 * How the extraction holds up when the reading slips on a field, on a SROIE-style folder:
 *   npx tsx scripts/bench/ocr-slips.ts <folder> [--field date|total|company|address] [--verbose]
 * Starts from the challenge's line annotations (`--from-annotations` of the recognition benchmark). For every
 * receipt whose field the extraction reads right from them, each kind of look-alike slip (a digit read as the
 * letter it resembles, a separator read as another glyph, a letter read as another) is put into the words that
 * print the value (the first such character of each), and the extraction runs again. Prints, per kind, how many
 * of the receipts it could be put into still give the right value:
 *   date, 2 → Z: 103/103
 * The slips are the recogniser's usual confusions on thermal print, not a list from any one receipt: the most
 * frequent ones of `ocr-confusions.ts` on the development folder's readings.
 */
import { extractDocument } from '../../lambdas/core/recognition/extract';
import { toAnalyzeExpenseResult } from '../../lambdas/core/recognition/expense';
import { mapExpenseToFields } from '../../lambdas/core/recognition/map-fields';
import type { OcrDocument } from '../../lambdas/core/recognition/types';
import { annotationsDocument, isRight, listReceipts, predictedKeys, scorable } from './recognition/sroie';

const NAME_SLIPS: [string, string][] = [
  ['O', '0'],
  ['I', '1'],
  ['S', '5'],
  ['B', '8'],
  ['G', '6'],
  ['M', 'N'],
  ['P', 'F'],
  ['L', 'I'],
  ['C', 'G'],
  ['E', 'F'],
  ['M', 'H'],
  ['T', 'I'],
  ['L', '1'],
  ['O', 'C'],
  ['O', 'D'],
];

const SLIPS: [string, string][] = [
  ['0', 'O'],
  ['0', 'o'],
  ['1', 'l'],
  ['1', 'I'],
  ['2', 'Z'],
  ['5', 'S'],
  ['6', 'b'],
  ['8', 'B'],
  ['9', 'g'],
  ['/', '1'],
  ['/', 'I'],
  ['-', '~'],
  ['.', ','],
  ['.', ' '],
];

type Field = 'date' | 'total' | 'company' | 'address';

/** Does a word print the field's value: a date's digits and separators, the total's amount, a word of the name? */
function printsValue(field: Field, word: string, value: string): boolean {
  if (field === 'date') return /\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4}/.test(word);
  if (field === 'company' || field === 'address') return word.length >= 3 && value.toUpperCase().split(/\s+/).includes(word.toUpperCase());
  return word.replace(/^RM/i, '').replace(/,/g, '') === value.replace(/^0+(?=\d)/, '');
}

function readField(doc: OcrDocument, field: Field): string | undefined {
  return predictedKeys(mapExpenseToFields(toAnalyzeExpenseResult(doc, extractDocument(doc))))[field];
}

async function main() {
  const argv = process.argv.slice(2);
  const folder = argv.find((a, i) => !a.startsWith('--') && argv[i - 1] !== '--field');
  const fieldAt = argv.indexOf('--field');
  const fields: Field[] = fieldAt >= 0 ? [argv[fieldAt + 1] as Field] : ['date', 'total', 'company', 'address'];
  const verbose = argv.includes('--verbose');
  if (!folder || fields.some((f) => !['date', 'total', 'company', 'address'].includes(f))) {
    throw new Error('Usage: ocr-slips.ts <folder> [--field date|total|company|address] [--verbose]');
  }
  for (const field of fields) {
    const slips = field === 'company' || field === 'address' ? NAME_SLIPS : SLIPS;
    const counts = new Map<string, { right: number; tried: number }>(slips.map(([from, to]) => [`${from} → ${to}`, { right: 0, tried: 0 }]));
    for (const r of listReceipts(folder)) {
      if (!r.annotations || !scorable(r.keys, field)) continue;
      const doc = await annotationsDocument(r.annotations, r.image);
      if (!isRight(field, r.keys[field]!, readField(doc, field))) continue;
      for (const [from, to] of slips) {
        const slipped = structuredClone(doc);
        let touched = 0;
        for (const line of slipped.pages.flatMap((p) => p.lines)) {
          for (const w of line.words) {
            const at = w.text.indexOf(from);
            if (at < 0 || !printsValue(field, w.text, r.keys[field]!)) continue;
            w.text = w.text.slice(0, at) + to + w.text.slice(at + from.length);
            touched++;
          }
          line.text = line.words.map((w) => w.text).join(' ');
        }
        if (!touched) continue;
        const count = counts.get(`${from} → ${to}`)!;
        count.tried++;
        const got = readField(slipped, field);
        if (isRight(field, r.keys[field]!, got)) count.right++;
        else if (verbose) process.stderr.write(`${r.id} ${field} ${from} → ${to}: expected ${JSON.stringify(r.keys[field])} got ${JSON.stringify(got)}\n`);
      }
    }
    for (const [kind, c] of counts) if (c.tried) console.log(`${field}, ${kind}: ${c.right}/${c.tried}`);
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
