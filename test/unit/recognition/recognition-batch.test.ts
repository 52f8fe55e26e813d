import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PaddleOcr, type ModelRun } from '../../../lambdas/adapters/local-recogniser/paddle-ocr';
import { RECEIPT_ROTATED } from '../../fixtures/recognition/data';

// Lines of one input width (the short ones, all padded to 320 px) are read several to a recogniser run; no line is
// padded wider than on its own, so the page reads exactly as it does one line a run.
const page = readFileSync(join(import.meta.dirname, '../../fixtures/recognition', RECEIPT_ROTATED.file));
const runs = { single: [] as ModelRun[], batched: [] as ModelRun[] };
const single = new PaddleOcr({ threads: 1, recognitionBatch: 1, onModelRun: (r) => runs.single.push(r) });
const batched = new PaddleOcr({ threads: 1, onModelRun: (r) => runs.batched.push(r) });
afterAll(() => Promise.all([single.close(), batched.close()]));

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
});
