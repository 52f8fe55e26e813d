import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors';
import {
  assertDeletable,
  assertEditable,
  assertRestartable,
  countMove,
  disabledForEditing,
  mergeCountDeltas,
  nextStatus,
  toWorkflowAction,
  type WorkflowAction,
} from '../../../lambdas/core/documents/status-machine';
import type { ReceiptStatus } from '../../../lambdas/core/documents/types';

function refused(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('document status machine', () => {
  it('moves documents along the allowed transitions', () => {
    const allowed: [ReceiptStatus, WorkflowAction, ReceiptStatus][] = [
      ['review', 'archive', 'archive'],
      ['ready', 'archive', 'archive'],
      ['rejected', 'archive', 'archive'],
      ['archive', 'unarchive', 'review'],
      ['archive', 'review', 'review'],
      ['ready', 'review', 'review'],
      ['review', 'review', 'review'],
      ['review', 'ready', 'ready'],
      ['rejected', 'ready', 'ready'],
      ['review', 'reject', 'rejected'],
      ['ready', 'reject', 'rejected'],
    ];
    for (const [from, action, to] of allowed) expect(nextStatus(from, action), `${from} --${action}-->`).toBe(to);
  });

  it('answers 409 for archived, busy, unassigned documents and unknown transitions', () => {
    expect(refused(() => nextStatus('archive', 'reject'))).toMatchObject({ statusCode: 409, message: 'Archived documents are read-only' });
    expect(refused(() => nextStatus('archive', 'ready')).statusCode).toBe(409);
    for (const busy of ['processing', 'converting', 'saving'] as const) {
      expect(refused(() => nextStatus(busy, 'archive'))).toMatchObject({ statusCode: 409, message: 'The document is being processed' });
    }
    expect(refused(() => nextStatus('unassigned', 'review')).message).toBe('Choose a company for this document first');
    expect(refused(() => nextStatus('rejected', 'reject')).statusCode).toBe(409);
    expect(refused(() => nextStatus('review', 'unarchive')).statusCode).toBe(409);
  });

  it('maps the API status values to actions', () => {
    expect(toWorkflowAction('rejected')).toBe('reject');
    expect(toWorkflowAction('reject')).toBe('reject');
    expect(toWorkflowAction('archive')).toBe('archive');
    expect(toWorkflowAction('unarchive')).toBe('unarchive');
  });

  it('keeps archived and busy documents read-only, but deletable when not busy', () => {
    expect(refused(() => assertEditable({ status: 'archive' })).message).toBe('Archived documents are read-only');
    expect(refused(() => assertEditable({ status: 'processing' })).statusCode).toBe(409);
    expect(() => assertEditable({ status: 'review' })).not.toThrow();
    expect(() => assertDeletable({ status: 'archive' })).not.toThrow();
    expect(refused(() => assertDeletable({ status: 'saving' })).statusCode).toBe(409);
    expect(disabledForEditing({ status: 'archive' })).toBe(true);
    expect(disabledForEditing({ status: 'converting' })).toBe(true);
    expect(disabledForEditing({ status: 'ready' })).toBe(false);
  });

  it('never archives a failed document, which was never read', () => {
    expect(refused(() => nextStatus('failed', 'archive')).message).toBe('A document in status failed cannot be moved by archive');
    expect(nextStatus('failed', 'reject')).toBe('rejected');
  });

  it('restarts only failed documents that may be restarted', () => {
    expect(() => assertRestartable({ status: 'failed', can_be_restarted: true })).not.toThrow();
    expect(refused(() => assertRestartable({ status: 'failed', can_be_restarted: false })).message).toBe('This document cannot be restarted');
    expect(refused(() => assertRestartable({ status: 'review', can_be_restarted: true })).statusCode).toBe(409);
  });

  it('moves counts between statuses, types and scopes and merges them', () => {
    const a = { scope: 'C#c1' as const, receipt_type: 'receipt' as const, status: 'review' as const };
    expect(countMove(a, { ...a, status: 'archive' })).toEqual([
      { scope: 'C#c1', receipt_type: 'receipt', status: 'review', delta: -1 },
      { scope: 'C#c1', receipt_type: 'receipt', status: 'archive', delta: 1 },
    ]);
    expect(countMove(a, a)).toEqual([]);
    expect(countMove(null, a)).toEqual([{ ...a, delta: 1 }]);
    expect(countMove(a, { ...a, receipt_type: 'invoice' })).toEqual([
      { ...a, delta: -1 },
      { ...a, receipt_type: 'invoice', delta: 1 },
    ]);
    const merged = mergeCountDeltas([
      { ...a, delta: 1 },
      { ...a, delta: 1 },
      { ...a, status: 'processing', delta: 1 },
      { ...a, status: 'processing', delta: -1 },
    ]);
    expect(merged).toEqual([{ ...a, delta: 2 }]);
  });
});
