import { describe, expect, it } from 'vitest';
import { GRID_LIMITS, GRID_TOO_LARGE, applyGridSchema } from '../../../shared/schemas/content';

function grid(parts: number, rows: number, columns: number) {
  return {
    version: 1,
    parts: Array.from({ length: parts }, (_, p) => ({
      page: p + 1,
      box: { left: 0.1, top: 0.1, width: 0.8, height: 0.8 },
      rows: Array.from({ length: rows }, (_, i) => ({ top_position: (i + 1) / (rows + 2) })),
      columns: Array.from({ length: columns }, (_, i) => ({ schema_id: 'description', left_position: (i + 1) / (columns + 2) })),
    })),
  };
}

describe('grid size bound (a grid must fit in a supplier template item)', () => {
  it('refuses the largest grid the per-part limits allow (50 parts × 500 rows × 50 columns) with a clear message', () => {
    const result = applyGridSchema.safeParse(grid(50, 500, 50));
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toContain(GRID_TOO_LARGE);
  });

  it('accepts a grid at the bound, and it serialises well under DynamoDB’s 400 KB item limit', () => {
    const atBound = grid(4, GRID_LIMITS.rows / 4, GRID_LIMITS.columns / 4);
    const result = applyGridSchema.safeParse(atBound);
    expect(result.success).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(result.data!.parts))).toBeLessThan(200_000);
  });
});
