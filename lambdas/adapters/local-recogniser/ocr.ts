/**
 * One long-lived tesseract.js worker, reused for every page. Language data comes from the
 * @tesseract.js-data npm packages (nothing is downloaded): both packages' files are linked into one
 * folder under the temp dir because tesseract.js reads all languages from a single langPath.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Tesseract, { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import { pixelBox } from '../../core/recognition/geometry';
import type { OcrLine, OcrPage, OcrWord } from '../../core/recognition/types';

const require = createRequire(import.meta.url);

export type OcrLanguage = 'eng' | 'lit';

/** The folder of a language package that holds `<lang>.traineddata.gz` (LSTM "best_int" data preferred). */
export function languageDataDir(lang: OcrLanguage): string {
  let pkgDir: string;
  try {
    pkgDir = dirname(require.resolve(`@tesseract.js-data/${lang}/package.json`));
  } catch {
    throw new Error(`OCR language data for "${lang}" is missing: install @tesseract.js-data/${lang}`);
  }
  for (const sub of ['4.0.0_best_int', '4.0.0']) {
    const dir = join(pkgDir, sub);
    if (existsSync(join(dir, `${lang}.traineddata.gz`))) return dir;
  }
  const found = readdirSync(pkgDir).find((d) => existsSync(join(pkgDir, d, `${lang}.traineddata.gz`)));
  if (!found) throw new Error(`No ${lang}.traineddata.gz in ${pkgDir}`);
  return join(pkgDir, found);
}

/**
 * One folder with the data of all requested languages (links to the package files). Its name comes
 * from the source paths, so processes share it and a new install gets a new one.
 */
function languageFolder(langs: OcrLanguage[]): string {
  const sources = langs.map((lang) => join(languageDataDir(lang), `${lang}.traineddata.gz`));
  const id = createHash('sha1').update(sources.join('|')).digest('hex').slice(0, 12);
  const dir = join(tmpdir(), `tessdata-${langs.join('-')}-${id}`);
  mkdirSync(dir, { recursive: true });
  langs.forEach((lang, i) => {
    const target = join(dir, `${lang}.traineddata.gz`);
    if (existsSync(target)) return;
    try {
      symlinkSync(sources[i]!, target);
    } catch {
      // Another process made it meanwhile, or links are not allowed here: copy.
      if (!existsSync(target)) copyFileSync(sources[i]!, target);
    }
  });
  return dir;
}

export interface OcrResult {
  page: OcrPage;
  /** Mean word confidence, 0..100. */
  confidence: number;
  words: number;
  /** Median height in pixels of the words read with some confidence (0 when none). */
  wordHeight: number;
}

export interface OcrEngineOptions {
  languages?: OcrLanguage[];
  /** Tesseract parameters that only apply when the engine starts (e.g. dictionaries). */
  initConfig?: Record<string, string>;
}

/** Parses tesseract's TSV output into lines of words, boxes in fractions of the image. */
export function parseTsv(tsv: string, width: number, height: number, pageNumber: number): OcrResult {
  const lines = new Map<string, OcrWord[]>();
  let confSum = 0;
  let count = 0;
  for (const row of tsv.split('\n')) {
    const c = row.split('\t');
    if (c.length < 12 || c[0] !== '5') continue;
    const text = c.slice(11).join('\t').trim();
    if (!text) continue;
    const [left, top, w, h, conf] = [c[6], c[7], c[8], c[9], c[10]].map(Number) as [number, number, number, number, number];
    const key = `${c[2]}-${c[3]}-${c[4]}`;
    const word: OcrWord = { text, box: pixelBox(left, top, left + w, top + h, width, height), confidence: Math.max(0, conf), page: pageNumber };
    if (!lines.has(key)) lines.set(key, []);
    lines.get(key)!.push(word);
    confSum += Math.max(0, conf);
    count++;
  }
  const out: OcrLine[] = [];
  for (const words of lines.values()) {
    const l = Math.min(...words.map((w) => w.box.left));
    const t = Math.min(...words.map((w) => w.box.top));
    const r = Math.max(...words.map((w) => w.box.left + w.box.width));
    const b = Math.max(...words.map((w) => w.box.top + w.box.height));
    out.push({
      text: words.map((w) => w.text).join(' '),
      words,
      box: { left: l, top: t, width: r - l, height: b - t },
      confidence: words.reduce((s, w) => s + w.confidence, 0) / words.length,
      page: pageNumber,
    });
  }
  const heights = out
    .flatMap((l) => l.words)
    .filter((w) => w.confidence >= 50 && /[\p{L}\d]{2,}/u.test(w.text))
    .map((w) => w.box.height * height)
    .sort((a, b) => a - b);
  const wordHeight = heights.length ? heights[Math.floor(heights.length / 2)]! : 0;
  return { page: { page: pageNumber, width, height, lines: out }, confidence: count ? confSum / count : 0, words: count, wordHeight };
}

export class OcrEngine {
  private worker: Promise<Worker> | undefined;
  private readonly languages: OcrLanguage[];
  private readonly initConfig: Record<string, string>;

  constructor(opts: OcrEngineOptions = {}) {
    this.languages = opts.languages ?? ['eng', 'lit'];
    this.initConfig = opts.initConfig ?? {};
  }

  private getWorker(): Promise<Worker> {
    this.worker ??= (async () => {
      const langPath = languageFolder(this.languages);
      const worker = await createWorker(this.languages, OEM.LSTM_ONLY, {
        langPath,
        cacheMethod: 'none',
        gzip: true,
        errorHandler: () => undefined,
      }, this.initConfig as Partial<Tesseract.InitOptions>);
      await worker.setParameters({ tessedit_pageseg_mode: PSM.AUTO, preserve_interword_spaces: '0' });
      return worker;
    })();
    return this.worker;
  }

  async warmUp(): Promise<void> {
    await this.getWorker();
  }

  /**
   * Words and lines of one image (PNG/JPEG bytes). `params` are tesseract parameters for this call
   * only (tesseract.js restores the worker's own afterwards).
   */
  async recognize(image: Buffer, width: number, height: number, pageNumber = 1, params: Record<string, string> = {}): Promise<OcrResult> {
    const worker = await this.getWorker();
    const res = await worker.recognize(image, params as Partial<Tesseract.RecognizeOptions>, { text: false, tsv: true });
    return parseTsv(res.data.tsv ?? '', width, height, pageNumber);
  }

  /** Plain recognition of the file as given, for timing comparisons. */
  async bare(image: Buffer): Promise<string> {
    const worker = await this.getWorker();
    const res = await worker.recognize(image);
    return res.data.text;
  }

  async close(): Promise<void> {
    if (!this.worker) return;
    const w = await this.worker.catch(() => undefined);
    this.worker = undefined;
    await w?.terminate();
  }
}
