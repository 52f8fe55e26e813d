/**
 * The local recogniser: no cloud service. Images are prepared with sharp and read by tesseract.js;
 * PDFs with a text layer are read exactly with pdfjs; scanned PDF pages are rendered and OCRed;
 * UBL XML and Factur-X/ZUGFeRD PDFs are read from their XML. The result has the shape of Textract's
 * AnalyzeExpense response.
 */
import { eInvoiceSyntax, eInvoiceToExtraction, parseEInvoice } from '../../core/recognition/einvoice';
import { toAnalyzeExpenseResult } from '../../core/recognition/expense';
import { extractDocument, type Extraction } from '../../core/recognition/extract';
import { looksLithuanian } from '../../core/recognition/extract/language';
import { detectDocumentKind, UnsupportedDocumentError } from '../../core/recognition/file-type';
import { applyHintsToResult } from '../../core/recognition/learn';
import type { AnalyzeExpenseResult, OcrDocument, OcrPage, Recogniser, RecogniserInput } from '../../core/recognition/types';
import { prepareImage, thumbnail, type PreparedImage } from './image';
import { OcrEngine, type OcrLanguage, type OcrResult } from './ocr';
import { recogniseOffice } from './office';
import { embeddedEInvoiceIn, openPdf, pageImage, pageTextWords } from './pdf';

export interface LocalRecogniserOptions {
  /** Languages of the first reading of every page (default English). */
  languages?: OcrLanguage[];
  /**
   * Languages added for a second reading when the first shows Lithuanian cues (default Lithuanian;
   * empty: no second reading).
   */
  extraLanguages?: OcrLanguage[];
  /** Mean word confidence under which the page is tried in other orientations (default 50). */
  lowConfidence?: number;
  /** A page with fewer text-layer characters than this is treated as scanned (default 20). */
  minTextChars?: number;
}

type Rotation = 0 | 90 | 180 | 270;

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
/** Readability (confident letters) above which a page counts as read. */
const GOOD_READABILITY = 150;
const debug = (msg: string) => {
  if (process.env.RECOGNITION_DEBUG) process.stderr.write(`[local-recogniser] ${msg}\n`);
};



/** How well a quick OCR pass reads: confident words count, weighted by their length. */
function readability(r: OcrResult): number {
  let score = 0;
  for (const l of r.page.lines) for (const w of l.words) if (w.confidence >= 60 && /[\p{L}\d]{2,}/u.test(w.text)) score += Math.min(w.text.length, 8);
  return score;
}

export class LocalRecogniser implements Recogniser {
  private readonly ocr: OcrEngine;
  /** First-reading languages plus the extra ones (started on the first page that needs it). */
  private readonly ocrMixed: OcrEngine | undefined;
  private readonly lowConfidence: number;
  private readonly minTextChars: number;

  constructor(opts: LocalRecogniserOptions = {}) {
    const languages = opts.languages ?? ['eng'];
    const extra = (opts.extraLanguages ?? ['lit']).filter((l) => !languages.includes(l));
    this.ocr = new OcrEngine({ languages });
    this.ocrMixed = extra.length ? new OcrEngine({ languages: [...languages, ...extra] }) : undefined;
    this.lowConfidence = opts.lowConfidence ?? 50;
    this.minTextChars = opts.minTextChars ?? 20;
  }

  /** Starts the OCR worker ahead of the first document. */
  warmUp(): Promise<void> {
    return this.ocr.warmUp();
  }

  async close(): Promise<void> {
    await Promise.all([this.ocr.close(), this.ocrMixed?.close()]);
  }

  /**
   * Tesseract on the file as given (no preparation, no extraction, the first reading's languages), for
   * timing comparisons.
   */
  bareOcr(bytes: Uint8Array): Promise<string> {
    return this.ocr.bare(Buffer.from(bytes));
  }

  async analyzeExpense(input: RecogniserInput): Promise<AnalyzeExpenseResult> {
    const kind = detectDocumentKind(input.bytes, input.mime, input.fileName);
    let result: AnalyzeExpenseResult;
    switch (kind) {
      case 'image': {
        const doc = await this.readImage(input.bytes);
        result = toAnalyzeExpenseResult(doc, await this.fillGaps(input.bytes, doc, extractDocument(doc)));
        break;
      }
      case 'pdf':
        result = await this.readPdf(input.bytes);
        break;
      case 'xml': {
        const xml = new TextDecoder('utf-8').decode(input.bytes);
        if (!eInvoiceSyntax(xml)) throw new UnsupportedDocumentError('XML that is neither UBL nor Cross Industry Invoice');
        const inv = parseEInvoice(xml);
        const doc: OcrDocument = { source: 'xml', pages: [{ page: 1, width: 1, height: 1, lines: [] }] };
        result = toAnalyzeExpenseResult(doc, eInvoiceToExtraction(inv));
        break;
      }
      case 'office':
        result = await recogniseOffice(input);
        break;
      default:
        throw new UnsupportedDocumentError(input.mime || input.fileName);
    }
    return applyHintsToResult(result, input.hints);
  }

  /**
   * No date or no total found: the page is read once more with stretched contrast (the line may have
   * been too faint for the first reading), and only the missing fields are taken from that reading.
   */
  private async fillGaps(bytes: Uint8Array, doc: OcrDocument, ex: Extraction): Promise<Extraction> {
    const missing = (['issue_date', 'amount_total'] as const).filter((f) => !ex.fields[f]);
    if (!missing.length) return ex;
    const p = await prepareImage(bytes, { maxWidth: MAX_WIDTH, minWidth: MIN_WIDTH });
    const second = await this.ocr.recognize(p.png, p.width, p.height, 1, RECEIPT_PARAMS);
    const other = extractDocument({ source: 'ocr', pages: [second.page] });
    const fields = { ...ex.fields };
    for (const f of missing) {
      const v = other.fields[f];
      debug(`second reading for ${f}: ${v?.value ?? 'none'}`);
      if (v) fields[f] = { ...v, confidence: Math.min(v.confidence, 60) };
    }
    return { ...ex, fields };
  }

  /** OCR of one image, turned upright first when it reads badly. */
  async readImage(bytes: Uint8Array, pageNumber = 1): Promise<OcrDocument> {
    const { page } = await this.ocrImage(bytes, pageNumber);
    return { source: 'ocr', pages: [page] };
  }

  private async ocrImage(bytes: Uint8Array, pageNumber: number): Promise<{ page: OcrPage; rotate: Rotation }> {
    type Prepared = PreparedImage;
    const read = (p: Prepared, engine = this.ocr) => engine.recognize(p.png, p.width, p.height, pageNumber, RECEIPT_PARAMS);
    const prepared = await prepareImage(bytes, { normalise: false, maxWidth: MAX_WIDTH, minWidth: MIN_WIDTH });
    let best = { r: await read(prepared), input: prepared, rotate: 0 as Rotation };
    debug(`first pass ${prepared.width}x${prepared.height}: ${best.r.words} words, confidence ${best.r.confidence.toFixed(0)}, word height ${best.r.wordHeight.toFixed(0)}px`);
    const keepBetter = (r: OcrResult, input: Prepared, rotate: Rotation, why: string) => {
      debug(`${why}: readability ${readability(r)} vs ${readability(best.r)}`);
      if (readability(r) > readability(best.r)) best = { r, input, rotate };
    };
    // Read well: most words confident. A page turned sideways gives many words, few of them confident.
    const readWell = best.r.confidence >= this.lowConfidence && best.r.words >= 8 && readability(best.r) >= best.r.words;
    if (!readWell) {
      // Read badly. A page whose contrast hides the text from tesseract's binarisation: stretched contrast.
      const stretched = await prepareImage(bytes, { maxWidth: MAX_WIDTH, minWidth: MIN_WIDTH });
      keepBetter(await read(stretched), stretched, 0, 'contrast');
      if (readability(best.r) < GOOD_READABILITY) {
        // Still nothing: a page turned sideways or upside down?
        const rotation = await this.detectRotation(bytes);
        if (rotation !== 0) {
          const turned = await prepareImage(bytes, { rotate: rotation, normalise: false, maxWidth: MAX_WIDTH, minWidth: MIN_WIDTH });
          keepBetter(await read(turned), turned, rotation, `turned ${rotation}`);
        }
      }
    }
    // A Lithuanian page: read again with the Lithuanian model as well, for its letters.
    const text = best.r.page.lines.map((l) => l.text).join('\n');
    if (this.ocrMixed && looksLithuanian(text)) {
      debug('Lithuanian cues: reading again with the Lithuanian model');
      best = { ...best, r: await read(best.input, this.ocrMixed) };
    }
    return { page: best.r.page, rotate: best.rotate };
  }

  /** Tries the four orientations on a small copy and returns the clockwise turn that reads best. */
  async detectRotation(bytes: Uint8Array): Promise<Rotation> {
    let best: { rot: Rotation; score: number } = { rot: 0, score: -1 };
    for (const rot of [0, 90, 180, 270] as Rotation[]) {
      const t = await thumbnail(bytes, rot);
      const r = await this.ocr.recognize(t.png, t.width, t.height, 1, RECEIPT_PARAMS);
      const score = readability(r);
      if (score > best.score * 1.2 || (best.score < 0 && score >= 0)) best = { rot, score };
    }
    return best.rot;
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
      let ocred = false;
      for (const [i, t] of textPages.entries()) {
        if (t.chars >= this.minTextChars) pages.push(t.page);
        else {
          ocred = true;
          pages.push((await this.ocrImage(await pageImage(bytes, pdf, i + 1), i + 1)).page);
        }
      }
      const doc: OcrDocument = { source: ocred ? 'ocr' : 'pdf-text', pages };
      return toAnalyzeExpenseResult(doc, extractDocument(doc));
    } finally {
      await pdf.destroy();
    }
  }
}
