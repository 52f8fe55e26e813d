import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { knownLines } from '../../../lambdas/adapters/local-recogniser/known-lines';
import { languageModelLines } from '../../../lambdas/adapters/local-recogniser/paddle-models';
import { PaddleOcr } from '../../../lambdas/adapters/local-recogniser/paddle-ocr';

describe('lines known from other receipts', () => {
  it('are the lines a text holds at least twice, in upper case with spaces collapsed', () => {
    const known = knownLines(['TEO HENG STATIONERY & BOOKS', 'Teo Heng  Stationery & Books', 'TED HENG STATIONERY & BOOKS', 'TOTAL', ' ', 'TOTAL']);
    expect([...known].sort()).toEqual([
      ['TEO HENG STATIONERY & BOOKS', 2],
      ['TOTAL', 2],
    ]);
    expect(knownLines(['A LINE', 'ANOTHER LINE'], 1).size).toBe(2);
  });

  it("come from the language model's text, and none where there is no model", () => {
    const known = knownLines(languageModelLines(undefined)!);
    // Sellers with several receipts in the text: their names as printed.
    expect(known.has('99 SPEED MART S/B')).toBe(true);
    expect(known.has('MR. D.I.Y. (M) SDN BHD')).toBe(true);
    // An annotator's slip printed on one receipt only is not a known line.
    expect(known.has('TED HENG STATIONERY & BOOKS')).toBe(false);
    expect(languageModelLines('none')).toBeUndefined();
  });

  it("are the reader's, from the text its language model is counted from", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'known-lines-'));
    const file = join(dir, 'lines.txt');
    writeFileSync(file, 'GIN KEE TRADING\nGIN KEE TRADING\nNO 290, JALAN AIR PANAS\n');
    const reader = new PaddleOcr({ languageModel: file });
    const none = new PaddleOcr({ languageModel: 'none' });
    try {
      expect([...(await reader.knownLines())]).toEqual([['GIN KEE TRADING', 2]]);
      expect((await none.knownLines()).size).toBe(0);
    } finally {
      await Promise.all([reader.close(), none.close()]);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
