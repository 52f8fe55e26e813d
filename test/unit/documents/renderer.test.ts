import { crc32 } from 'node:zlib';
import { createCanvas } from '@napi-rs/canvas';
import { PDFDocument, PDFName, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DocumentProblem } from '../../../lambdas/core/documents/ports';
import { MAX_OCR_PAGE_SIDE, ocrDpi } from '../../../lambdas/adapters/local-recogniser/pdf';
import { RENDER_MSG, largestDeclaredPdfImage, pageRenderer } from '../../../lambdas/jobs/lib/renderer';

async function twoPagePdf() {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([595, 842]).drawText('Page one', { x: 50, y: 700, size: 20, font });
  doc.addPage([842, 595]).drawText('Page two (landscape)', { x: 50, y: 500, size: 20, font });
  return doc.save();
}

async function problem(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (error) {
    if (error instanceof DocumentProblem) return error.message;
    throw error;
  }
  throw new Error('expected a DocumentProblem');
}

describe('page renderer (sharp, pdfjs on @napi-rs/canvas, pdf-lib)', () => {
  it('turns photos upright by their EXIF orientation and writes JPEG', async () => {
    const sideways = await sharp({ create: { width: 300, height: 120, channels: 3, background: '#eee' } }).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const page = await pageRenderer.renderImage(sideways);
    expect([page.width, page.height]).toEqual([120, 300]);
    expect((await sharp(Buffer.from(page.jpeg)).metadata()).format).toBe('jpeg');
  });

  it('renders every PDF page to a bounded JPEG and splits PDFs per page', async () => {
    const bytes = await twoPagePdf();
    const pages = await pageRenderer.renderPdf(bytes);
    expect(pages).toHaveLength(2);
    expect(pages[0]!.height).toBeGreaterThan(pages[0]!.width);
    expect(pages[1]!.width).toBeGreaterThan(pages[1]!.height);
    for (const p of pages) expect(Math.max(p.width, p.height)).toBeLessThanOrEqual(2000);
    const stats = await sharp(Buffer.from(pages[0]!.jpeg)).stats();
    // Text was drawn: the page is not a blank white rectangle.
    expect(stats.channels[0]!.min).toBeLessThan(128);
    const split = await pageRenderer.splitPdf(bytes, 200);
    expect(split).toHaveLength(2);
    for (const one of split!) expect((await PDFDocument.load(one)).getPageCount()).toBe(1);
    expect(await pageRenderer.splitPdf(bytes, 1)).toBeNull();
  });

  it('refuses bombs from the header, tiny images and broken files with readable messages', async () => {
    // A PNG header claiming 60000 × 60000 pixels: refused before anything is decoded.
    const bomb = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } }).png().toBuffer();
    bomb.writeUInt32BE(60000, 16);
    bomb.writeUInt32BE(60000, 20);
    bomb.writeUInt32BE(crc32(bomb.subarray(12, 29)), 29);
    expect(await problem(pageRenderer.renderImage(bomb))).toBe('The image is too large to be processed (more than 100 megapixels)');
    const tiny = await sharp({ create: { width: 30, height: 500, channels: 3, background: '#fff' } }).png().toBuffer();
    expect(await problem(pageRenderer.renderImage(tiny))).toBe('Resolution of the image is too low to be processed');
    const truncated = (await sharp({ create: { width: 400, height: 400, channels: 3, background: '#f00' } }).jpeg().toBuffer()).subarray(0, 300);
    expect(await problem(pageRenderer.renderImage(truncated))).toBe('The image file is damaged and cannot be read');
    const broken = new TextEncoder().encode('%PDF-1.7\n% nothing else here');
    expect(await problem(pageRenderer.renderPdf(broken))).toBe('The PDF file is damaged and cannot be read');
    expect(await problem(pageRenderer.splitPdf(broken, 200))).toBe('The PDF file is damaged and cannot be read');
  });
});

describe('PDFs whose standard fonts are not embedded (Helvetica, Times, Courier)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /**
   * A function without system fonts (AWS Lambda) draws nothing where a PDF's text asks the canvas for a font by
   * name: the canvas's own text drawing paints nothing here either, so the text shows only when it is drawn from
   * the font data that comes with pdfjs.
   */
  function withoutSystemFonts(): void {
    const context = Object.getPrototypeOf(createCanvas(1, 1).getContext('2d')) as { fillText: unknown; strokeText: unknown };
    vi.spyOn(context as { fillText: () => void }, 'fillText').mockImplementation(() => undefined);
    vi.spyOn(context as { strokeText: () => void }, 'strokeText').mockImplementation(() => undefined);
  }

  it('draws their text dark where it stands and leaves the rest of the page white', async () => {
    withoutSystemFonts();
    const doc = await PDFDocument.create();
    const page = doc.addPage([300, 220]);
    const lines = [
      { font: await doc.embedFont(StandardFonts.Helvetica), y: 170 },
      { font: await doc.embedFont(StandardFonts.TimesRoman), y: 100 },
      { font: await doc.embedFont(StandardFonts.Courier), y: 30 },
    ];
    const text = 'TOTAL 12.50';
    for (const { font, y } of lines) page.drawText(text, { x: 20, y, size: 30, font });
    const [rendered] = await pageRenderer.renderPdf(await doc.save());
    const scale = rendered!.width / 300;
    const { data, info } = await sharp(Buffer.from(rendered!.jpeg)).greyscale().raw().toBuffer({ resolveWithObject: true });
    const dark = (x0: number, y0: number, x1: number, y1: number): number => {
      let n = 0;
      for (let y = Math.max(0, Math.floor(y0)); y < Math.min(info.height, Math.ceil(y1)); y++) {
        for (let x = Math.max(0, Math.floor(x0)); x < Math.min(info.width, Math.ceil(x1)); x++) if (data[y * info.width + x]! < 128) n++;
      }
      return n;
    };
    let inText = 0;
    for (const { font, y } of lines) {
      const width = font.widthOfTextAtSize(text, 30);
      // The capitals and digits of the line, between its baseline and its cap height (page y is from the bottom).
      const box = [20 * scale, (220 - y - 22) * scale, (20 + width) * scale, (220 - y) * scale] as const;
      const inLine = dark(...box);
      expect(inLine, font.name).toBeGreaterThan(0.1 * (box[2] - box[0]) * (box[3] - box[1]));
      // The line with some room around it (the shipped fonts are a little wider than the PDF's own widths).
      inText += dark((20 - 4) * scale, (220 - y - 28) * scale, (20 + width + 12) * scale, (220 - y + 6) * scale);
    }
    // Nothing dark outside the lines of text.
    expect(dark(0, 0, info.width, info.height)).toBe(inText);
  });
});

describe('PDF image bombs', () => {
  /** A small PDF whose one page paints an image declared 30000 × 30000 pixels (900 megapixels). */
  async function imageBombPdf() {
    const doc = await PDFDocument.create();
    const page = doc.addPage([595, 842]);
    const image = doc.context.flateStream(new Uint8Array(64), {
      Type: 'XObject',
      Subtype: 'Image',
      Width: 30000,
      Height: 30000,
      ColorSpace: 'DeviceGray',
      BitsPerComponent: 8,
    });
    const ref = doc.context.register(image);
    page.node.setXObject(PDFName.of('Im0'), ref);
    const content = doc.context.flateStream(new TextEncoder().encode('q 595 0 0 842 0 0 cm /Im0 Do Q'));
    page.node.addContentStream(doc.context.register(content));
    return doc.save();
  }

  it('refuses a PDF that paints an enormous image as too large, before decoding it', async () => {
    const bytes = await imageBombPdf();
    expect(bytes.length).toBeLessThan(10_000);
    expect(await largestDeclaredPdfImage(bytes)).toBe(900_000_000);
    expect(await problem(pageRenderer.renderPdf(bytes))).toBe(RENDER_MSG.imageTooLarge);
  });

  it('still renders PDFs whose images are within the bound', async () => {
    expect(await largestDeclaredPdfImage(await twoPagePdf())).toBe(0);
  });
});

describe('OCR resolution of PDF pages', () => {
  it('is 200 dpi for ordinary pages and lower for huge ones, never above 6000 pixels a side', () => {
    expect(ocrDpi(595, 842)).toBe(200);
    const huge = ocrDpi(14400, 14400);
    expect(huge).toBeLessThan(200);
    expect((14400 * huge) / 72).toBeLessThanOrEqual(MAX_OCR_PAGE_SIDE);
  });
});

describe('long PDFs: the first pages only, one page in memory at a time', () => {
  async function pages(n: number) {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    for (let i = 0; i < n; i++) doc.addPage([300, 400]).drawText(`Page ${i + 1}`, { x: 20, y: 350, size: 12, font });
    return doc.save();
  }

  it('copies the first pages into a PDF of their own and counts them all', async () => {
    const long = await pages(5);
    const first = await pageRenderer.firstPages(long, 2);
    expect(first.total).toBe(5);
    expect((await PDFDocument.load(first.bytes)).getPageCount()).toBe(2);
    const short = await pageRenderer.firstPages(long, 5);
    expect(short).toEqual({ bytes: long, total: 5 });
    expect(await problem(pageRenderer.firstPages(new TextEncoder().encode('%PDF-1.4 broken'), 2))).toBe(RENDER_MSG.pdfBroken);
  });

  it('hands each rendered page over in order and keeps none', async () => {
    const seen: number[] = [];
    const kept = await pageRenderer.renderPdf(await pages(3), async (page, index) => {
      expect(page.jpeg[0]).toBe(0xff);
      seen.push(index);
    });
    expect(seen).toEqual([0, 1, 2]);
    expect(kept).toEqual([]);
  });
});
