/**
 * Page images for the viewer and PDF splitting: images with sharp (EXIF orientation applied, JPEG),
 * PDFs rendered with pdfjs-dist on @napi-rs/canvas (prebuilt binary in the npm package, no download),
 * PDFs split with pdf-lib. Files that cannot be read end as a DocumentProblem with a readable message.
 */
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { PDFDocument, PDFName, PDFNumber, PDFRawStream } from 'pdf-lib';
import sharp from 'sharp';
import { UPLOAD_MSG } from '../../../shared/schemas/receipts';
import { DocumentProblem, type PageRenderer, type RenderedPage } from '../../core/documents/ports';

/** Decompression-bomb guard: images of more pixels than this are refused before they are decoded. */
export const MAX_IMAGE_PIXELS = 100_000_000;
/** Images with a side shorter than this cannot be read. */
export const MIN_IMAGE_SIDE = 64;
/** Longest side of a page image for the viewer. */
export const PAGE_IMAGE_MAX_SIDE = 2000;
/** Pages rendered per PDF; later pages are kept in the file but get no image. */
export const MAX_RENDERED_PAGES = 100;

export const RENDER_MSG = {
  imageBroken: 'The image file is damaged and cannot be read',
  imageTooLarge: `The image is too large to be processed (more than ${MAX_IMAGE_PIXELS / 1_000_000} megapixels)`,
  pdfBroken: 'The PDF file is damaged and cannot be read',
  pdfProtected: 'The PDF file is protected with a password',
  pdfEmpty: 'The PDF file has no pages',
} as const;

/**
 * The font data pdfjs ships for the 14 standard PDF fonts (Helvetica, Times, Courier, Symbol, ZapfDingbats), which
 * PDFs may name without embedding them. Without it their text renders blank where there are no system fonts (AWS
 * Lambda). A folder path with a trailing separator, from the installed pdfjs-dist: the repository's node_modules
 * locally, the function's own node_modules/pdfjs-dist on Lambda (the package is shipped whole).
 */
export function standardFontDataPath(): string {
  const manifest = createRequire(import.meta.url).resolve('pdfjs-dist/package.json');
  return join(dirname(manifest), 'standard_fonts') + sep;
}

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjsPromise: Promise<PdfJs> | undefined;
function pdfjs(): Promise<PdfJs> {
  pdfjsPromise ??= (async () => {
    // The worker's code runs in this thread (no worker file lookup; works when bundled).
    const worker = await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
    return import('pdfjs-dist/legacy/build/pdf.mjs');
  })();
  return pdfjsPromise;
}

async function renderImage(bytes: Uint8Array): Promise<RenderedPage> {
  let meta: Awaited<ReturnType<ReturnType<typeof sharp>['metadata']>>;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new DocumentProblem(RENDER_MSG.imageBroken);
  }
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (!width || !height) throw new DocumentProblem(RENDER_MSG.imageBroken);
  // The header says how big the decoded image would be: refuse bombs before decoding anything.
  if (width * height > MAX_IMAGE_PIXELS) throw new DocumentProblem(RENDER_MSG.imageTooLarge);
  if (Math.min(width, height) < MIN_IMAGE_SIDE) throw new DocumentProblem(UPLOAD_MSG.resolutionTooLow);
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' })
      .rotate()
      .resize({ width: PAGE_IMAGE_MAX_SIDE, height: PAGE_IMAGE_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 82, mozjpeg: false })
      .toBuffer({ resolveWithObject: true });
    return { jpeg: new Uint8Array(data), width: info.width, height: info.height };
  } catch (error) {
    if (/pixel limit/i.test(String((error as Error).message))) throw new DocumentProblem(RENDER_MSG.imageTooLarge);
    throw new DocumentProblem(RENDER_MSG.imageBroken);
  }
}

async function openPdf(bytes: Uint8Array) {
  const lib = await pdfjs();
  try {
    return await lib.getDocument({
      data: new Uint8Array(bytes),
      isEvalSupported: false,
      // Glyphs are drawn as paths from the font programs: no system font is ever asked for.
      disableFontFace: true,
      useSystemFonts: false,
      standardFontDataUrl: standardFontDataPath(),
      isOffscreenCanvasSupported: false,
      isImageDecoderSupported: false,
      // Second line of defence (inline images, objects pdf-lib could not read): pdfjs skips larger images.
      maxImageSize: MAX_IMAGE_PIXELS,
      stopAtErrors: false,
      verbosity: 0,
    }).promise;
  } catch (error) {
    const name = (error as { name?: string }).name;
    if (name === 'PasswordException') throw new DocumentProblem(RENDER_MSG.pdfProtected);
    throw new DocumentProblem(RENDER_MSG.pdfBroken);
  }
}

/**
 * Decompression-bomb guard for PDFs: the largest image XObject the file declares (Width × Height from its
 * dictionary; nothing is decoded). pdf-lib parses objects without decoding their streams.
 */
export async function largestDeclaredPdfImage(bytes: Uint8Array): Promise<number> {
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true, throwOnInvalidObject: false });
  } catch {
    return 0; // not parseable by pdf-lib: pdfjs decides (and its own maxImageSize still bounds decoding)
  }
  let largest = 0;
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream)) continue;
    const dict = object.dict;
    if (dict.get(PDFName.of('Subtype')) !== PDFName.of('Image')) continue;
    const width = dict.lookupMaybe(PDFName.of('Width'), PDFNumber)?.asNumber() ?? 0;
    const height = dict.lookupMaybe(PDFName.of('Height'), PDFNumber)?.asNumber() ?? 0;
    largest = Math.max(largest, Math.abs(width) * Math.abs(height));
  }
  return largest;
}

async function renderPdf(bytes: Uint8Array, onPage?: (page: RenderedPage, index: number) => Promise<void>): Promise<RenderedPage[]> {
  // A small file may paint an enormous image: refuse it as "too large" before anything decodes it.
  if ((await largestDeclaredPdfImage(bytes)) > MAX_IMAGE_PIXELS) throw new DocumentProblem(RENDER_MSG.imageTooLarge);
  const pdf = await openPdf(bytes);
  try {
    if (pdf.numPages < 1) throw new DocumentProblem(RENDER_MSG.pdfEmpty);
    const out: RenderedPage[] = [];
    for (let n = 1; n <= Math.min(pdf.numPages, MAX_RENDERED_PAGES); n++) {
      let page;
      try {
        page = await pdf.getPage(n);
      } catch {
        throw new DocumentProblem(RENDER_MSG.pdfBroken);
      }
      const base = page.getViewport({ scale: 1 });
      // About 144 dpi, never more than PAGE_IMAGE_MAX_SIDE pixels: page size cannot blow up the canvas.
      const scale = Math.min(2, PAGE_IMAGE_MAX_SIDE / Math.max(base.width, base.height, 1));
      const viewport = page.getViewport({ scale });
      const width = Math.max(1, Math.round(viewport.width));
      const height = Math.max(1, Math.round(viewport.height));
      const canvas = createCanvas(width, height);
      const ctx = canvas.getContext('2d');
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(0, 0, width, height);
      try {
        await page.render({ canvasContext: ctx as unknown as CanvasRenderingContext2D, canvas: canvas as unknown as HTMLCanvasElement, viewport }).promise;
      } catch {
        throw new DocumentProblem(RENDER_MSG.pdfBroken);
      }
      const jpeg = await canvas.encode('jpeg', 82);
      page.cleanup();
      const rendered = { jpeg: new Uint8Array(jpeg), width, height };
      if (onPage) await onPage(rendered, n - 1);
      else out.push(rendered);
      // Between pages the event loop runs: other work of the process (local mode's API) is not held up by a long PDF.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return out;
  } finally {
    await pdf.destroy();
  }
}

/** A PDF loaded by pdf-lib, with its page count; a protected or broken file is the user's problem, said as such. */
async function loadPdfPages(bytes: Uint8Array): Promise<{ src: PDFDocument; count: number }> {
  let src: PDFDocument;
  try {
    src = await PDFDocument.load(bytes, { updateMetadata: false });
  } catch (error) {
    if ((error as Error).name === 'EncryptedPDFError' || /encrypted/i.test(String((error as Error).message))) throw new DocumentProblem(RENDER_MSG.pdfProtected);
    throw new DocumentProblem(RENDER_MSG.pdfBroken);
  }
  try {
    return { src, count: src.getPageCount() };
  } catch {
    // pdf-lib parses leniently and fails only when it walks the page tree.
    throw new DocumentProblem(RENDER_MSG.pdfBroken);
  }
}

async function splitPdf(bytes: Uint8Array, maxPages: number): Promise<Uint8Array[] | null> {
  const { src, count } = await loadPdfPages(bytes);
  if (count < 1) throw new DocumentProblem(RENDER_MSG.pdfEmpty);
  if (count > maxPages) return null;
  const out: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const one = await PDFDocument.create({ updateMetadata: false });
    try {
      const [page] = await one.copyPages(src, [i]);
      one.addPage(page);
    } catch {
      throw new DocumentProblem(RENDER_MSG.pdfBroken);
    }
    out.push(await one.save());
  }
  return out;
}

/** The first pages of a PDF as their own PDF (pdf-lib copies the pages; nothing is rendered). */
async function firstPages(bytes: Uint8Array, maxPages: number): Promise<{ bytes: Uint8Array; total: number }> {
  const { src, count: total } = await loadPdfPages(bytes);
  if (total <= maxPages) return { bytes, total };
  const out = await PDFDocument.create({ updateMetadata: false });
  try {
    const pages = await out.copyPages(src, Array.from({ length: maxPages }, (_, i) => i));
    for (const p of pages) out.addPage(p);
  } catch {
    throw new DocumentProblem(RENDER_MSG.pdfBroken);
  }
  return { bytes: await out.save(), total };
}

export const pageRenderer: PageRenderer = { renderImage, renderPdf, splitPdf, firstPages };
