/**
 * A large page (a 600 dpi scan, a phone photo) is read at half size where its print stays tall enough there, and at
 * its own size where its print is small (`PaddleOcr.decodePage`, READ_LINE_MIN; docs/recognition.md "Stop 42").
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalRecogniser } from '../../../lambdas/adapters/local-recogniser';
import { PaddleOcr, READ_LINE_MIN } from '../../../lambdas/adapters/local-recogniser/paddle-ocr';
import { decodeRgb, type RgbImage } from '../../../lambdas/adapters/local-recogniser/page-image';
import { medianLineHeight } from '../../../lambdas/adapters/local-recogniser/text-detection';
import { RECEIPT_ROTATED } from '../../fixtures/recognition/data';
import { summaryField as field } from '../../support/expense-fields';

const fixture = join(import.meta.dirname, '../../fixtures/recognition', RECEIPT_ROTATED.file);

const raw = (img: RgbImage) => sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } });

/** The receipt upright (463 × 605 px, its lines about 20 px high). */
const upright = () => decodeRgb(readFileSync(fixture), 270);

/** The receipt enlarged six times: a page of 2778 × 3630 px whose print is about 120 px high. */
async function enlarged(): Promise<Buffer> {
  const img = await upright();
  return raw(img).resize(img.width * 6, img.height * 6, { kernel: 'cubic' }).jpeg({ quality: 92 }).toBuffer();
}

/** The receipt enlarged twice in the middle of a white sheet as large: its print about 40 px high, 20 at half size. */
async function onLargeSheet(): Promise<Buffer> {
  const img = await upright();
  const receipt = await raw(img).resize(img.width * 2, img.height * 2, { kernel: 'cubic' }).raw().toBuffer();
  const [x, y] = [img.width * 2, img.height * 2];
  return sharp(receipt, { raw: { width: x, height: y, channels: 3 } })
    .extend({ left: x, right: 6 * img.width - 2 * x, top: y, bottom: 6 * img.height - 2 * y, background: '#ffffff' })
    .jpeg({ quality: 92 })
    .toBuffer();
}

describe('a large page', () => {
  const ocr = new PaddleOcr({ threads: 1 });
  afterAll(() => ocr.close());

  /** Reads a page file and checks the width of the page it was read at and the receipt's seller and total. */
  async function expectReadAt(bytes: Buffer, width: number): Promise<void> {
    const read = await ocr.recognize(bytes);
    expect(read.image.width).toBe(width);
    const text = read.page.lines.map((l) => l.text).join('\n');
    expect(text).toContain(RECEIPT_ROTATED.company);
    expect(text).toContain(RECEIPT_ROTATED.total);
  }

  it('is read at half size when its print is tall', async () => {
    const bytes = await enlarged();
    const { page, boxes } = await ocr.decodePage(bytes);
    expect([page.width, page.height]).toEqual([1389, 1815]);
    expect(medianLineHeight(boxes!)).toBeGreaterThanOrEqual(READ_LINE_MIN);
    await expectReadAt(bytes, 1389);
  }, 120_000);

  it("is halved as it is seen, a photo's EXIF orientation applied", async () => {
    // Stored lying on its side, with orientation 6 (turn a quarter clockwise to view), as phones store photos.
    const stored = await sharp(await enlarged()).rotate(-90).withMetadata({ orientation: 6 }).jpeg({ quality: 92 }).toBuffer();
    const { page, boxes } = await ocr.decodePage(stored);
    expect([page.width, page.height]).toEqual([1389, 1815]);
    expect(boxes).toBeDefined();
    await expectReadAt(stored, 1389);
  }, 120_000);

  it('is read at its own size when its print is small, its lines found there', async () => {
    const bytes = await onLargeSheet();
    const { page, boxes } = await ocr.decodePage(bytes);
    expect([page.width, page.height, boxes]).toEqual([2778, 3630, undefined]);
    // At half size its lines are under READ_LINE_MIN high.
    expect(medianLineHeight(await ocr.detect(await decodeRgb(bytes, 0, 0.5)))).toBeLessThan(READ_LINE_MIN);
    await expectReadAt(bytes, 2778);
  }, 120_000);

  it('is read at its own size when halving is off', async () => {
    const whole = new PaddleOcr({ threads: 1, halveLargePages: false });
    try {
      const { page, boxes } = await whole.decodePage(await enlarged());
      expect([page.width, page.height, boxes]).toEqual([2778, 3630, undefined]);
    } finally {
      await whole.close();
    }
  });

  it('gives the fields of the page at its own size, boxed where they lie on it', async () => {
    const recogniser = new LocalRecogniser({ paddle: { threads: 1 }, extraLanguages: [] });
    const ownSize = new LocalRecogniser({ paddle: { threads: 1, halveLargePages: false }, extraLanguages: [] });
    try {
      const bytes = await enlarged();
      const half = await recogniser.analyzeExpense({ bytes, mime: 'image/jpeg' });
      const whole = await ownSize.analyzeExpense({ bytes, mime: 'image/jpeg' });
      for (const type of ['VENDOR_NAME', 'INVOICE_RECEIPT_DATE', 'TOTAL']) {
        const a = field(whole, type);
        const b = field(half, type);
        expect(b.text).toBe(a.text);
        expect(Math.abs(b.centre.x - a.centre.x)).toBeLessThan(0.01);
        expect(Math.abs(b.centre.y - a.centre.y)).toBeLessThan(0.01);
      }
      expect(field(half, 'TOTAL').text).toBe(RECEIPT_ROTATED.total);
    } finally {
      await Promise.all([recogniser.close(), ownSize.close()]);
    }
  }, 180_000);
});
