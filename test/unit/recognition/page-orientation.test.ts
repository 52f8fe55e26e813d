/**
 * How a page lies is told by its lines before the page is read: lines standing on end mean a page on its side,
 * read turned a quarter the way up its longest lines read; level lines that read badly are read turned by 180°
 * before a quarter turn is tried (`linesStandOnEnd`, `readsUpsideDown`, `LocalRecogniser.readUpright`;
 * docs/recognition.md "Stop 42").
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { LocalRecogniser } from '../../../lambdas/adapters/local-recogniser';
import { PaddleOcr } from '../../../lambdas/adapters/local-recogniser/paddle-ocr';
import { decodeRgb, type RgbImage } from '../../../lambdas/adapters/local-recogniser/page-image';
import { linesStandOnEnd, type TextBox } from '../../../lambdas/adapters/local-recogniser/text-detection';
import { RECEIPT_ROTATED } from '../../fixtures/recognition/data';

const fixture = join(import.meta.dirname, '../../fixtures/recognition', RECEIPT_ROTATED.file);

const jpeg = (img: RgbImage) => sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } }).jpeg({ quality: 92 }).toBuffer();

const box = (x0: number, y0: number, x1: number, y1: number): TextBox => ({ x0, y0, x1, y1, score: 1 });

describe('lines standing on end', () => {
  it('are told by the length of the long boxes, not by their number', () => {
    // Three digits, each taller than wide, beside one level line as long as all three are tall.
    const digits = [box(0, 0, 10, 30), box(20, 0, 30, 30), box(40, 0, 50, 30)];
    expect(linesStandOnEnd([...digits, box(0, 40, 100, 60)])).toBe(false);
    expect(linesStandOnEnd([...digits, box(0, 40, 80, 60)])).toBe(true);
    // Boxes about as wide as high count to neither.
    expect(linesStandOnEnd([box(0, 0, 30, 40), box(0, 50, 35, 80)])).toBe(false);
    expect(linesStandOnEnd([])).toBe(false);
  });

  it('are found on a receipt photographed sideways, and not on it upright or upside down', async () => {
    const ocr = new PaddleOcr({ threads: 1 });
    try {
      const upright = await decodeRgb(readFileSync(fixture), 270);
      expect(linesStandOnEnd(await ocr.detect(await decodeRgb(readFileSync(fixture))))).toBe(true);
      expect(linesStandOnEnd(await ocr.detect(upright))).toBe(false);
      expect(linesStandOnEnd(await ocr.detect(await decodeRgb(await jpeg(upright), 180)))).toBe(false);
    } finally {
      await ocr.close();
    }
  }, 60_000);
});

describe('print upside down', () => {
  it('is told by its longest lines reading better turned over', async () => {
    const ocr = new PaddleOcr({ threads: 1 });
    try {
      const upright = await decodeRgb(readFileSync(fixture), 270);
      const over = await decodeRgb(await jpeg(upright), 180);
      expect(await ocr.readsUpsideDown(upright, await ocr.detect(upright))).toBe(false);
      expect(await ocr.readsUpsideDown(over, await ocr.detect(over))).toBe(true);
    } finally {
      await ocr.close();
    }
  }, 60_000);
});

describe('a page read upright', () => {
  const recogniser = new LocalRecogniser({ paddle: { threads: 1 }, extraLanguages: [] });
  afterAll(() => recogniser.close());

  /** The sizes of the pages read, in turn, while finding the turn that makes the page upright. */
  async function pagesRead(bytes: Uint8Array): Promise<{ turn: number; read: string[] }> {
    const read: string[] = [];
    const recognize = PaddleOcr.prototype.recognize;
    vi.spyOn(PaddleOcr.prototype, 'recognize').mockImplementation(function (this: PaddleOcr, ...args: Parameters<PaddleOcr['recognize']>) {
      const page = args[0] as RgbImage;
      read.push(`${page.width}x${page.height}`);
      return recognize.apply(this, args);
    });
    try {
      return { turn: await recogniser.detectRotation(bytes), read };
    } finally {
      vi.restoreAllMocks();
    }
  }

  it('lying on its side is read once, turned the way up its longest lines read', async () => {
    const { turn, read } = await pagesRead(readFileSync(fixture));
    expect(turn).toBe(270);
    expect(read).toEqual(['463x605']);
    // Lying the other way, the other quarter turn.
    const other = await jpeg(await decodeRgb(readFileSync(fixture), 180));
    expect(await pagesRead(other)).toEqual({ turn: 90, read: ['463x605'] });
  }, 120_000);

  it('upside down is read as it is and turned by 180°, not by a quarter', async () => {
    const upright = await decodeRgb(readFileSync(fixture), 270);
    const { turn, read } = await pagesRead(await jpeg(await decodeRgb(await jpeg(upright), 180)));
    expect(turn).toBe(180);
    expect(read).toEqual(['463x605', '463x605']);
  }, 120_000);

  it('upright is read once', async () => {
    const upright = await decodeRgb(readFileSync(fixture), 270);
    const { turn, read } = await pagesRead(await jpeg(upright));
    expect(turn).toBe(0);
    expect(read).toEqual(['463x605']);
  }, 120_000);
});
