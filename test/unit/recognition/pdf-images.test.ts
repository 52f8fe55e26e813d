import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { largestPageImage, openPdf, pageTextWords, pdfAttachments, renderWithPdftoppm } from '../../../lambdas/adapters/local-recogniser/pdf';
import { FACTURX, RECEIPT_SCANNED_PDF } from '../../fixtures/recognition/data';

const dir = join(import.meta.dirname, '../../fixtures/recognition');

describe('PDF pages without OCR', { timeout: 60_000 }, () => {
  it('finds no text layer on a scanned page and gets its image out without a renderer', async () => {
    const bytes = readFileSync(join(dir, RECEIPT_SCANNED_PDF.file));
    const pdf = await openPdf(bytes);
    try {
      expect((await pageTextWords(pdf, 1)).chars).toBe(0);
      const png = await largestPageImage(pdf, 1);
      const meta = await sharp(png!).metadata();
      // The scan embedded in the PDF is 713 × 2066 pixels.
      expect([meta.width, meta.height]).toEqual([713, 2066]);
    } finally {
      await pdf.destroy();
    }
  });

  it('renders a page with pdftoppm at 200 dpi', async () => {
    const bytes = readFileSync(join(dir, RECEIPT_SCANNED_PDF.file));
    const meta = await sharp(await renderWithPdftoppm(bytes, 1)).metadata();
    // The page is 713/150 inch wide: 950 pixels at 200 dpi.
    expect(meta.width).toBeGreaterThan(940);
    expect(meta.width).toBeLessThan(960);
  });

  it('reads words with positions from a text layer and lists embedded files', async () => {
    const pdf = await openPdf(readFileSync(join(dir, FACTURX.file)));
    try {
      const { page, chars } = await pageTextWords(pdf, 1);
      expect(chars).toBeGreaterThan(300);
      const words = page.lines.flatMap((l) => l.words);
      const id = words.find((w) => w.text === FACTURX.documentId)!;
      expect(id.box.left).toBeGreaterThan(0.5);
      expect(id.box.top).toBeLessThan(0.1);
      expect((await pdfAttachments(pdf)).map((a) => a.name)).toEqual(['factur-x.xml']);
    } finally {
      await pdf.destroy();
    }
  });
});
