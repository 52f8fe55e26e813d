/**
 * PDFs with pdfjs-dist (legacy build, for Node): the text layer read exactly with positions,
 * embedded files (Factur-X / ZUGFeRD XML), and page images for scanned pages — rendered with
 * poppler's `pdftoppm` when installed, else the page's embedded images decoded by pdfjs.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { eInvoiceSyntax } from '../../core/recognition/einvoice';
import { groupWordsIntoLines, roundBox } from '../../core/recognition/geometry';
import type { OcrPage, OcrWord } from '../../core/recognition/types';

const execFileAsync = promisify(execFile);

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
type PDFDocumentProxy = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;

let pdfjsPromise: Promise<PdfJs> | undefined;

/** pdfjs with its worker code loaded in this thread (no worker file lookup, works when bundled). */
export function loadPdfJs(): Promise<PdfJs> {
  pdfjsPromise ??= (async () => {
    const worker = await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
    return import('pdfjs-dist/legacy/build/pdf.mjs');
  })();
  return pdfjsPromise;
}

export async function openPdf(bytes: Uint8Array): Promise<PDFDocumentProxy> {
  const pdfjs = await loadPdfJs();
  return pdfjs.getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    isOffscreenCanvasSupported: false,
    isImageDecoderSupported: false,
    // Images over this many pixels are never decoded (the processing job refuses such PDFs before recognition).
    maxImageSize: MAX_PDF_IMAGE_PIXELS,
    verbosity: 0,
  }).promise;
}

interface TextItemLike {
  str: string;
  transform: number[];
  width: number;
  height: number;
}

/** Words of one page's text layer, boxes in fractions of the page. */
export async function pageTextWords(pdf: PDFDocumentProxy, pageNumber: number): Promise<{ page: OcrPage; chars: number }> {
  const pdfjs = await loadPdfJs();
  const page = await pdf.getPage(pageNumber);
  const viewport = page.getViewport({ scale: 1 });
  const W = viewport.width;
  const H = viewport.height;
  const content = await page.getTextContent();
  const words: OcrWord[] = [];
  let chars = 0;
  for (const raw of content.items) {
    const item = raw as TextItemLike;
    if (typeof item.str !== 'string' || !item.str.trim()) continue;
    const tx = pdfjs.Util.transform(viewport.transform, item.transform);
    const fontH = Math.hypot(tx[2]!, tx[3]!) || item.height;
    const x = tx[4]!;
    const baseline = tx[5]!;
    // Item width is in text space; scale it like the font matrix does horizontally.
    const itemW = item.width * (viewport.scale ?? 1);
    const text = item.str;
    chars += text.trim().length;
    // Split the item into words, spreading its width over the characters.
    const perChar = itemW / Math.max(1, text.length);
    for (const m of text.matchAll(/\S+/g)) {
      const left = x + m.index * perChar;
      const width = m[0].length * perChar;
      words.push({
        text: m[0],
        box: roundBox({ left: left / W, top: (baseline - fontH * 0.85) / H, width: width / W, height: fontH / H }),
        confidence: 99.9,
        page: pageNumber,
      });
    }
  }
  page.cleanup();
  return { page: { page: pageNumber, width: W, height: H, lines: groupWordsIntoLines(words) }, chars };
}

/** Files embedded in the PDF (name → bytes). */
export async function pdfAttachments(pdf: PDFDocumentProxy): Promise<{ name: string; content: Uint8Array }[]> {
  const att = (await pdf.getAttachments()) as Record<string, { filename: string; content: Uint8Array }> | null;
  if (!att) return [];
  return Object.values(att).map((a) => ({ name: a.filename, content: a.content }));
}

/** The Factur-X / ZUGFeRD (or UBL) XML embedded in a PDF, if any. */
export async function embeddedEInvoiceIn(pdf: PDFDocumentProxy): Promise<string | undefined> {
  for (const att of await pdfAttachments(pdf)) {
    if (!/\.xml$/i.test(att.name)) continue;
    const xml = new TextDecoder('utf-8').decode(att.content);
    if (eInvoiceSyntax(xml)) return xml;
  }
  return undefined;
}

export async function embeddedEInvoice(bytes: Uint8Array): Promise<string | undefined> {
  const pdf = await openPdf(bytes);
  try {
    return await embeddedEInvoiceIn(pdf);
  } finally {
    await pdf.destroy();
  }
}

let pdftoppmAvailable: boolean | undefined;
export async function hasPdftoppm(): Promise<boolean> {
  if (pdftoppmAvailable === undefined) {
    pdftoppmAvailable = await execFileAsync('pdftoppm', ['-v']).then(
      () => true,
      () => existsSync('/usr/bin/pdftoppm'),
    );
  }
  return pdftoppmAvailable;
}

/** Decoded images larger than this are never made (the same bound as images: lambdas/jobs/lib/renderer.ts). */
export const MAX_PDF_IMAGE_PIXELS = 100_000_000;
/** Longest side of a page rendered for OCR: a huge page is rendered at a lower resolution, never bigger. */
export const MAX_OCR_PAGE_SIDE = 6000;

/** The resolution for OCR: 200 dpi, lowered so that the page's longest side stays within MAX_OCR_PAGE_SIDE pixels. */
export function ocrDpi(pageWidthPt: number, pageHeightPt: number): number {
  const longest = Math.max(pageWidthPt, pageHeightPt, 1);
  return Math.max(1, Math.min(200, Math.floor((MAX_OCR_PAGE_SIDE * 72) / longest)));
}

/** Renders one page to a grayscale PNG with pdftoppm (200 dpi: print of 8 pt and more stays legible for OCR). */
export async function renderWithPdftoppm(bytes: Uint8Array, pageNumber: number, dpi = 200): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'pdfpage-'));
  try {
    const input = join(dir, 'in.pdf');
    await writeFile(input, bytes);
    const prefix = join(dir, 'page');
    await execFileAsync('pdftoppm', ['-r', String(dpi), '-gray', '-png', '-singlefile', '-f', String(pageNumber), '-l', String(pageNumber), input, prefix]);
    return await readFile(`${prefix}.png`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

interface PdfImage {
  width: number;
  height: number;
  data: Uint8Array | Uint8ClampedArray;
  kind: number;
}

/**
 * Without pdftoppm: the largest image painted on the page, decoded by pdfjs (scanned PDFs hold
 * one full-page image per page).
 */
export async function largestPageImage(pdf: PDFDocumentProxy, pageNumber: number): Promise<Buffer | undefined> {
  const pdfjs = await loadPdfJs();
  const page = await pdf.getPage(pageNumber);
  const ops = await page.getOperatorList();
  let best: PdfImage | undefined;
  for (let i = 0; i < ops.fnArray.length; i++) {
    if (ops.fnArray[i] !== pdfjs.OPS.paintImageXObject) continue;
    const id = (ops.argsArray[i] as unknown[])[0] as string;
    const img = await new Promise<PdfImage | undefined>((resolve) => {
      try {
        const objs = id.startsWith('g_') ? page.commonObjs : page.objs;
        objs.get(id, (o: unknown) => resolve(o as PdfImage));
      } catch {
        resolve(undefined);
      }
    });
    if (img?.data && (!best || img.width * img.height > best.width * best.height)) best = img;
  }
  if (!best) return undefined;
  const { width, height, data, kind } = best;
  // pdfjs ImageKind: 1 = 1 bit gray, 2 = RGB 24 bit, 3 = RGBA 32 bit.
  if (kind === 1) {
    const rowBytes = Math.ceil(width / 8);
    const gray = Buffer.alloc(width * height);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const bit = (data[y * rowBytes + (x >> 3)]! >> (7 - (x & 7))) & 1;
        gray[y * width + x] = bit ? 255 : 0;
      }
    }
    return sharp(gray, { raw: { width, height, channels: 1 } }).png().toBuffer();
  }
  const channels = kind === 3 ? 4 : 3;
  return sharp(Buffer.from(data.buffer, data.byteOffset, data.byteLength), { raw: { width, height, channels } }).png().toBuffer();
}

/** A page as an image for OCR: pdftoppm if installed, else the page's own image; a clear error otherwise. */
export async function pageImage(bytes: Uint8Array, pdf: PDFDocumentProxy, pageNumber: number): Promise<Buffer> {
  if (await hasPdftoppm()) {
    const viewport = (await pdf.getPage(pageNumber)).getViewport({ scale: 1 });
    return renderWithPdftoppm(bytes, pageNumber, ocrDpi(viewport.width, viewport.height));
  }
  const img = await largestPageImage(pdf, pageNumber);
  if (img) return img;
  throw new Error(
    `Page ${pageNumber} of the PDF has no text layer and cannot be rendered for OCR: install poppler-utils (pdftoppm) to read scanned PDFs of this kind`,
  );
}
