/**
 * The text lines the recogniser's character language model is counted from:
 *   npx tsx scripts/recogniser-training/lm-lines.ts <folder> <out.txt> [--only 000,010,...]
 * Every annotated line of the folder's receipts (ocr/*.csv, the challenge's own transcriptions), in upper case with
 * spaces collapsed, receipt by receipt. `lambdas/adapters/local-recogniser/models/receipt-lines.txt` is this over the
 * whole development folder; `--only` writes some receipts' lines, so that the other receipts can be read by a model
 * that never saw them (held-out measures, docs/recognition.md "Language model").
 */
import { writeFileSync } from 'node:fs';
import { CharNgramModel } from '../../lambdas/adapters/local-recogniser/char-ngram';
import { annotatedLines, listReceipts } from '../bench/recognition/sroie';

function main(): void {
  const [folder, out, flag, list] = process.argv.slice(2);
  if (!folder || !out || (flag && (flag !== '--only' || !list))) throw new Error('Usage: lm-lines.ts <folder> <out.txt> [--only ids]');
  const only = list ? new Set(list.split(',')) : undefined;
  const lines: string[] = [];
  for (const r of listReceipts(folder)) {
    if (!r.annotations || (only && !only.has(r.id))) continue;
    for (const { text } of annotatedLines(r.annotations)) {
      const line = CharNgramModel.normalise(text);
      if (line) lines.push(line);
    }
  }
  writeFileSync(out, `${lines.join('\n')}\n`);
  console.log(`${lines.length} lines → ${out}`);
}

main();
