import { describe, expect, it } from 'vitest';
import { resultBeforeTurns } from '../../../lambdas/core/recognition/expense';
import { boxBefore, pointBeforeLevelling, type Levelling } from '../../../lambdas/core/recognition/geometry';
import { rotatedRgb } from '../../../lambdas/adapters/local-recogniser/page-image';
import { pointBeforeTurn, type QuarterTurn } from '../../../shared/page-turns';
import type { AnalyzeExpenseResult } from '../../../lambdas/core/recognition/types';

describe('boxes of a page read after turning it', () => {
  // The upright page's top-left corner, and where it lies on the page as stored.
  it.each([
    [0, { x: 0.1, y: 0.2 }],
    [90, { x: 0.2, y: 0.9 }],
    [180, { x: 0.9, y: 0.8 }],
    [270, { x: 0.8, y: 0.1 }],
  ] as [QuarterTurn, { x: number; y: number }][])('turned %i°: (0.1, 0.2) upright is %j stored', (turn, expected) => {
    const p = pointBeforeTurn(0.1, 0.2, turn);
    expect(p.x).toBeCloseTo(expected.x, 9);
    expect(p.y).toBeCloseTo(expected.y, 9);
  });

  it.each([
    [0, { left: 0.1, top: 0.2, width: 0.3, height: 0.05 }],
    [90, { left: 0.2, top: 0.6, width: 0.05, height: 0.3 }],
    [180, { left: 0.6, top: 0.75, width: 0.3, height: 0.05 }],
    [270, { left: 0.75, top: 0.1, width: 0.05, height: 0.3 }],
  ] as [QuarterTurn, object][])('turned %i°: a wide box upright is %j stored', (turn, expected) => {
    expect(boxBefore({ left: 0.1, top: 0.2, width: 0.3, height: 0.05 }, { turn })).toEqual(expected);
  });

  it('puts back the geometry of the turned pages only, by the page each field or block names', () => {
    const geometry = (left: number, top: number) => ({
      BoundingBox: { Left: left, Top: top, Width: 0.3, Height: 0.05 },
      Polygon: [{ X: left, Y: top }],
    });
    const result: AnalyzeExpenseResult = {
      DocumentMetadata: { Pages: 2 },
      ExpenseDocuments: [
        {
          SummaryFields: [
            { Type: { Text: 'TOTAL' }, PageNumber: 2, ValueDetection: { Text: '9.00', Geometry: geometry(0.1, 0.2) } },
            { Type: { Text: 'VENDOR_NAME' }, PageNumber: 1, ValueDetection: { Text: 'A', Geometry: geometry(0.1, 0.2) } },
          ],
          Blocks: [{ BlockType: 'WORD', Page: 2, Text: '9.00', Geometry: geometry(0.1, 0.2) }],
        },
      ],
    };
    const out = resultBeforeTurns(result, new Map([[2, { turn: 90 }]]));
    const doc = out.ExpenseDocuments![0]!;
    expect(doc.SummaryFields![0]!.ValueDetection!.Geometry).toEqual({
      BoundingBox: { Left: 0.2, Top: 0.6, Width: 0.05, Height: 0.3 },
      Polygon: [{ X: 0.2, Y: 0.9 }],
    });
    expect(doc.SummaryFields![1]!.ValueDetection!.Geometry).toEqual(geometry(0.1, 0.2));
    expect(doc.Blocks![0]!.Geometry!.BoundingBox).toEqual({ Left: 0.2, Top: 0.6, Width: 0.05, Height: 0.3 });
    expect(resultBeforeTurns(result, new Map([[1, { turn: 0 }]]))).toBe(result);
    // The input is left as it was.
    expect(result.ExpenseDocuments![0]!.Blocks![0]!.Geometry).toEqual(geometry(0.1, 0.2));
  });
});

describe('boxes of a page read after levelling its slanting print', () => {
  /** A white page with one black square of 5 pixels at (x, y), and the square's centre on the page turned clockwise by `degrees`. */
  async function squareAfterTurn(width: number, height: number, x: number, y: number, degrees: number) {
    const data = Buffer.alloc(width * height * 3, 255);
    for (let j = y - 2; j <= y + 2; j++) for (let i = x - 2; i <= x + 2; i++) data.fill(0, (j * width + i) * 3, (j * width + i) * 3 + 3);
    const turned = await rotatedRgb({ data, width, height }, degrees);
    let sx = 0;
    let sy = 0;
    let n = 0;
    for (let j = 0; j < turned.height; j++) {
      for (let i = 0; i < turned.width; i++) {
        if (turned.data[(j * turned.width + i) * 3]! < 128) {
          sx += i + 0.5;
          sy += j + 0.5;
          n++;
        }
      }
    }
    return { turned, at: { x: sx / n, y: sy / n } };
  }

  it.each([3, -3, 1.2, -8])('puts a point of the page turned %f° back where it was', async (degrees) => {
    const [width, height, x, y] = [300, 500, 240, 60];
    const { turned, at } = await squareAfterTurn(width, height, x, y, degrees);
    const level: Levelling = { radians: (degrees * Math.PI) / 180, width, height, readWidth: turned.width, readHeight: turned.height };
    const back = pointBeforeLevelling(at.x / turned.width, at.y / turned.height, level);
    expect(back.x * width).toBeCloseTo(x + 0.5, 0);
    expect(back.y * height).toBeCloseTo(y + 0.5, 0);
  });

  it('boxes a levelled line on the stored page by its four corners, inside the page', () => {
    const level: Levelling = { radians: (3 * Math.PI) / 180, width: 1000, height: 2000, readWidth: 1103, readHeight: 2050 };
    const box = boxBefore({ left: 0.1, top: 0.1, width: 0.8, height: 0.02 }, { turn: 0, level });
    // A level line 882 px long, turned back by 3°, spans 882·sin 3° ≈ 46 px more in height.
    expect(box.height * 2000).toBeGreaterThan(0.02 * 2050 + 40);
    expect(box.width * 1000).toBeGreaterThan(0.8 * 1103 * Math.cos((3 * Math.PI) / 180) - 1);
    const edge = boxBefore({ left: 0, top: 0, width: 1, height: 1 }, { turn: 0, level });
    expect(edge).toEqual({ left: 0, top: 0, width: 1, height: 1 });
  });

  it('puts back fields of a levelled page, then its quarter turn', () => {
    const level: Levelling = { radians: 0.05, width: 400, height: 600, readWidth: 429, readHeight: 619 };
    const result: AnalyzeExpenseResult = {
      DocumentMetadata: { Pages: 1 },
      ExpenseDocuments: [
        {
          SummaryFields: [
            {
              Type: { Text: 'TOTAL' },
              ValueDetection: { Text: '9.00', Geometry: { BoundingBox: { Left: 0.6, Top: 0.3, Width: 0, Height: 0 }, Polygon: [{ X: 0.6, Y: 0.3 }] } },
            },
          ],
        },
      ],
    };
    // The levelling is undone first, on the page as read upright; then the quarter turn.
    const levelled = resultBeforeTurns(result, new Map([[1, { turn: 0, level }]]));
    const upright = pointBeforeLevelling(0.6, 0.3, level);
    expect(levelled.ExpenseDocuments![0]!.SummaryFields![0]!.ValueDetection!.Geometry!.Polygon).toEqual([{ X: upright.x, Y: upright.y }]);
    const both = resultBeforeTurns(result, new Map([[1, { turn: 90, level }]]));
    const stored = pointBeforeTurn(upright.x, upright.y, 90);
    expect(both.ExpenseDocuments![0]!.SummaryFields![0]!.ValueDetection!.Geometry!.Polygon).toEqual([{ X: stored.x, Y: stored.y }]);
    expect(upright.x).not.toBeCloseTo(0.6, 2);
  });
});
