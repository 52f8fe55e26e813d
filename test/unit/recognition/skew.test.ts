import { describe, expect, it } from 'vitest';
import { lineWords } from '../../../lambdas/adapters/local-recogniser/line-text';
import { estimateSlope, pageRows, slopeAlongPage } from '../../../lambdas/core/recognition/geometry';
import type { OcrLine } from '../../../lambdas/core/recognition/types';

const page = { width: 1000, height: 1000, number: 1 };
const slope = 0.08;
const thickness = 16;

/** A line read from a slanting box: its text centred on y = y + slope·x, `thickness` px high. */
function slantedLine(text: string, x0: number, x1: number, y: number, slope = 0.08): OcrLine {
  const ya = y + slope * x0;
  const yb = y + slope * x1;
  const box = { x0, y0: Math.min(ya, yb) - thickness / 2, x1, y1: Math.max(ya, yb) + thickness / 2, angle: Math.atan(slope) };
  const chars = [...text];
  const stepWidth = (x1 - x0) / chars.length;
  const words = lineWords({ text, confidences: chars.map(() => 0.95), positions: chars.map((_, i) => i) }, box, stepWidth, page);
  const top = Math.min(...words.map((w) => w.box.top));
  const bottom = Math.max(...words.map((w) => w.box.top + w.box.height));
  return { text, words, box: { left: x0 / 1000, top, width: (x1 - x0) / 1000, height: bottom - top }, confidence: 95, page: 1 };
}

describe('a page photographed askew', () => {
  it("places each word of a slanting line on the line's slant", () => {
    const line = slantedLine('SUB TOTAL RM', 100, 500, 100);
    const [first, , last] = line.words;
    const centre = (b: { top: number; height: number }) => (b.top + b.height / 2) * 1000;
    expect(centre(last!.box) - centre(first!.box)).toBeGreaterThan(20);
    // A word's box is its own stretch of the line, not the height of the whole slanting box.
    expect(first!.box.height * 1000).toBeLessThan(thickness + 12);
    // A level line keeps its box's height.
    const level = lineWords({ text: 'AB CD', confidences: [0.9, 0.9, 0.9, 0.9, 0.9], positions: [0, 1, 2, 3, 4] }, { x0: 100, y0: 50, x1: 200, y1: 70, angle: 0 }, 20, page);
    expect(level.every((w) => w.box.top === 0.05 && Math.abs(w.box.height - 0.02) < 1e-9)).toBe(true);
  });

  it('puts each amount on the row of its label', () => {
    const labels = ['SUB TOTAL', 'GST 6 %', 'ROUNDING ADJ', 'TOTAL RM', 'CASH RM', 'CHANGE RM'];
    const amounts = ['93.40', '5.60', '0.00', '99.00', '100.00', '1.00'];
    // The rows stand 40 px apart; over the 500 px between a label and its amount the slant drops 40 px.
    const lines = labels.flatMap((label, k) => [slantedLine(label, 100, 400, 100 + 40 * k), slantedLine(amounts[k]!, 800, 900, 100 + 40 * k)]);
    const p = { page: 1, width: 1000, height: 1000, lines };
    expect(estimateSlope(lines)).toBeCloseTo(slope, 2);
    expect(pageRows(p).map((r) => r.text)).toEqual(labels.map((l, k) => `${l} ${amounts[k]}`));
  });

  it('puts each amount on the row of its label where the rows converge (a page photographed at an angle)', () => {
    // The page's left edge tilted away from the camera: the rows slant down at the top, level in the middle and up
    // at the bottom, so that the page's median slope (about 0) would put a top row's amount a row below its label.
    const rows = Array.from({ length: 20 }, (_, k) => ({ y: 60 + 40 * k, s: 0.06 * (1 - (2 * k) / 19), label: `ITEM ${k + 1}`, amount: `${k + 1}.50` }));
    const lines = rows.flatMap((r) => [slantedLine(r.label, 100, 500, r.y, r.s), slantedLine(r.amount, 800, 900, r.y, r.s)]);
    const p = { page: 1, width: 1000, height: 1000, lines };
    expect(Math.abs(estimateSlope(lines))).toBeLessThan(0.01);
    expect(pageRows(p).map((r) => r.text)).toEqual(rows.map((r) => `${r.label} ${r.amount}`));
  });

  it("gives a flat page's slope all along it", () => {
    // A scan whose lines slant alike but for the reading's own spread.
    const lines = Array.from({ length: 12 }, (_, k) => slantedLine(`ITEM ${k + 1}`, 100, 500, 60 + 40 * k, 0.02 + ((k % 3) - 1) * 0.003));
    const along = slopeAlongPage(lines);
    const page = estimateSlope(lines);
    expect(page).toBeCloseTo(0.02, 3);
    expect(lines.every((l) => Math.abs(along(l.box.top + l.box.height / 2) - page) <= 0.003 + 1e-9)).toBe(true);
  });

  it("takes the page's slope where too few lines lie near", () => {
    const lines = [0, 1, 2, 12, 13, 14].map((k) => slantedLine(`ITEM ${k + 1}`, 100, 500, 60 + 40 * k, k < 10 ? 0.03 : 0.01));
    expect(slopeAlongPage(lines)(0.1)).toBe(estimateSlope(lines));
  });
});
