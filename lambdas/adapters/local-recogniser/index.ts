/**
 * The local recogniser: no cloud service. Images are read by PaddleOCR on ONNX Runtime (pages with
 * Lithuanian cues again by tesseract.js, for their letters); PDFs with a text layer are read exactly with
 * pdfjs; scanned PDF pages are rendered and OCRed;
 * UBL XML and Factur-X/ZUGFeRD PDFs are read from their XML. The result has the shape of Textract's
 * AnalyzeExpense response.
 */
import { eInvoiceToExtraction, parseEInvoice, xmlFileResult } from '../../core/recognition/einvoice';
import { resultBeforeTurns, toAnalyzeExpenseResult } from '../../core/recognition/expense';
import type { Levelling, PageReading } from '../../core/recognition/geometry';
import type { QuarterTurn } from '../../../shared/page-turns';
import { extractDocument, type Extraction } from '../../core/recognition/extract';
import { looksLithuanian } from '../../core/recognition/extract/language';
import { detectDocumentKind, UnsupportedDocumentError } from '../../core/recognition/file-type';
import { applyHintsToResult } from '../../core/recognition/learn';
import { holdsUnderCuts, nameLines, namesToLookAt, withDoubtedNames, worthASecondLook, type NameField } from '../../core/recognition/second-look';
import type { AnalyzeExpenseResult, OcrDocument, OcrPage, Recogniser, RecogniserInput } from '../../core/recognition/types';
import { prepareImage } from './image';
import { OcrEngine, type OcrLanguage, type OcrResult } from './ocr';
import { recogniseOffice } from './office';
import { PaddleOcr, type PaddleOcrOptions } from './paddle-ocr';
import { type RgbImage } from './page-image';
import { type DetectedLines, linesStandOnEnd } from './text-detection';
import { embeddedEInvoiceIn, openPdf, pageImage, pageTextWords } from './pdf';

export interface LocalRecogniserOptions {
  /** Languages of the first reading of every page (default English). */
  languages?: OcrLanguage[];
  /**
   * Languages added for a second reading when the first shows Lithuanian cues (default Lithuanian;
   * empty: no second reading).
   */
  extraLanguages?: OcrLanguage[];
  /** A page with fewer text-layer characters than this is treated as scanned (default 20). */
  minTextChars?: number;
  /** Settings of the first reading (PaddleOCR); the defaults are the measured ones (docs/recognition.md). */
  paddle?: PaddleOcrOptions;
  /** A second look at the names a reading is sure of (`core/recognition/second-look.ts`; default on). */
  secondLook?: boolean;
}

/**
 * Tesseract settings for receipts and invoices, per call: one uniform block of text (page
 * segmentation mode 6) keeps a label and its amount on one line, which automatic segmentation
 * often splits into two columns.
 */
const RECEIPT_PARAMS = { tessedit_pageseg_mode: '6', tessedit_do_invert: '0' };
/** Larger scans are reduced to this width: receipt print stays 20+ px high and OCR takes half the time. */
const MAX_WIDTH = 2000;
/** Narrower images (small phone crops) are enlarged to this width: thin strokes survive binarisation. */
const MIN_WIDTH = 600;
const debug = (msg: string) => {
  if (process.env.RECOGNITION_DEBUG) process.stderr.write(`[local-recogniser] ${msg}\n`);
};

/**
 * The least mean word confidence of a page that reads well. The recogniser reads upside-down print with confidence
 * too, but less: 25 to 60 on average over every second page of the development folder turned by 180°, against 87
 * to 100 upright (`npm run bench:page-turns`; docs/recognition.md "Stop 42").
 */
export const READS_WELL_CONFIDENCE = 70;

/** Read well: enough words, most of them confident, and confident on average. */
function readsWell(r: OcrResult): boolean {
  return r.words >= 8 && readability(r) >= r.words && r.confidence >= READS_WELL_CONFIDENCE;
}

/** How well a quick OCR pass reads: confident words count, weighted by their length. */
function readability(r: OcrResult): number {
  let score = 0;
  for (const l of r.page.lines) for (const w of l.words) if (w.confidence >= 60 && /[\p{L}\d]{2,}/u.test(w.text)) score += Math.min(w.text.length, 8);
  return score;
}

export class LocalRecogniser implements Recogniser {
  /** The first reading of every page. */
  private readonly paddle: PaddleOcr;
  /** Tesseract with the first-reading and the extra languages, for pages that show Lithuanian cues. */
  private readonly ocrMixed: OcrEngine | undefined;
  private readonly minTextChars: number;
  private readonly secondLook: boolean;

  constructor(opts: LocalRecogniserOptions = {}) {
    const languages = opts.languages ?? ['eng'];
    const extra = (opts.extraLanguages ?? ['lit']).filter((l) => !languages.includes(l));
    this.paddle = new PaddleOcr(opts.paddle);
    this.ocrMixed = extra.length ? new OcrEngine({ languages: [...languages, ...extra] }) : undefined;
    this.minTextChars = opts.minTextChars ?? 20;
    this.secondLook = opts.secondLook ?? true;
  }

  /** The fields of a document; a reading of images weighs its names against the lines known from other receipts. */
  private async extract(doc: OcrDocument): Promise<Extraction> {
    return extractDocument(doc, doc.source === 'ocr' ? { knownLines: await this.paddle.knownLines() } : {});
  }

  /** Loads the OCR models ahead of the first document. */
  warmUp(): Promise<void> {
    return this.paddle.warmUp();
  }

  async close(): Promise<void> {
    await Promise.all([this.paddle.close(), this.ocrMixed?.close()]);
  }

  /** The OCR engine on the file as given (detection and recognition, no extraction), for timing comparisons. */
  bareOcr(bytes: Uint8Array): Promise<string> {
    return this.paddle.bare(Buffer.from(bytes));
  }

  async analyzeExpense(input: RecogniserInput): Promise<AnalyzeExpenseResult> {
    const kind = detectDocumentKind(input.bytes, input.mime, input.fileName);
    let result: AnalyzeExpenseResult;
    switch (kind) {
      case 'image': {
        const { page, reading, image } = await this.ocrImage(input.bytes, 1);
        const doc: OcrDocument = { source: 'ocr', pages: [page] };
        const extraction = await this.lookAgainAtNames(doc, await this.extract(doc), new Map(image ? [[1, image]] : []));
        result = resultBeforeTurns(toAnalyzeExpenseResult(doc, extraction), new Map([[1, reading]]));
        break;
      }
      case 'pdf':
        result = await this.readPdf(input.bytes);
        break;
      case 'xml':
        result = xmlFileResult(input.bytes);
        break;
      case 'office':
        result = await recogniseOffice(input);
        break;
      default:
        throw new UnsupportedDocumentError(input.mime || input.fileName);
    }
    return applyHintsToResult(result, input.hints);
  }

  /**
   * A second look at the names the extraction is sure of, on the pages whose images are given (read by PaddleOCR,
   * upright as read): the lines of each name with a less sure word are read again from other cuts, and a name that
   * does not hold gets a doubt (`core/recognition/second-look.ts`).
   */
  private async lookAgainAtNames(doc: OcrDocument, extraction: Extraction, images: Map<number, RgbImage>): Promise<Extraction> {
    const names = this.secondLook ? namesToLookAt(extraction) : [];
    const doubted: NameField[] = [];
    for (const { field, found } of names) {
      const image = images.get(found.page);
      const page = doc.pages.find((p) => p.page === found.page);
      if (!image || !page) continue;
      const lines = nameLines(found, page);
      if (!worthASecondLook(lines)) continue;
      const cuts = await this.paddle.readAgain(image, lines.map((l) => l.line));
      if (lines.some((l, k) => cuts[k]!.length > 0 && !holdsUnderCuts(l.words.map((w) => w.text), cuts[k]!))) doubted.push(field);
    }
    debug(`${names.length} names sure enough for ready: ${doubted.length ? `doubted ${doubted.join(', ')}` : 'they hold'}`);
    return withDoubtedNames(extraction, doubted);
  }

  /**
   * OCR of one image, turned upright first when it reads badly; `reading` is how it was turned (a quarter turn
   * clockwise, and the small turn that levelled slanting print), `image` the image PaddleOCR's reading is kept from
   * (a second look reads its lines again).
   */
  private async ocrImage(bytes: Uint8Array, pageNumber: number): Promise<{ page: OcrPage; reading: PageReading; image?: RgbImage }> {
    const best = await this.readUpright(bytes, pageNumber);
    // A Lithuanian page: read again with tesseract's English + Lithuanian models, for the letters the first
    // reading's character set lacks (ą, č, ę, ė, į, š, ų, ž).
    const text = best.r.page.lines.map((l) => l.text).join('\n');
    if (this.ocrMixed && looksLithuanian(text)) {
      debug('Lithuanian cues: reading again with the Lithuanian model');
      const p = await prepareImage(bytes, { rotate: best.rotate, normalise: false, maxWidth: MAX_WIDTH, minWidth: MIN_WIDTH });
      const r = await this.ocrMixed.recognize(p.png, p.width, p.height, pageNumber, RECEIPT_PARAMS);
      return { page: r.page, reading: { turn: best.rotate } };
    }
    return { page: best.r.page, reading: { turn: best.rotate, ...(best.r.level ? { level: best.r.level } : {}) }, image: best.image };
  }

  /**
   * The clockwise turn that makes an image upright: the turn `analyzeExpense` reads it with (a page that reads
   * well as it is stays as it is).
   */
  async detectRotation(bytes: Uint8Array): Promise<QuarterTurn> {
    return (await this.readUpright(bytes, 1)).rotate;
  }

  /**
   * PaddleOCR's reading of an image, turned upright. The detector's lines say how the page lies: lines that stand on
   * end (`linesStandOnEnd`) mean a page on its side, turned a quarter clockwise and read the way up its longest lines
   * read (`readsUpsideDown`: 90°, or 270° if they read better turned over); level lines are read as they are and, if
   * that reads badly, turned by 180°. Only if these read badly too are the other turns read, and of all readings the
   * best is kept (docs/recognition.md "Stop 42").
   */
  private async readUpright(bytes: Uint8Array, pageNumber: number): Promise<{ r: OcrResult & { level?: Levelling }; rotate: QuarterTurn; image: RgbImage }> {
    const decoded = new Map<QuarterTurn, { page: RgbImage; boxes: DetectedLines }>();
    const decode = async (rotate: QuarterTurn) => {
      let d = decoded.get(rotate);
      if (!d) {
        const { page, boxes } = await this.paddle.decodePage(bytes, rotate);
        d = { page, boxes: boxes ?? (await this.paddle.detect(page)) };
        decoded.set(rotate, d);
      }
      return d;
    };
    const asIs = await decode(0);
    let order: QuarterTurn[] = [0, 180, 90, 270];
    if (linesStandOnEnd(asIs.boxes)) {
      const quarter = await decode(90);
      order = (await this.paddle.readsUpsideDown(quarter.page, quarter.boxes)) ? [270, 90, 0, 180] : [90, 270, 0, 180];
    }
    let best: { r: OcrResult & { level?: Levelling; image: RgbImage }; rotate: QuarterTurn; image: RgbImage } | undefined;
    for (const rotate of order) {
      const { page, boxes } = await decode(rotate);
      const r = await this.paddle.recognize(page, pageNumber, boxes);
      debug(`turned ${rotate}: ${r.words} words, confidence ${r.confidence.toFixed(0)}, readability ${readability(r)}${best ? ` vs ${readability(best.r)}` : ''}`);
      if (!best || readability(r) > readability(best.r)) best = { r, rotate, image: r.image };
      if (readsWell(best.r)) break;
      // This turn is read: its pixels are not needed again (the best reading keeps its own image).
      decoded.delete(rotate);
    }
    return best!;
  }

  private async readPdf(bytes: Uint8Array): Promise<AnalyzeExpenseResult> {
    const pdf = await openPdf(bytes);
    try {
      const textPages: { page: OcrPage; chars: number }[] = [];
      for (let n = 1; n <= pdf.numPages; n++) textPages.push(await pageTextWords(pdf, n));
      // Factur-X / ZUGFeRD: the embedded XML is the invoice; the text layer only places the values.
      const xml = await embeddedEInvoiceIn(pdf);
      if (xml) {
        const doc: OcrDocument = { source: 'pdf-text', pages: textPages.map((t) => t.page) };
        return toAnalyzeExpenseResult(doc, eInvoiceToExtraction(parseEInvoice(xml), doc));
      }
      const pages: OcrPage[] = [];
      const readings = new Map<number, PageReading>();
      const images = new Map<number, RgbImage>();
      let ocred = false;
      for (const [i, t] of textPages.entries()) {
        if (t.chars >= this.minTextChars) pages.push(t.page);
        else {
          ocred = true;
          const read = await this.ocrImage(await pageImage(bytes, pdf, i + 1), i + 1);
          pages.push(read.page);
          readings.set(i + 1, read.reading);
          // Only the first scanned page's image is kept for the second look: names are printed at the top of the
          // first page, and a long scan's page images would all be held in memory.
          if (read.image && images.size === 0) images.set(i + 1, read.image);
        }
      }
      const doc: OcrDocument = { source: ocred ? 'ocr' : 'pdf-text', pages };
      return resultBeforeTurns(toAnalyzeExpenseResult(doc, await this.lookAgainAtNames(doc, await this.extract(doc), images)), readings);
    } finally {
      await pdf.destroy();
    }
  }
}
