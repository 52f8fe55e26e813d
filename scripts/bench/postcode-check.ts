/**
 * False alarms of the postcode check (`correctPostcodes`, extract/places.ts) on text the annotators typed:
 *   npx tsx scripts/bench/postcode-check.ts [lines file]
 * Every distinct line with a five-digit number of the language model's text (default: the shipped
 * `models/receipt-lines.txt`, the training receipts' lines and keys as typed) is checked as if read; the text is right
 * as it stands, so every line the check changes is a false alarm (or a misprint). Prints each change and the count.
 */
import { readFileSync } from 'node:fs';
import { RECEIPT_LANGUAGE_LINES } from '../../lambdas/adapters/local-recogniser/paddle-models';
import { correctPostcodes } from '../../lambdas/core/recognition/extract/places';

const file = process.argv[2] ?? RECEIPT_LANGUAGE_LINES;
const lines = [...new Set(readFileSync(file, 'utf8').split('\n').filter((l) => /(?<!\d)\d{5}(?!\d)/.test(l)))];
let changed = 0;
for (const line of lines) {
  const checked = correctPostcodes(line);
  if (checked === line) continue;
  changed++;
  console.log(`${JSON.stringify(line)} → ${JSON.stringify(checked)}`);
}
console.log(`lines with a five-digit number: ${lines.length}, changed by the postcode check: ${changed}`);
