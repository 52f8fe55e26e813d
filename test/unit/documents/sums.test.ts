import { describe, expect, it } from 'vitest';
import { countMove } from '../../../lambdas/core/documents/status-machine';
import { sumMoves, totalCents } from '../../../lambdas/core/documents/sums';
import { emptyChange, type DocumentRecord } from '../../../lambdas/core/documents/types';
import { seededDocument } from '../../support/document-records';

const doc = (id: string, over: Partial<DocumentRecord> = {}) =>
  seededDocument({ receipt_id: id, scope: 'C#a', created_at: '2026-11-01T00:00:00.000Z', status: 'review', ...over });

describe('sums of document totals', () => {
  it('reads a total as cents, and anything that is not a valid amount as 0', () => {
    expect(totalCents('260.25')).toBe(26025);
    expect(totalCents('9')).toBe(900);
    expect(totalCents('0.5')).toBe(50);
    expect(totalCents('-12.30')).toBe(-1230);
    expect(totalCents(' 1.10 ')).toBe(110);
    expect(totalCents('999999999999.99')).toBe(99999999999999);
    for (const bad of [null, undefined, '', '12,50', 'abc', '1.234', '1e5', '9999999999999.00']) expect(totalCents(bad), String(bad)).toBe(0);
  });

  it('moves with the documents: created in, edited by the difference, moved between scopes and types, deleted out', () => {
    const created = emptyChange();
    created.puts.push(doc('A', { total: '10.00' }), doc('B', { total: '2.50', receipt_type: 'invoice' }), doc('C', { total: null }));
    created.counts.push(...created.puts.flatMap((d) => countMove(null, d)));
    expect(sumMoves(created)).toEqual([
      { scope: 'C#a', receipt_type: 'receipt', cents: 1000 },
      { scope: 'C#a', receipt_type: 'invoice', cents: 250 },
    ]);

    const edited = emptyChange();
    edited.updates.push({ before: doc('A', { total: '10.00' }), after: doc('A', { total: '12.34' }) });
    expect(sumMoves(edited)).toEqual([{ scope: 'C#a', receipt_type: 'receipt', cents: 234 }]);
    const untouched = emptyChange();
    untouched.updates.push({ before: doc('A', { total: '10.00' }), after: doc('A', { total: '10.00', status: 'ready' }) });
    expect(sumMoves(untouched)).toEqual([]);

    // Given a company: out of the user's unassigned scope, into the company's, converted: out of one type into the other.
    const moved = emptyChange();
    const loose = doc('L', { scope: 'U#u1', company_id: null, status: 'unassigned', total: '5.00' });
    const placed = doc('M', { total: '5.00' });
    moved.deletes.push(loose);
    moved.puts.push(placed);
    moved.counts.push(...countMove(loose, null), ...countMove(null, placed));
    expect(sumMoves(moved)).toEqual([
      { scope: 'C#a', receipt_type: 'receipt', cents: 500 },
      { scope: 'U#u1', receipt_type: 'receipt', cents: -500 },
    ]);
    const converted = emptyChange();
    converted.updates.push({ before: doc('A', { total: '1.00' }), after: doc('A', { total: '1.00', receipt_type: 'invoice' }) });
    expect(sumMoves(converted)).toEqual([
      { scope: 'C#a', receipt_type: 'receipt', cents: -100 },
      { scope: 'C#a', receipt_type: 'invoice', cents: 100 },
    ]);

    const deleted = emptyChange();
    deleted.deletes.push(doc('A', { total: '12.34' }));
    deleted.counts.push(...countMove(deleted.deletes[0]!, null));
    expect(sumMoves(deleted)).toEqual([{ scope: 'C#a', receipt_type: 'receipt', cents: -1234 }]);
    // The purge deletes a deleted company's documents without counts: their sums go with the company's partition.
    const purged = emptyChange();
    purged.deletes.push(doc('A', { total: '12.34' }));
    expect(sumMoves(purged)).toEqual([]);
  });
});
