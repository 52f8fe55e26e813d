import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { unionBoxes } from '../../../lambdas/core/recognition/geometry';
import { documentRows } from '../../../lambdas/core/recognition/extract/rows';
import { PaddleOcr } from '../../../lambdas/adapters/local-recogniser/paddle-ocr';
import { decodeRgb } from '../../../lambdas/adapters/local-recogniser/page-image';
import { RECEIPT_ROTATED } from '../../fixtures/recognition/data';

const page = join(import.meta.dirname, '../../fixtures/recognition', RECEIPT_ROTATED.file);
const ocr = new PaddleOcr({ threads: 1 });
afterAll(() => ocr.close());

describe('the lines of a page read by PaddleOCR', () => {
  it('are boxed by the text they hold, so that a label and its value on one row stay one row', async () => {
    // The fixture is the receipt turned a quarter: 270° brings it upright.
    const { page: read } = await ocr.recognize(await decodeRgb(readFileSync(page), 270));
    expect(read.lines.length).toBeGreaterThan(10);
    for (const line of read.lines) expect(line.box).toEqual(unionBoxes(line.words.map((w) => w.box)));
    // The cashier's label, its colon and the number after it (`Cashier : 01`) are read as three boxes side by side:
    // one row, where the widened boxes used to part a box from its row.
    const rows = documentRows({ pages: [read], source: 'ocr' }).map((r) => r.text.replace(/\s+/g, ' '));
    expect(rows.find((r) => r.startsWith('Cashier'))?.split(' ').sort()).toEqual(['01', ':', 'Cashier']);
    expect(rows).not.toContain('1');
  }, 120_000);
});
