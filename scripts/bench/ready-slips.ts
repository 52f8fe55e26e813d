/**
 * Does the ready rule keep a misread total out of `ready`? On a SROIE-style folder:
 *   npx tsx scripts/bench/ready-slips.ts <folder> [--any-amount] [--verbose]
 * Starts from the challenge's line annotations (`--from-annotations` of the recognition benchmark). For every
 * receipt whose company, date and total the extraction reads right from them, each printed copy of the total's
 * amount (with --any-amount: each amount printed on the receipt, items, tax, cash and change too) in turn gets one
 * digit misread (every digit of it, each as the digit the recogniser takes it for most
 * often on thermal print), the extraction and the product's ready rule (`readyCheck`) run again, and it counts the
 * slipped readings that still reach `ready` with a wrong total: a wrong amount booked without anyone looking.
 * Prints:
 *   slipped totals: <n> readings of <m> receipts   (slipped amounts with --any-amount)
 *   total still right: <n> (<pct> %)
 *   ready: <n>, with a wrong total: <n> (<pct> % of ready)
 */
import { READY_CONFIDENCE, readyCheck } from '../../lambdas/core/documents/content';
import { extractDocument } from '../../lambdas/core/recognition/extract';
import { toAnalyzeExpenseResult } from '../../lambdas/core/recognition/expense';
import { mapExpenseToFields } from '../../lambdas/core/recognition/map-fields';
import type { OcrDocument } from '../../lambdas/core/recognition/types';
import { annotationsDocument, isRight, listReceipts, predictedKeys, scorable } from './recognition/sroie';

/** Each digit as the digit a thermal-print reading most often takes it for (`bench:ocr-confusions`, look-alikes). */
const DIGIT_SLIPS: Record<string, string> = { '0': '8', '1': '7', '2': '7', '3': '8', '4': '1', '5': '6', '6': '5', '7': '1', '8': '9', '9': '8' };

const amountOf = (word: string) => word.replace(/^RM/i, '').replace(/,/g, '');

function read(doc: OcrDocument, today: string) {
  const fields = mapExpenseToFields(toAnalyzeExpenseResult(doc, extractDocument(doc)));
  return { keys: predictedKeys(fields), ready: readyCheck(fields, 'receipt', today).ready, confidence: fields.amount_total?.confidence ?? 0 };
}

async function main() {
  const argv = process.argv.slice(2);
  const folder = argv.find((a) => !a.startsWith('--'));
  const verbose = argv.includes('--verbose');
  const anyAmount = argv.includes('--any-amount');
  if (!folder) throw new Error('Usage: ready-slips.ts <folder> [--any-amount] [--verbose]');
  const today = new Date().toISOString().slice(0, 10);
  let receipts = 0;
  let readings = 0;
  let stillRight = 0;
  let ready = 0;
  let readyWrong = 0;
  let confidentWrong = 0;
  for (const r of listReceipts(folder)) {
    if (!r.annotations || !(['company', 'date', 'total'] as const).every((f) => scorable(r.keys, f))) continue;
    const doc = await annotationsDocument(r.annotations, r.image);
    const base = read(doc, today);
    if (!(['company', 'date', 'total'] as const).every((f) => isRight(f, r.keys[f]!, base.keys[f]))) continue;
    const total = r.keys.total!.replace(/^0+(?=\d)/, '');
    const copies = doc.pages.flatMap((p, pi) => p.lines.flatMap((l, li) => l.words.map((w, wi) => ({ pi, li, wi, text: w.text })))).filter((w) => (anyAmount ? /^(RM)?\d[\d,]*\.\d{2}$/i.test(w.text) : amountOf(w.text) === total));
    if (!copies.length) continue;
    receipts++;
    for (const copy of copies) {
      for (let at = 0; at < copy.text.length; at++) {
        const to = DIGIT_SLIPS[copy.text[at]!];
        if (!to) continue;
        const slipped = structuredClone(doc);
        const line = slipped.pages[copy.pi]!.lines[copy.li]!;
        line.words[copy.wi]!.text = copy.text.slice(0, at) + to + copy.text.slice(at + 1);
        line.text = line.words.map((w) => w.text).join(' ');
        const got = read(slipped, today);
        readings++;
        const right = isRight('total', r.keys.total!, got.keys.total);
        if (right) stillRight++;
        else if (got.confidence >= READY_CONFIDENCE) confidentWrong++;
        if (got.ready) {
          ready++;
          if (!right) {
            readyWrong++;
            if (verbose) process.stderr.write(`${r.id} ready with ${JSON.stringify(got.keys.total)} for ${JSON.stringify(r.keys.total)} (${JSON.stringify(copy.text)} read as ${JSON.stringify(line.words[copy.wi]!.text)})\n`);
          }
        }
      }
    }
  }
  const pct = (a: number, b: number) => (b ? ((a / b) * 100).toFixed(1) : '0.0');
  console.log(`slipped ${anyAmount ? 'amounts' : 'totals'}: ${readings} readings of ${receipts} receipts`);
  console.log(`total still right: ${stillRight} (${pct(stillRight, readings)} %); wrong with confidence ${READY_CONFIDENCE} or more: ${confidentWrong}`);
  console.log(`ready: ${ready}, with a wrong total: ${readyWrong} (${pct(readyWrong, ready)} % of ready)`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
