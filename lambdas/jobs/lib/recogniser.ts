/**
 * The recogniser the processing job uses, chosen by env RECOGNISER: `local` (PaddleOCR on ONNX Runtime, tesseract.js, pdfjs;
 * no cloud service), each document read in a thread of its own so that documents read at once use the machine's
 * cores (`RecogniserThreads`), or `textract` (AWS Textract AnalyzeExpense). Created once per process.
 */
import type { Recogniser } from '../../core/recognition/types';
import { env } from '../../runtime/env';
import { countingFailures, METRIC_NAMES } from '../../runtime/metrics';

let instance: Promise<Recogniser & { close?(opts?: { now?: boolean }): Promise<void>; warmUp?(): Promise<void> }> | undefined;

export function recogniser(): Promise<Recogniser & { warmUp?(): Promise<void> }> {
  instance ??= (async () => {
    if (env().RECOGNISER === 'local') {
      const { RecogniserThreads } = await import('../../adapters/local-recogniser/threads');
      return new RecogniserThreads();
    }
    const { TextractRecogniser } = await import('../../adapters/textract/index');
    // Operations: failed Textract analyses are counted (metric TextractFailures, alarmed in infra/constructs/operations.ts).
    return countingFailures(new TextractRecogniser(), METRIC_NAMES.textractFailures);
  })();
  instance.catch(() => {
    instance = undefined;
  });
  return instance;
}

/**
 * Readies the recogniser before the first document needs it: the local recogniser starts its first thread and loads
 * its models (local mode, once `npm start` has printed its banner), so the first document uploaded is read as fast
 * as the next ones; Textract needs nothing.
 */
export async function warmUpRecogniser(): Promise<void> {
  await (await recogniser()).warmUp?.();
}

/**
 * Stops the local recogniser's threads (local mode shutdown, tests): by default after the documents in hand. With
 * `now` (local mode's stop, the process ends next) each thread ends after its model run in flight and the documents
 * in hand, and any given later, are never answered: their jobs' messages stay on disk for the next start.
 */
export async function closeRecogniser(opts: { now?: boolean } = {}): Promise<void> {
  const current = instance;
  if (!opts.now) instance = undefined;
  if (!current) return;
  const r = await current.catch(() => undefined);
  await r?.close?.(opts);
}
