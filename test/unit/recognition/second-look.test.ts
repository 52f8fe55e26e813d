import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PaddleOcr } from '../../../lambdas/adapters/local-recogniser/paddle-ocr';
import { decodeRgb } from '../../../lambdas/adapters/local-recogniser/page-image';
import type { Extraction } from '../../../lambdas/core/recognition/extract';
import type { Found } from '../../../lambdas/core/recognition/extract/rows';
import { holdsUnderCuts, nameLines, namesToLookAt, SURE_NAME_WORD, withDoubtedNames, worthASecondLook } from '../../../lambdas/core/recognition/second-look';
import { RECEIPT_ROTATED } from '../../fixtures/recognition/data';
import { textDocument } from './helpers';

const found = (value: string, box: Found['box'], confidence = 96.6): Found => ({ value, raw: value, page: 1, box, confidence });
const extraction = (fields: Extraction['fields']): Extraction => ({
  fields,
  vatLines: [],
  lineItems: [],
  checks: {} as Extraction['checks'],
  reasons: [],
});

describe('a second look at the names a reading is sure of', () => {
  it('looks only at names sure enough for ready', () => {
    const e = extraction({
      supplier_name: found('GERBANG ALAF RESTAURANTS SDN BHD', { left: 0, top: 0, width: 1, height: 0.02 }, 96.6),
      customer_name: found('UAB PIRKĖJAS', { left: 0, top: 0.5, width: 1, height: 0.02 }, 80),
    });
    expect(namesToLookAt(e).map((n) => n.field)).toEqual(['supplier_name']);
  });

  it("takes a line's words that are the name's, not its company number nor a slanting line reaching into the box", () => {
    // Line 0 holds the name and its company number; line 1, the brand under it, reaches into the name's box.
    const page = textDocument(['TRI SHAAS SDN BHD (728515-M)', 'MYDIN MART SRI MUDA'], 1).pages[0]!;
    const name = found('TRI SHAAS SDN BHD', { left: 0, top: 0, width: 1, height: 0.03 });
    expect(nameLines(name, page).map((l) => l.words.map((w) => w.text))).toEqual([['TRI', 'SHAAS', 'SDN', 'BHD']]);
  });

  it('takes both lines of a name printed over two', () => {
    const page = textDocument(['SYARIKAT PERNIAGAAN', 'GIN KEE', 'NO 290, JALAN AIR PANAS'], 1).pages[0]!;
    const name = found('SYARIKAT PERNIAGAAN GIN KEE', { left: 0, top: 0, width: 1, height: 0.04 });
    expect(nameLines(name, page).map((l) => l.words.map((w) => w.text))).toEqual([['SYARIKAT', 'PERNIAGAAN'], ['GIN', 'KEE']]);
  });

  it('looks again only at a name with a word read with less confidence than a sure one', () => {
    const page = textDocument(['SYARIKAT PERNIAGAAN', 'GIN KEE'], 1).pages[0]!;
    const name = found('SYARIKAT PERNIAGAAN GIN KEE', { left: 0, top: 0, width: 1, height: 0.04 });
    const sure = nameLines(name, page).map((l) => ({ ...l, words: l.words.map((w) => ({ ...w, confidence: SURE_NAME_WORD })) }));
    expect(worthASecondLook(sure)).toBe(false);
    sure[1]!.words[0]!.confidence = SURE_NAME_WORD - 0.1;
    expect(worthASecondLook(sure)).toBe(true);
  });

  it('holds when two of the other cuts read every name word, spacing and case aside', () => {
    const words = ['TRI', 'SHAAS', 'SDN', 'BHD'];
    expect(holdsUnderCuts(words, ['TRI SHAS SDN BHD(72851-M)', 'TRI SHAAS SDN BHD (728515-M)', 'Tri Shaas SdnBhd (728515-M)'])).toBe(true);
    // A first letter read otherwise by two cuts (`Derbang` read from the box as found; `gerbang`, `erbang` taller and shorter).
    const misread = ['Derbang', 'Alaf', 'Restaurants', 'Sdn', 'Bhd'];
    expect(holdsUnderCuts(misread, ['gerbang Alaf Restaurants Sdn Bhd', 'erbang Alaf Restaurants Sdn Bhd', 'Derbang Alaf Restaurants Sdn Bhd'])).toBe(false);
    // A line not read again (none of this reader's) has no cuts, and so nothing to hold with.
    expect(holdsUnderCuts(words, [])).toBe(false);
  });

  it('puts a doubt on the names that do not hold, as the extraction does on its own doubts', () => {
    const e = extraction({ supplier_name: found('GERBANG ALAF', { left: 0, top: 0, width: 1, height: 0.02 }, 96.6) });
    expect(withDoubtedNames(e, []).fields.supplier_name!.confidence).toBe(96.6);
    expect(withDoubtedNames(e, ['supplier_name']).fields.supplier_name!.confidence).toBe(86.9);
    expect(e.fields.supplier_name!.confidence).toBe(96.6);
  });
});

describe("the reader's second look", () => {
  const ocr = new PaddleOcr({ threads: 1 });
  afterAll(() => ocr.close());

  it('reads each of its lines again from three other cuts, and no line it did not read', async () => {
    const img = await decodeRgb(readFileSync(join(import.meta.dirname, '../../fixtures/recognition', RECEIPT_ROTATED.file)), 270);
    const { page } = await ocr.recognize(img);
    const lines = page.lines.slice(0, 4);
    const foreign = { ...lines[0]! };
    const cuts = await ocr.readAgain(img, [...lines, foreign]);
    expect(cuts.slice(0, 4).map((c) => c.length)).toEqual([3, 3, 3, 3]);
    expect(cuts[4]).toEqual([]);
    // A line of clear print reads the same from its other cuts.
    const held = lines.filter((l, k) => holdsUnderCuts(l.words.map((w) => w.text), cuts[k]!));
    expect(held.length).toBeGreaterThanOrEqual(3);
  }, 120_000);
});
