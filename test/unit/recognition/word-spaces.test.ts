import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addsGapSpaces, PaddleOcr } from '../../../lambdas/adapters/local-recogniser/paddle-ocr';
import { decodeRgb } from '../../../lambdas/adapters/local-recogniser/page-image';
import { RECEIPT_ROTATED } from '../../fixtures/recognition/data';

// The fine-tuned recogniser reads word spaces itself: its lines keep them as read. The spaces the line's geometry
// suggests are added only for the package's own recogniser, which leaves most of them out.
describe('word spaces from the line geometry', () => {
  it('are added by default only for the package’s own recogniser', () => {
    expect(addsGapSpaces({})).toBe(false);
    expect(addsGapSpaces({ recogniserModel: '/models/fold.onnx' })).toBe(false);
    expect(addsGapSpaces({ recogniserModel: 'base' })).toBe(true);
    expect(addsGapSpaces({ gapSpaces: true })).toBe(true);
    expect(addsGapSpaces({ recogniserModel: 'base', gapSpaces: false })).toBe(false);
  });

  // The fixture is a receipt photo lying on its side: turned upright here.
  const page = decodeRgb(readFileSync(join(import.meta.dirname, '../../fixtures/recognition', RECEIPT_ROTATED.file)), 270);
  const readers = {
    base: new PaddleOcr({ threads: 1, recogniserModel: 'base', languageModel: 'none' }),
    baseAsRead: new PaddleOcr({ threads: 1, recogniserModel: 'base', languageModel: 'none', gapSpaces: false }),
  };
  afterAll(() => Promise.all(Object.values(readers).map((r) => r.close())));

  it('change the package recogniser’s lines', async () => {
    const text = async (r: PaddleOcr) => (await r.recognize(await page)).page.lines.map((l) => l.text);
    const [added, asRead] = [await text(readers.base), await text(readers.baseAsRead)];
    expect(asRead.length).toBeGreaterThan(10);
    expect(added).not.toEqual(asRead);
    expect(added.join(' ').split(' ').length).toBeGreaterThan(asRead.join(' ').split(' ').length);
  }, 120_000);
});
