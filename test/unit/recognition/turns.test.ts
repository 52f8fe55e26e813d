import { describe, expect, it } from 'vitest';
import { resultBeforeTurns } from '../../../lambdas/core/recognition/expense';
import { boxBeforeTurn } from '../../../lambdas/core/recognition/geometry';
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
    expect(boxBeforeTurn({ left: 0.1, top: 0.2, width: 0.3, height: 0.05 }, turn)).toEqual(expected);
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
    const out = resultBeforeTurns(result, new Map([[2, 90]]));
    const doc = out.ExpenseDocuments![0]!;
    expect(doc.SummaryFields![0]!.ValueDetection!.Geometry).toEqual({
      BoundingBox: { Left: 0.2, Top: 0.6, Width: 0.05, Height: 0.3 },
      Polygon: [{ X: 0.2, Y: 0.9 }],
    });
    expect(doc.SummaryFields![1]!.ValueDetection!.Geometry).toEqual(geometry(0.1, 0.2));
    expect(doc.Blocks![0]!.Geometry!.BoundingBox).toEqual({ Left: 0.2, Top: 0.6, Width: 0.05, Height: 0.3 });
    expect(resultBeforeTurns(result, new Map([[1, 0]]))).toBe(result);
    // The input is left as it was.
    expect(result.ExpenseDocuments![0]!.Blocks![0]!.Geometry).toEqual(geometry(0.1, 0.2));
  });
});
