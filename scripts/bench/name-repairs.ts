/**
 * What the dictionary repairs of names (`extract/lexicon.ts`) would change, on kept recognition results and on the
 * folder's labels:
 *   npx tsx scripts/bench/name-repairs.ts <folder> <dump dir>
 * (the dump dir from `npm run bench:recognition -- <folder> --dump <dir>`). Prints each word of the top 20 lines
 * that a repair would change, with the confidence it was read with; the words of the labels' names and addresses
 * that a repair would change (there should be none); and how surely the recogniser reads English words of four or
 * more letters in the top 8 lines (the share read with confidence ≥ 97, the threshold below which words are
 * repaired).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { blocksToDocument } from '../../lambdas/core/recognition/expense';
import { correctMisreadWords, isEnglishWord } from '../../lambdas/core/recognition/extract/lexicon';
import type { AnalyzeExpenseResult } from '../../lambdas/core/recognition/types';
import { listReceipts } from './recognition/sroie';

const SURE = 97;

function main() {
  const [folder, dumpDir] = process.argv.slice(2);
  if (!folder || !dumpDir) throw new Error('Usage: name-repairs.ts <folder> <dump dir>');
  const changed: string[] = [];
  const englishConfidences: number[] = [];
  for (const file of readdirSync(dumpDir).filter((f) => f.endsWith('.json')).sort()) {
    const doc = blocksToDocument(JSON.parse(readFileSync(join(dumpDir, file), 'utf8')) as AnalyzeExpenseResult);
    doc.pages[0]?.lines.slice(0, 20).forEach((line, n) => {
      // The repairs read a word with its neighbours (a lost first capital is told by the next word's case).
      const words = line.words.map((w) => w.text);
      const fixed = correctMisreadWords(words.join(' ')).split(' ');
      line.words.forEach((w, i) => {
        if (fixed[i] !== w.text) changed.push(`${file.replace('.json', '')}: ${w.text} → ${fixed[i]} (confidence ${w.confidence})`);
        const word = /^(\p{L}{4,})[.,]?$/u.exec(w.text)?.[1];
        if (n < 8 && word && isEnglishWord(word)) englishConfidences.push(w.confidence);
      });
    });
  }
  const labelChanges: string[] = [];
  for (const r of listReceipts(folder)) {
    for (const text of [r.keys.company ?? '', r.keys.address ?? '']) {
      for (const word of text.split(/[^\p{L}]+/u).filter(Boolean)) {
        if (correctMisreadWords(word) !== word) labelChanges.push(`${r.id}: ${word} → ${correctMisreadWords(word)}`);
      }
    }
  }
  console.log(`words a repair changes in the top lines (${changed.length}):`);
  for (const c of changed) console.log(`  ${c}`);
  console.log(`label words a repair would change: ${labelChanges.length}`);
  for (const c of labelChanges) console.log(`  ${c}`);
  const sure = englishConfidences.filter((c) => c >= SURE).length;
  const pct = englishConfidences.length ? ((sure / englishConfidences.length) * 100).toFixed(1) : '0.0';
  console.log(`English words in the top 8 lines read with confidence ≥ ${SURE}: ${pct} % (${sure}/${englishConfidences.length})`);
}

main();
