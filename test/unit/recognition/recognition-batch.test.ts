import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultMinRecognitionRatio, RECEIPT_RECOGNISER_MODEL } from '../../../lambdas/adapters/local-recogniser/paddle-models';
import { type ModelRun, PaddleOcr } from '../../../lambdas/adapters/local-recogniser/paddle-ocr';
import { decodeRgb } from '../../../lambdas/adapters/local-recogniser/page-image';
import { RECEIPT_ROTATED } from '../../fixtures/recognition/data';

// Lines of one input width (the shortest ones, all padded to the narrowest input) are read several to a recogniser run; no line is
// padded wider than on its own, so the page reads exactly as it does one line a run.
const page = readFileSync(join(import.meta.dirname, '../../fixtures/recognition', RECEIPT_ROTATED.file));
const runs = { single: [] as ModelRun[], batched: [] as ModelRun[], wide: [] as ModelRun[] };
const single = new PaddleOcr({ threads: 1, recognitionBatch: 1, onModelRun: (r) => runs.single.push(r) });
const batched = new PaddleOcr({ threads: 1, onModelRun: (r) => runs.batched.push(r) });
const wide = new PaddleOcr({ threads: 1, minRecognitionRatio: 320 / 48, onModelRun: (r) => runs.wide.push(r) });
afterAll(() => Promise.all([single.close(), batched.close(), wide.close()]));
const columns = (rs: ModelRun[]) => rs.filter((r) => r.model === 'recogniser').reduce((s, r) => s + r.width, 0);

describe('recogniser runs', () => {
  it('read short lines together, with the same text, words and confidences as one line a run', async () => {
    const a = await single.recognize(page);
    const b = await batched.recognize(page);
    const recogniser = (rs: ModelRun[]) => rs.filter((r) => r.model === 'recogniser');
    const [one, many] = [recogniser(runs.single), recogniser(runs.batched)];
    expect(a.page.lines.length).toBeGreaterThan(10);
    expect(many.length).toBeLessThan(one.length);
    // The same input columns in all: nothing padded further.
    expect(many.reduce((s, r) => s + r.width, 0)).toBe(one.reduce((s, r) => s + r.width, 0));
    expect(b.page.lines.map((l) => l.text)).toEqual(a.page.lines.map((l) => l.text));
    b.page.lines.forEach((line, i) => {
      expect(line.box).toEqual(a.page.lines[i]!.box);
      line.words.forEach((w, j) => expect(w.confidence).toBeCloseTo(a.page.lines[i]!.words[j]!.confidence, 3));
    });
  }, 120_000);

  it("pad short lines only to 64 px for the product's recogniser, which learnt to read them so; 320 px for others", async () => {
    expect(defaultMinRecognitionRatio(undefined)).toBe(64 / 48);
    expect(defaultMinRecognitionRatio(RECEIPT_RECOGNISER_MODEL)).toBe(64 / 48);
    expect(defaultMinRecognitionRatio('base')).toBe(320 / 48);
    expect(defaultMinRecognitionRatio('/models/other-rec.onnx')).toBe(320 / 48);
    // The fixture is the receipt turned a quarter: 270° brings it upright.
    const upright = await decodeRgb(page, 270);
    runs.batched.length = 0;
    const narrow = await batched.recognize(upright);
    const padded = await wide.recognize(upright);
    // Less of the input is padding, and the page reads the same.
    expect(columns(runs.batched)).toBeLessThan(0.85 * columns(runs.wide));
    const same = narrow.page.lines.filter((l, i) => l.text === padded.page.lines[i]?.text).length;
    expect(narrow.page.lines.length).toBeGreaterThan(20);
    expect(same).toBeGreaterThanOrEqual(0.9 * padded.page.lines.length);
  }, 120_000);
});
