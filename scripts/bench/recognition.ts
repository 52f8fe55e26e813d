/**
 * Recognition benchmark on a SROIE-style folder (images/, keys/, ocr/):
 *   npx tsx scripts/bench/recognition.ts <folder> [--limit N] [--only 000,005] [--from-annotations] [--verbose]
 * Runs the local recogniser (image → preprocessing → OCR → extraction → AnalyzeExpense shape →
 * mapExpenseToFields) over every image and prints per-field accuracy and timing. Bare OCR (the same
 * tesseract worker recognising the same file, no preprocessing, no extraction) is timed in the same run.
 * --from-annotations reads the challenge's line annotations instead of OCR (extraction alone).
 * --no-bare skips the bare OCR timing (accuracy runs take half the time).
 * --dump <dir> writes each receipt's AnalyzeExpense result; --from-dump <dir> runs the extraction again on the
 * words of such results (for working on extraction rules without waiting for OCR; no timing).
 * --paddle key=value,... sets the first reading's options (`PaddleOcrOptions`, numbers; `gapSpaces`, `deskewPage`, `levelMap`, `halveLargePages` 0 or 1), to measure other settings.
 * --rec-model <file|base> reads the lines with another recogniser ONNX file (`base`: the package's own, before fine-tuning).
 * --det-model <file|base> finds the lines with another detector ONNX file (`base`: the package's own, before fusing).
 * --lm <file|none> counts the recogniser's language model from another file of text lines (`none`: greedy decoding only),
 * and takes the lines known from other receipts from it (`known-lines.ts`), for the live reading and the replays.
 * --confidence adds one line: for company, date and total, how many of the values read with the ready rule's
 * confidence (READY_CONFIDENCE or more) are right — the precision that bounds a trustworthy `ready`.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { LocalRecogniser } from '../../lambdas/adapters/local-recogniser';
import type { PaddleOcrOptions } from '../../lambdas/adapters/local-recogniser/paddle-ocr';
import { blocksToDocument, toAnalyzeExpenseResult } from '../../lambdas/core/recognition/expense';
import type { AnalyzeExpenseResult } from '../../lambdas/core/recognition/types';
import { mapExpenseToFields } from '../../lambdas/core/recognition/map-fields';
import { READY_CONFIDENCE, readyCheck } from '../../lambdas/core/documents/content';
import { annotationsDocument, isRight, listReceipts, predictedKeys, READER_FLAGS, readerOptions, replayExtraction, scorable, SCORED_FIELDS, type ScoredField } from './recognition/sroie';

interface Args {
  folder: string;
  limit?: number;
  only?: Set<string>;
  fromAnnotations: boolean;
  verbose: boolean;
  dump?: string;
  fromDump?: string;
  noBare: boolean;
  confidence: boolean;
  paddle: PaddleOcrOptions;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { folder: '', fromAnnotations: false, verbose: false, noBare: false, confidence: false, paddle: readerOptions(argv) };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--limit') args.limit = Number(argv[++i]);
    else if (a === '--only') args.only = new Set(argv[++i]!.split(','));
    else if (a === '--from-annotations') args.fromAnnotations = true;
    else if (a === '--verbose' || a === '-v') args.verbose = true;
    else if (a === '--dump') args.dump = argv[++i]!;
    else if (a === '--from-dump') args.fromDump = argv[++i]!;
    else if (a === '--no-bare') args.noBare = true;
    else if (a === '--confidence') args.confidence = true;
    else if (READER_FLAGS.has(a)) i++; // the reader's options: readerOptions above
    else if (!a.startsWith('--')) args.folder = a;
    else throw new Error(`Unknown option ${a}`);
  }
  if (!args.folder) throw new Error('Usage: recognition.ts <folder> [--limit N] [--only ids] [--from-annotations] [--verbose]');
  return args;
}

function pct(right: number, scored: number): string {
  return scored ? ((right / scored) * 100).toFixed(1) : '0.0';
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  let receipts = listReceipts(args.folder);
  if (args.only) receipts = receipts.filter((r) => args.only!.has(r.id));
  if (args.limit !== undefined) receipts = receipts.slice(0, args.limit);
  if (!receipts.length) throw new Error(`No images in ${args.folder}/images`);

  const right: Record<ScoredField, number> = { company: 0, date: 0, address: 0, total: 0 };
  const scored: Record<ScoredField, number> = { company: 0, date: 0, address: 0, total: 0 };
  let allFour = 0;
  // The product's ready rule (processing: ready untouched vs To Review), as for a cost receipt with no master data.
  const today = new Date().toISOString().slice(0, 10);
  let ready = 0;
  let readyRight = 0;
  let readyJudged = 0;
  // Values read with the ready rule's confidence, and how many of them are right.
  const sureFields = { company: 'supplier_name', date: 'issue_date', total: 'amount_total' } as const;
  const confident = { company: { right: 0, all: 0 }, date: { right: 0, all: 0 }, total: { right: 0, all: 0 } };
  let pipelineMs = 0;
  let bareMs = 0;
  const offline = args.fromAnnotations || !!args.fromDump;
  const recogniser = offline ? undefined : new LocalRecogniser({ paddle: args.paddle });
  if (args.dump) mkdirSync(args.dump, { recursive: true });
  const extractOffline = replayExtraction(args.paddle);
  try {
    if (recogniser) await recogniser.warmUp();
    for (const r of receipts) {
      let fields;
      if (args.fromAnnotations) {
        if (!r.annotations) throw new Error(`No annotations for ${r.id}`);
        const doc = await annotationsDocument(r.annotations, r.image);
        fields = mapExpenseToFields(toAnalyzeExpenseResult(doc, extractOffline(doc)));
      } else if (args.fromDump) {
        const file = join(args.fromDump, `${r.id}.json`);
        if (!existsSync(file)) throw new Error(`No dump for ${r.id} in ${args.fromDump}`);
        const doc = blocksToDocument(JSON.parse(readFileSync(file, 'utf8')) as AnalyzeExpenseResult);
        fields = mapExpenseToFields(toAnalyzeExpenseResult(doc, extractOffline(doc)));
      } else {
        if (!existsSync(r.image)) throw new Error(`No image for ${r.id} (${r.image}): a folder of annotations alone is read with --from-annotations`);
        const bytes = readFileSync(r.image);
        // Bare OCR first, then the pipeline, alternating per receipt so both see the same machine load.
        const t0 = performance.now();
        if (!args.noBare) await recogniser!.bareOcr(bytes);
        const t1 = performance.now();
        const result = await recogniser!.analyzeExpense({ bytes, mime: 'image/jpeg', fileName: r.image });
        fields = mapExpenseToFields(result);
        const t2 = performance.now();
        if (args.dump) writeFileSync(join(args.dump, `${r.id}.json`), JSON.stringify(result));
        bareMs += t1 - t0;
        pipelineMs += t2 - t1;
        if (args.verbose) process.stderr.write(`${r.id} time: pipeline ${((t2 - t1) / 1000).toFixed(2)} s, bare ${((t1 - t0) / 1000).toFixed(2)} s\n`);
      }
      const got = predictedKeys(fields);
      let four = true;
      const misses: string[] = [];
      for (const f of SCORED_FIELDS) {
        if (!scorable(r.keys, f)) continue;
        scored[f]++;
        if (isRight(f, r.keys[f]!, got[f])) right[f]++;
        else {
          four = false;
          misses.push(`  ${f}: expected ${JSON.stringify(r.keys[f])} got ${JSON.stringify(got[f])}`);
        }
      }
      if (four) allFour++;
      for (const [f, id] of Object.entries(sureFields) as [keyof typeof sureFields, (typeof sureFields)[keyof typeof sureFields]][]) {
        if (!scorable(r.keys, f) || (fields[id]?.confidence ?? 0) < READY_CONFIDENCE) continue;
        confident[f].all++;
        if (isRight(f, r.keys[f]!, got[f])) confident[f].right++;
        else if (args.verbose) process.stderr.write(`${r.id} ${f} read with confidence ${fields[id]!.confidence} but wrong: ${JSON.stringify(got[f])}\n`);
      }
      const check = readyCheck(fields, 'receipt', today);
      if (check.ready) {
        ready++;
        // A receipt whose key lacks one of the three fields cannot be judged: it counts among the receipts let
        // through, not in the share of them that is right.
        if (!(['company', 'date', 'total'] as const).every((f) => scorable(r.keys, f))) {
          if (args.verbose) process.stderr.write(`${r.id} ready, not judged: the key lacks a field\n`);
        } else {
          readyJudged++;
          if ((['company', 'date', 'total'] as const).every((f) => isRight(f, r.keys[f]!, got[f]))) readyRight++;
          else if (args.verbose) process.stderr.write(`${r.id} ready but wrong\n`);
        }
      } else if (args.verbose) process.stderr.write(`${r.id} review: ${check.reasons.join('; ')}\n`);
      if (args.verbose && misses.length) process.stderr.write(`${r.id}\n${misses.join('\n')}\n`);
    }
  } finally {
    await recogniser?.close();
  }
  const n = receipts.length;
  for (const f of SCORED_FIELDS) console.log(`${f}: ${pct(right[f], scored[f])} % (${right[f]}/${scored[f]})`);
  console.log(`all four: ${pct(allFour, n)} %`);
  console.log(`auto-ready: ${pct(ready, n)} % of receipts, ${pct(readyRight, readyJudged)} % of them with company, date and total right`);
  if (args.confidence) {
    const parts = Object.entries(confident).map(([f, c]) => `${f} ${c.right}/${c.all}`);
    console.log(`read with confidence ${READY_CONFIDENCE} or more, right: ${parts.join(', ')}`);
  }
  if (offline) console.log(`seconds per receipt: pipeline n/a, bare OCR n/a, ratio n/a (${args.fromDump ? 'from dump' : 'from annotations'})`);
  else if (args.noBare) console.log(`seconds per receipt: pipeline ${(pipelineMs / 1000 / n).toFixed(2)}, bare OCR n/a, ratio n/a (--no-bare)`);
  else {
    const p = pipelineMs / 1000 / n;
    const b = bareMs / 1000 / n;
    console.log(`seconds per receipt: pipeline ${p.toFixed(2)}, bare OCR ${b.toFixed(2)}, ratio ${(p / b).toFixed(2)}`);
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
