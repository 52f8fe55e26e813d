import { describe, expect, it } from 'vitest';
import { selectRange } from '../../../web/src/features/receipts/lib/select-all';
import { receipt } from './receipt-fixture';

describe('a shift-click on a row checkbox', () => {
  // r3 is being processed: it cannot be selected
  const rows = ['r1', 'r2', 'r3', 'r4', 'r5', 'r6'].map((id) => receipt({ receipt_id: id, status: id === 'r3' ? 'processing' : 'review' }));
  const ids = (s: Set<string>) => [...s].sort();

  it('selects every selectable row from the one last clicked to this one, either way up', () => {
    expect(ids(selectRange(rows, new Set(['r1']), 'r1', 'r5', true))).toEqual(['r1', 'r2', 'r4', 'r5']);
    expect(ids(selectRange(rows, new Set(['r5']), 'r5', 'r2', true))).toEqual(['r2', 'r4', 'r5']);
  });

  it('lets the range go when the clicked row is unticked, and keeps what is outside it', () => {
    expect(ids(selectRange(rows, new Set(['r1', 'r2', 'r4', 'r5', 'r6']), 'r2', 'r5', false))).toEqual(['r1', 'r6']);
  });

  it('changes only the clicked row without an anchor in the list', () => {
    expect(ids(selectRange(rows, new Set(), null, 'r4', true))).toEqual(['r4']);
    expect(ids(selectRange(rows, new Set(['r1']), 'gone', 'r4', true))).toEqual(['r1', 'r4']);
  });
});
