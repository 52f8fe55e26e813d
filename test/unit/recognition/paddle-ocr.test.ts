import { describe, expect, it } from 'vitest';
import { blankRuns, inkProfile, lineImage } from '../../../lambdas/adapters/local-recogniser/line-images';
import { ctcDecode, insertSpacesByPitch, lineWords, withoutDoubleReadings, withoutFragments } from '../../../lambdas/adapters/local-recogniser/line-text';
import { loadCharacters } from '../../../lambdas/adapters/local-recogniser/paddle-models';
import { cropRgb, type RgbImage } from '../../../lambdas/adapters/local-recogniser/page-image';
import { boxesFromProbabilityMap } from '../../../lambdas/adapters/local-recogniser/text-detection';
import sharp from 'sharp';

/** A probability map of `w`×`h` with the given rectangles set to `p`. */
function map(w: number, h: number, rects: [number, number, number, number, number][]): Float32Array {
  const m = new Float32Array(w * h);
  for (const [x0, y0, x1, y1, p] of rects) for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) m[y * w + x] = p;
  return m;
}

/** Softmax-like rows for CTC: one class per time step with probability `p`, the rest sharing what is left. */
function ctcRows(classesPerStep: number[], classes: number, p = 0.9): Float32Array {
  const out = new Float32Array(classesPerStep.length * classes).fill((1 - p) / (classes - 1));
  classesPerStep.forEach((c, t) => {
    out[t * classes + c] = p;
  });
  return out;
}

/** A white RGB image with black vertical bars (x ranges) across its full height. */
function barsImage(width: number, height: number, bars: [number, number][]): RgbImage {
  const data = Buffer.alloc(width * height * 3, 255);
  for (const [x0, x1] of bars) for (let y = 2; y < height - 2; y++) for (let x = x0; x < x1; x++) data.fill(0, (y * width + x) * 3, (y * width + x) * 3 + 3);
  return { data, width, height };
}

describe('PaddleOCR dictionary', () => {
  it.each([
    ['a\nb\nc\n', ['', 'a', 'b', 'c', ' ']],
    ['a\r\nb', ['', 'a', 'b', ' ']],
    ['（\n，\n：', ['', '(', ',', ':', ' ']],
    ['。\n、\n中', ['', '.', ',', '中', ' ']],
  ])('%j → blank, characters (full-width forms as ASCII), space', (text, expected) => {
    expect(loadCharacters(text)).toEqual(expected);
  });
});

describe('text-line boxes from the detector map', () => {
  it('finds each connected region above the threshold, grown back to the text size', () => {
    const m = map(100, 40, [
      [10, 10, 60, 14, 0.9],
      [70, 25, 90, 29, 0.8],
    ]);
    const boxes = boxesFromProbabilityMap(m, 100, 40);
    expect(boxes).toHaveLength(2);
    const [a, b] = boxes as [NonNullable<(typeof boxes)[0]>, NonNullable<(typeof boxes)[0]>];
    expect(a.score).toBeCloseTo(0.9, 5);
    // 50×4 region grown by area × 1.5 / perimeter = 50·4·1.5/108 ≈ 2.78 on each side (PaddleOCR's unclip ratio).
    expect(a.x0).toBeCloseTo(10 - 2.778, 2);
    expect(a.x1).toBeCloseTo(60 + 2.778, 2);
    expect(a.y0).toBeCloseTo(10 - 2.778, 2);
    expect(b.x0).toBeLessThan(70);
    expect(b.score).toBeCloseTo(0.8, 5);
  });

  it('measures the slant of a line from its region', () => {
    const w = 200;
    const h = 60;
    const m = new Float32Array(w * h);
    // A band 3 px thick falling 1 px every 10 px (about 5.7°).
    for (let x = 20; x < 180; x++) for (let t = 0; t < 3; t++) m[(20 + Math.floor((x - 20) / 10) + t) * w + x] = 0.9;
    const [box] = boxesFromProbabilityMap(m, w, h);
    expect((box!.angle! * 180) / Math.PI).toBeCloseTo(5.7, 0);
    const [level] = boxesFromProbabilityMap(map(100, 40, [[10, 10, 60, 14, 0.9]]), 100, 40);
    expect(level!.angle).toBeCloseTo(0, 6);
  });

  it.each([
    ['regions under the threshold', [[10, 10, 60, 14, 0.25]]],
    ['regions whose mean score is too low', [[10, 10, 60, 14, 0.4]]],
    ['specks', [[10, 10, 12, 12, 0.9]]],
    ['one-pixel lines', [[10, 10, 60, 11, 0.9]]],
  ] as [string, [number, number, number, number, number][]][])('drops %s', (_, rects) => {
    expect(boxesFromProbabilityMap(map(100, 40, rects), 100, 40)).toEqual([]);
  });
});

describe('CTC decoding', () => {
  const chars = ['', 'A', 'B', '1', ' '];
  it.each([
    ['collapses repeats and drops blanks', [1, 1, 0, 2, 2, 0, 2], 'ABB', [0, 3, 6]],
    ['keeps a letter repeated across a blank', [3, 0, 3], '11', [0, 2]],
    ['reads spaces', [1, 4, 2], 'A B', [0, 1, 2]],
    ['reads nothing from blanks only', [0, 0, 0], '', []],
  ])('%s', (_, steps, text, positions) => {
    const d = ctcDecode(ctcRows(steps, chars.length), 0, steps.length, chars.length, chars);
    expect(d.text).toBe(text);
    expect(d.positions).toEqual(positions);
    expect(d.confidences.every((c) => Math.abs(c - 0.9) < 1e-6)).toBe(true);
  });

  it('takes the likeliest class of every step, the first in the dictionary on a tie, whatever the scan order', () => {
    // A dictionary with non-ASCII characters before and between the ASCII ones (as PaddleOCR's): the decoder
    // looks at ASCII classes first, which must not change the reading.
    const dict = ['', '中', 'A', '文', 'B', 'ü', '1', ' '];
    const steps = 400;
    let seed = 7;
    const random = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    const rows = new Float32Array(steps * dict.length);
    for (let t = 0; t < steps; t++) {
      const row = Array.from({ length: dict.length }, () => random() ** (t % 3 === 0 ? 1 : 6));
      const sum = row.reduce((a, b) => a + b, 0);
      row.forEach((v, c) => (rows[t * dict.length + c] = v / sum));
    }
    let expected = '';
    let prev = -1;
    for (let t = 0; t < steps; t++) {
      let best = 0;
      for (let c = 1; c < dict.length; c++) if (rows[t * dict.length + c]! > rows[t * dict.length + best]!) best = c;
      if (best !== 0 && best !== prev) expected += dict[best];
      prev = best;
    }
    expect(expected).toMatch(/中/);
    expect(ctcDecode(rows, 0, steps, dict.length, dict).text).toBe(expected);
    // A tie under one half between an ASCII letter and an earlier non-ASCII one: the earlier class.
    const tie = new Float32Array([0.1, 0.3, 0, 0, 0.3, 0, 0.3, 0]);
    expect(ctcDecode(tie, 0, 1, dict.length, dict).text).toBe('中');
  });

  it('reads the second line of a batch from its offset', () => {
    const rows = new Float32Array([...ctcRows([1, 0], chars.length), ...ctcRows([2, 3], chars.length)]);
    expect(ctcDecode(rows, 2 * chars.length, 2, chars.length, chars).text).toBe('B1');
  });
});

describe('words of a recognised line', () => {
  const page = { width: 1000, height: 500, number: 2 };
  const box = { x0: 100, y0: 50, x1: 300, y1: 70 };

  it('splits at spaces and places each word by its time steps', () => {
    const words = lineWords({ text: 'TOTAL 9.00', confidences: [0.9, 0.9, 0.9, 0.9, 0.9, 0.5, 0.8, 0.8, 0.8, 0.8], positions: [0, 2, 4, 6, 8, 10, 14, 16, 18, 20] }, box, 8, page);
    expect(words.map((w) => w.text)).toEqual(['TOTAL', '9.00']);
    expect(words[0]!.box.left).toBeCloseTo(0.1, 5); // clamped to the line's start
    expect(words[0]!.box.left + words[0]!.box.width).toBeCloseTo((100 + 9 * 8 + 4) / 1000, 5);
    expect(words[1]!.box.left).toBeCloseTo((100 + 14 * 8 - 4) / 1000, 5);
    expect(words[1]!.box.top).toBeCloseTo(0.1, 5);
    expect(words[1]!.box.height).toBeCloseTo(0.04, 5);
    expect(words[1]!.confidence).toBe(80);
    expect(words.every((w) => w.page === 2)).toBe(true);
  });

  it('gives no word for a line of spaces', () => {
    expect(lineWords({ text: '  ', confidences: [0.9, 0.9], positions: [0, 1] }, box, 8, page)).toEqual([]);
  });
});

/** Blank column runs of a box at least a third of its height wide, in the box's columns. */
const inkGaps = (img: RgbImage, b: { x0: number; y0: number; x1: number; y1: number }) => blankRuns(inkProfile(img, b), Math.max(2, (b.y1 - b.y0) / 3));

describe('blank gaps on the page', () => {
  it('finds blank runs at least a third of the line height wide, not the narrow ones between letters', () => {
    // 30 px high line: letters 10 px wide, 3 px apart; a 15 px gap between the words.
    const img = barsImage(120, 30, [
      [5, 15],
      [18, 28],
      [43, 53],
      [56, 66],
    ]);
    expect(inkGaps(img, { x0: 0, y0: 0, x1: 120, y1: 30 })).toEqual([[28, 43]]);
  });

  it('looks for gaps in the rows of the line only, not in the tops of the line below that the box takes in', () => {
    // A 40 px box: letters in rows 2–27, and under a blank band the tops of the next line across the word gap.
    const width = 120;
    const img: RgbImage = { data: Buffer.alloc(width * 40 * 3, 255), width, height: 40 };
    const ink = (x0: number, x1: number, y0: number, y1: number) => {
      for (let y = y0; y < y1; y++) img.data.fill(0, (y * width + x0) * 3, (y * width + x1) * 3);
    };
    for (const [x0, x1] of [[5, 15], [18, 28], [43, 53], [56, 66]] as const) ink(x0, x1, 2, 28);
    ink(25, 50, 32, 40);
    expect(inkGaps(img, { x0: 0, y0: 0, x1: width, y1: 40 })).toEqual([[28, 43]]);
    // Touching the line (no blank row between), the strokes belong to it and fill the gap.
    ink(25, 50, 28, 32);
    expect(inkGaps(img, { x0: 0, y0: 0, x1: width, y1: 40 })).toEqual([]);
  });

  it('finds nothing in a blank or empty box', () => {
    expect(inkGaps(barsImage(50, 20, []), { x0: 0, y0: 0, x1: 50, y1: 20 })).toEqual([]);
    expect(inkGaps(barsImage(50, 20, []), { x0: 10, y0: 0, x1: 10, y1: 20 })).toEqual([]);
  });

});

/**
 * A line as the recogniser sees it: characters at time steps (two profile columns per step), each inked over
 * `width` columns around its step's centre.
 */
function printed(cells: { ch: string; step: number; width?: number }[]) {
  const columnsPerStep = 2;
  const last = cells[cells.length - 1]!;
  const columns = new Array<number>(Math.ceil((last.step + 4) * columnsPerStep)).fill(0);
  for (const { ch, step, width = 6 } of cells) {
    if (ch === ' ') continue;
    const centre = (step + 0.5) * columnsPerStep;
    for (let x = Math.round(centre - width / 2); x < Math.round(centre + width / 2); x++) columns[x] = 5;
  }
  const decoded = { text: cells.map((c) => c.ch).join(''), confidences: cells.map(() => 0.9), positions: cells.map((c) => c.step) };
  return { decoded, profile: { columns, top: 0, bottom: 20, height: 24 }, columnsPerStep };
}

/** Monospaced print: one character cell is 5 time steps (10 columns); a space leaves a cell empty; punctuation is 2 columns wide, the digit 1 is 4, other characters 6. */
function monospaced(text: string) {
  const cells: { ch: string; step: number; width?: number }[] = [];
  let cell = 0;
  for (const ch of text) {
    if (ch !== ' ') cells.push({ ch, step: cell * 5 + 2, ...(/[.,:]/.test(ch) ? { width: 2 } : ch === '1' ? { width: 4 } : {}) });
    cell++;
  }
  return printed(cells);
}

describe('word spaces from the line\'s character pitch', () => {
  it.each([
    ['a space where monospaced print leaves a cell empty', 'AB 12', 'AB 12'],
    ['none around narrow punctuation in its own cell', 'NO.5.A', 'NO.5.A'],
    ['a space after narrow punctuation followed by an empty cell', 'DATE: 12', 'DATE: 12'],
    ['a space before narrow punctuation printed a cell away', 'DATE : 12', 'DATE : 12'],
    ['none inside a year of narrow ones', '2011 X', '2011 X'],
    ['none after the decimal point of a number, however wide', '75. 70', '75.70'],
  ])('%s', (_, text, expected) => {
    const { decoded, profile, columnsPerStep } = monospaced(text);
    const runTogether = { text: decoded.text, confidences: decoded.confidences, positions: decoded.positions };
    const out = insertSpacesByPitch(runTogether, profile, columnsPerStep);
    expect(out.text).toBe(expected);
    expect(out.positions).toHaveLength([...expected].length);
    expect(out.confidences).toHaveLength([...expected].length);
  });

  it('judges run-together words of tight print by the line\'s own letter gaps', () => {
    // Letters 4 steps apart with 1 blank column between them; the words 6 steps apart with 5 blank columns.
    const cells = [...'THANK'].map((ch, i) => ({ ch, step: i * 4, width: 7 }));
    cells.push(...[...'YOU'].map((ch, i) => ({ ch, step: 22 + i * 4, width: 7 })));
    const { decoded, profile, columnsPerStep } = printed(cells);
    expect(insertSpacesByPitch(decoded, profile, columnsPerStep).text).toBe('THANK YOU');
  });

  it('takes the width of the recogniser\'s own spaces in the line as the measure of a word gap', () => {
    // Proportional print: letters 4 steps apart with 2 blank columns; word gaps of 4 blank columns, one read as a space.
    const word = (text: string, from: number) => [...text].map((ch, i) => ({ ch, step: from + i * 4, width: 6 }));
    const cells = [...word('GOODS', 0), { ch: ' ', step: 19 }, ...word('SOLD', 21), ...word('ARE', 38)];
    const { decoded, profile, columnsPerStep } = printed(cells);
    expect(insertSpacesByPitch(decoded, profile, columnsPerStep).text).toBe('GOODS SOLD ARE');
  });

  it('spaces two letters only where the recogniser thought a space likely', () => {
    // Letters 4 steps apart with 1 blank column between them; the words 6 steps apart with 5 blank columns.
    const cells = [...'THANK'].map((ch, i) => ({ ch, step: i * 4, width: 7 }));
    cells.push(...[...'YOU'].map((ch, i) => ({ ch, step: 22 + i * 4, width: 7 })));
    const { decoded, profile, columnsPerStep } = printed(cells);
    const steps = 40;
    // Nowhere a space: the blank is proportional print's, inside a word.
    const never = new Float32Array(steps).fill(0.001);
    expect(insertSpacesByPitch({ ...decoded, spaceProbs: never }, profile, columnsPerStep).text).toBe('THANKYOU');
    // A space a little likely in the gap between K and Y (steps 16 to 22).
    const between = Float32Array.from(never, (p, t) => (t === 19 ? 0.02 : p));
    expect(insertSpacesByPitch({ ...decoded, spaceProbs: between }, profile, columnsPerStep).text).toBe('THANK YOU');
    // Elsewhere in the line it says nothing of this gap.
    const elsewhere = Float32Array.from(never, (p, t) => (t === 30 ? 0.5 : p));
    expect(insertSpacesByPitch({ ...decoded, spaceProbs: elsewhere }, profile, columnsPerStep).text).toBe('THANKYOU');
  });

  it('does not double a space the recogniser read', () => {
    const { decoded, profile, columnsPerStep } = monospaced('AB 12');
    const withSpace = { text: 'AB 12', confidences: [0.9, 0.9, 0.9, 0.9, 0.9], positions: [2, 7, 12, 17, 22] };
    expect(insertSpacesByPitch(withSpace, profile, columnsPerStep).text).toBe('AB 12');
    expect(decoded.text).toBe('AB12');
  });

  it('spaces large print by its height, where wide letters make the word gap small beside the pitch', () => {
    // Letters 15 steps (30 columns) apart, 26 columns wide; the words 10 blank columns apart in a 24-row line.
    const cells = [...'ABC'].map((ch, i) => ({ ch, step: i * 15, width: 26 }));
    cells.push(...[...'DE'].map((ch, i) => ({ ch, step: 48 + i * 15, width: 26 })));
    const { decoded, profile, columnsPerStep } = printed(cells);
    expect(insertSpacesByPitch(decoded, profile, columnsPerStep).text).toBe('ABC DE');
  });

  it.each([
    ['none where the next letter follows a comma within half a pitch', ',', 3, 'NO.2,JALAN'],
    ['a space where the next letter follows a comma by more than half a pitch', ',', 6, 'NO.2, JALAN'],
    ['the same after a colon', ':', 6, 'NO.2: JALAN'],
  ])('%s', (_, separator, blank, expected) => {
    // Letters 5 steps (10 columns) apart with 4 blank columns between them. The 2 ends at column 34; 3 blank
    // columns, then the separator (2 columns, centred at column 38), then `blank` columns before the J.
    const cells = [...'NO.2'].map((ch, i) => ({ ch, step: i * 5, width: ch === '.' ? 2 : 6 }));
    cells.push({ ch: separator, step: 18.5, width: 2 });
    const jCentre = 39 + blank + 3;
    cells.push(...[...'JALAN'].map((ch, i) => ({ ch, step: (jCentre - 1) / 2 + i * 5, width: 6 })));
    const { decoded, profile, columnsPerStep } = printed(cells);
    expect(insertSpacesByPitch(decoded, profile, columnsPerStep).text).toBe(expected);
  });

  it('leaves a line of one character alone', () => {
    const { decoded, profile, columnsPerStep } = monospaced('A');
    expect(insertSpacesByPitch(decoded, profile, columnsPerStep)).toBe(decoded);
  });
});

describe('line images', () => {
  /** Rows of an RGB image that hold dark pixels. */
  function inkRows(img: RgbImage): number {
    let rows = 0;
    for (let y = 0; y < img.height; y++) {
      let dark = false;
      for (let x = 0; x < img.width && !dark; x++) dark = img.data[(y * img.width + x) * 3]! < 128;
      if (dark) rows++;
    }
    return rows;
  }

  // A page with a black line 6 px thick, 300 px long, falling 30 px over its length (about 5.7°).
  const page: RgbImage = { data: Buffer.alloc(400 * 120 * 3, 255), width: 400, height: 120 };
  for (let x = 50; x < 350; x++) {
    const y0 = 40 + Math.round(((x - 50) * 30) / 300);
    for (let y = y0; y < y0 + 6; y++) page.data.fill(0, (y * 400 + x) * 3, (y * 400 + x) * 3 + 3);
  }
  const box = { x0: 45, y0: 35, x1: 355, y1: 81, score: 0.9 };

  it('cuts a level line as it is', async () => {
    const img = await lineImage(page, { ...box, angle: 0 });
    expect([img.width, img.height]).toEqual([310, 46]);
    expect(inkRows(img)).toBeGreaterThanOrEqual(36);
  });

  it('turns a slanting line level and cuts the band it fills', async () => {
    const img = await lineImage(page, { ...box, angle: Math.atan2(30, 300) });
    expect(img.width).toBeGreaterThan(280);
    expect(img.height).toBeLessThan(30);
    // The straightened line covers few rows (6 px plus the resampling's blur), not the 36 it slanted over.
    expect(inkRows(img)).toBeLessThanOrEqual(12);
  });
});

describe('cutting a level line from the page', () => {
  it('copies the same pixels as an extract by sharp', async () => {
    const page: RgbImage = { data: Buffer.alloc(40 * 30 * 3), width: 40, height: 30 };
    for (let i = 0; i < page.data.length; i++) page.data[i] = (i * 7) % 251;
    const crop = cropRgb(page, 5, 7, 20, 9);
    const bySharp = await sharp(page.data, { raw: { width: 40, height: 30, channels: 3 } }).extract({ left: 5, top: 7, width: 20, height: 9 }).raw().toBuffer();
    expect(crop.width).toBe(20);
    expect(crop.height).toBe(9);
    expect(Buffer.compare(crop.data, bySharp)).toBe(0);
    // A level box goes through the same copy.
    const band = await lineImage(page, { x0: 5, y0: 7, x1: 25, y1: 16, score: 1, angle: 0 });
    expect(Buffer.compare(band.data, bySharp)).toBe(0);
  });
});

describe('fragments the detector found twice', () => {
  const line = (text: string, left: number, top: number, width: number, height: number) => ({
    text,
    words: [],
    box: { left, top, width, height },
    confidence: 90,
    page: 1,
  });

  it('drops a one- or two-character line lying inside a larger line, and keeps the rest', () => {
    const name = line('SDN BHD', 0.6, 0.086, 0.25, 0.022);
    const sliver = line('1', 0.7, 0.09, 0.055, 0.014);
    const alone = line('1', 0.1, 0.3, 0.02, 0.014); // a quantity of its own
    const word = line('RM', 0.62, 0.088, 0.05, 0.015); // two characters inside: a sliver too
    const long = line('TOTAL', 0.62, 0.088, 0.05, 0.015);
    expect(withoutFragments([name, sliver, alone, long])).toEqual([name, alone, long]);
    expect(withoutFragments([name, word])).toEqual([name]);
    // Half inside is not inside.
    const edge = line('1', 0.84, 0.09, 0.05, 0.014);
    expect(withoutFragments([name, edge])).toEqual([name, edge]);
  });
});

describe('characters two pieces of one printed line both read', () => {
  const CHAR = 0.01; // a character's width (page fractions)
  /** A line on row `top` of words, each starting `startChar` character widths from the page's left edge. */
  const line = (top: number, ...words: [text: string, startChar: number][]) => {
    const ws = words.map(([text, start]) => ({
      text,
      box: { left: start * CHAR, top, width: text.length * CHAR, height: 0.02 },
      confidence: 95,
      page: 1,
    }));
    return { text: ws.map((w) => w.text).join(' '), words: ws, box: { left: ws[0]!.box.left, top, width: 0.5, height: 0.02 }, confidence: 95, page: 1 };
  };
  const texts = (lines: ReturnType<typeof withoutDoubleReadings>) => lines.map((l) => l.text);

  it('reads a word the overlap holds once, in the longer word', () => {
    // `PERNIAGAAN RIANG` and `G RIA`: the second piece's G is the G of RIANG.
    const first = line(0.1, ['PERNIAGAAN', 0], ['RIANG', 11]);
    const second = line(0.1, ['G', 15], ['RIA', 17]);
    expect(texts(withoutDoubleReadings([first, second]))).toEqual(['PERNIAGAAN RIANG', 'RIA']);
    // `Print Time : S` and `Saturday`.
    expect(texts(withoutDoubleReadings([line(0.2, ['Print', 0], ['Time', 6], [':', 11], ['S', 13]), line(0.2, ['Saturday', 13])]))).toEqual([
      'Print Time :',
      'Saturday',
    ]);
  });

  it('joins an amount read in two overlapping pieces', () => {
    const [a, b] = withoutDoubleReadings([line(0.3, ['15.', 40]), line(0.3, ['.00', 42])]);
    expect(a!.text).toBe('15.00');
    expect(a!.words[0]!.box.left).toBeCloseTo(0.4, 9);
    expect(a!.words[0]!.box.width).toBeCloseTo(5 * CHAR, 9);
    expect(b!.words).toEqual([]);
    // Two characters read twice: `20.` and `0.00`.
    expect(texts(withoutDoubleReadings([line(0.3, ['20.', 40]), line(0.3, ['0.00', 41])])).filter(Boolean)).toEqual(['20.00']);
  });

  it('leaves lines alone that only touch, read other characters there, or lie on other rows', () => {
    const lines = [line(0.4, ['TOTAL', 0]), line(0.4, ['LOT', 5])]; // no overlap
    expect(withoutDoubleReadings(lines)).toEqual(lines);
    const other = [line(0.5, ['TOTAL', 0]), line(0.5, ['RM', 4])]; // overlapping, other characters
    expect(withoutDoubleReadings(other)).toEqual(other);
    const rows = [line(0.6, ['RIANG', 0]), line(0.615, ['G', 4])]; // three quarters of a line's height apart
    expect(withoutDoubleReadings(rows)).toEqual(rows);
  });
});
