import { crc32 } from 'node:zlib';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DocumentProblem } from '../../../lambdas/core/documents/ports';
import { pageRenderer } from '../../../lambdas/jobs/lib/renderer';

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
