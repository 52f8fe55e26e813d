import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalRecogniser } from '../../../lambdas/adapters/local-recogniser';
import { PaddleOcr } from '../../../lambdas/adapters/local-recogniser/paddle-ocr';
import { decodeRgb, type RgbImage, rotatedRgb } from '../../../lambdas/adapters/local-recogniser/page-image';
import { boxesOnPage, levelledMap, pageSkew, type TextBox } from '../../../lambdas/adapters/local-recogniser/text-detection';
import { RECEIPT_ROTATED } from '../../fixtures/recognition/data';
import { summaryField as field } from '../../support/expense-fields';

const fixture = join(import.meta.dirname, '../../fixtures/recognition', RECEIPT_ROTATED.file);
const DEGREES = 4;

/** Intersection over union of two boxes. */
function overlap(a: TextBox, b: TextBox): number {
  const w = Math.max(0, Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0));
  const h = Math.max(0, Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0));
  const area = (t: TextBox) => (t.x1 - t.x0) * (t.y1 - t.y0);
  return (w * h) / (area(a) + area(b) - w * h);
}

async function jpeg(img: RgbImage): Promise<Uint8Array> {
  return sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } }).jpeg({ quality: 92 }).toBuffer();
}

describe('a page photographed askew', () => {
  const ocr = new PaddleOcr({ threads: 1 });
  const recogniser = new LocalRecogniser({ paddle: { threads: 1 }, extraLanguages: [] });
  afterAll(() => Promise.all([ocr.close(), recogniser.close()]));

  it('is read from the page turned level, and says how it was turned', async () => {
    const upright = await decodeRgb(readFileSync(fixture), 270);
    expect(Math.abs(pageSkew(await ocr.detect(upright)))).toBeLessThan((0.5 * Math.PI) / 180);
    const askew = await rotatedRgb(upright, DEGREES);
    const slant = pageSkew(await ocr.detect(askew));
    expect((slant * 180) / Math.PI).toBeCloseTo(DEGREES, 0);
    const read = await ocr.recognize(askew);
    expect(read.level?.radians).toBeCloseTo(-slant, 9);
    expect(Math.abs(pageSkew(await ocr.detect(read.image)))).toBeLessThan((0.5 * Math.PI) / 180);
    expect((await ocr.recognize(upright)).level).toBeUndefined();
    // Without levelling, the page is read as it is.
    const asIs = new PaddleOcr({ threads: 1, deskewPage: false });
    try {
      expect((await asIs.recognize(askew)).image).toBe(askew);
    } finally {
      await asIs.close();
    }
  }, 180_000);

  it("finds the levelled page's lines on the slanting page's probabilities turned level, as the detector finds them there", async () => {
    const askew = await rotatedRgb(await decodeRgb(readFileSync(fixture), 270), DEGREES);
    const found = await ocr.detect(askew);
    const read = await ocr.recognize(askew);
    const level = read.level!;
    const fromMap = boxesOnPage(levelledMap(found.probabilities!, level), read.image.width, read.image.height);
    // The detector run again on the levelled page (the way before stop 45).
    const detected = (await ocr.detect(read.image)).filter((b) => b.x1 - b.x0 >= 3 * (b.y1 - b.y0));
    expect(detected.length).toBeGreaterThan(10);
    // Nearly every line matches one found on the turned probabilities (on this page all but two words, which the
    // slanting page's map joins into one box).
    const matched = detected.filter((b) => Math.max(...fromMap.map((m) => overlap(b, m))) >= 0.7);
    expect(matched.length / detected.length).toBeGreaterThanOrEqual(0.85);
  }, 180_000);

  it('gives the fields of the straight page, boxed where they lie on the page as stored', async () => {
    const upright = await decodeRgb(readFileSync(fixture), 270);
    const askew = await rotatedRgb(upright, DEGREES);
    const straight = await recogniser.analyzeExpense({ bytes: await jpeg(upright), mime: 'image/jpeg' });
    const turned = await recogniser.analyzeExpense({ bytes: await jpeg(askew), mime: 'image/jpeg' });
    for (const type of ['VENDOR_NAME', 'TOTAL']) {
      const a = field(straight, type);
      const b = field(turned, type);
      expect(b.text).toBe(a.text);
      // The straight page's point turned clockwise by DEGREES about the centre, onto the larger canvas.
      const r = (DEGREES * Math.PI) / 180;
      const dx = a.centre.x * upright.width - upright.width / 2;
      const dy = a.centre.y * upright.height - upright.height / 2;
      const x = (dx * Math.cos(r) - dy * Math.sin(r) + askew.width / 2) / askew.width;
      const y = (dx * Math.sin(r) + dy * Math.cos(r) + askew.height / 2) / askew.height;
      expect(Math.abs(b.centre.x - x)).toBeLessThan(0.02);
      expect(Math.abs(b.centre.y - y)).toBeLessThan(0.02);
    }
    expect(field(turned, 'TOTAL').text).toBe(RECEIPT_ROTATED.total);
  }, 180_000);
});
