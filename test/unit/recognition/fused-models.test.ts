import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DETECTOR_MODEL, detectorModelPath } from '../../../lambdas/adapters/local-recogniser/paddle-models';
import { PaddleOcr } from '../../../lambdas/adapters/local-recogniser/paddle-ocr';
import { decodeRgb } from '../../../lambdas/adapters/local-recogniser/page-image';
import { RECEIPT_ROTATED } from '../../fixtures/recognition/data';

// The shipped detector is the package's, rewritten into fused operations (scripts/recogniser-training/fuse_graph.py):
// the same function, so the same line boxes on a real page.
const page = join(import.meta.dirname, '../../fixtures/recognition', RECEIPT_ROTATED.file);
const fused = new PaddleOcr({ threads: 1 });
const packaged = new PaddleOcr({ threads: 1, detectorModel: 'base' });
afterAll(() => Promise.all([fused.close(), packaged.close()]));

describe('the fused detector', () => {
  it('is the shipped default, and `base` names the package file', () => {
    expect(detectorModelPath(undefined)).toBe(DETECTOR_MODEL);
    expect(detectorModelPath('base')).toMatch(/ch_PP-OCRv4_det_infer\.onnx$/);
    expect(detectorModelPath('/tmp/other.onnx')).toBe('/tmp/other.onnx');
  });

  it('finds the same line boxes as the package detector, with the same scores', async () => {
    const img = await decodeRgb(readFileSync(page));
    const [a, b] = [await fused.detect(img), await packaged.detect(img)];
    expect(a.length).toBeGreaterThan(10);
    expect(a.map(({ x0, y0, x1, y1 }) => [x0, y0, x1, y1])).toEqual(b.map(({ x0, y0, x1, y1 }) => [x0, y0, x1, y1]));
    a.forEach((box, i) => expect(box.score).toBeCloseTo(b[i]!.score, 4));
  }, 120_000);
});
