/**
 * The product's recogniser scores only the classes a receipt in Latin script prints, with its own dictionary beside
 * it (`scripts/recogniser-training/cut_classes.py`): the model and the dictionary must belong together.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCharacters, RECEIPT_RECOGNISER_MODEL, recogniserDictionary, recogniserModelPath } from '../../../lambdas/adapters/local-recogniser/paddle-models';
import { PaddleOcr } from '../../../lambdas/adapters/local-recogniser/paddle-ocr';
import { decodeRgb } from '../../../lambdas/adapters/local-recogniser/page-image';
import { RECEIPT_ROTATED } from '../../fixtures/recognition/data';

const classesOf = async (model: string) => {
  const session = await ort.InferenceSession.create(model);
  const out = session.outputMetadata[0]!;
  await session.release();
  return out.isTensor ? out.shape[out.shape.length - 1] : undefined;
};

const scratch = mkdtempSync(join(tmpdir(), 'recogniser-classes-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the product's recogniser and its dictionary", () => {
  it('reads with the dictionary beside it, whose characters are Latin, one class each', async () => {
    const dictionary = recogniserDictionary(RECEIPT_RECOGNISER_MODEL);
    expect(basename(dictionary)).toBe('ppocrv4-rec-receipts.dict.txt');
    const chars = loadCharacters(readFileSync(dictionary, 'utf8'));
    expect(await classesOf(RECEIPT_RECOGNISER_MODEL)).toBe(chars.length);
    expect(chars.length).toBe(224);
    // Every letter, digit and mark of ASCII is there; no CJK character is.
    for (let c = 33; c < 127; c++) expect(chars).toContain(String.fromCharCode(c));
    expect(chars.filter((c) => /[\u3000-\u9fff]/u.test(c))).toEqual([]);
  });

  it("reads the package's model with the package's whole dictionary", async () => {
    const base = recogniserModelPath('base');
    const chars = loadCharacters(readFileSync(recogniserDictionary(base), 'utf8'));
    expect(chars.length).toBe(6625);
    expect(await classesOf(base)).toBe(6625);
  });

  it('refuses a model whose dictionary has another number of characters', async () => {
    const model = join(scratch, 'cut.onnx');
    copyFileSync(RECEIPT_RECOGNISER_MODEL, model);
    writeFileSync(join(scratch, 'cut.dict.txt'), 'A\nB\nC\n');
    const ocr = new PaddleOcr({ recogniserModel: model, languageModel: 'none' });
    try {
      await expect(ocr.warmUp()).rejects.toThrow(/scores 224 classes, its dictionary 5/);
    } finally {
      await ocr.close();
    }
  });

  it('reads a receipt photo with it', async () => {
    const ocr = new PaddleOcr({ threads: 1 });
    try {
      const img = await decodeRgb(readFileSync(join(import.meta.dirname, '../../fixtures/recognition', RECEIPT_ROTATED.file)), 270);
      const text = (await ocr.recognizeBoxes(img, await ocr.detect(img), 1)).map((l) => l.text).join('\n');
      expect(text).toContain(RECEIPT_ROTATED.company);
      expect(text).toContain(RECEIPT_ROTATED.total);
    } finally {
      await ocr.close();
    }
  }, 60_000);
});
