/**
 * The document status machine (product.md section 4). Pure: which action is allowed from which
 * status, and how the status counts move.
 */
import { conflict } from '../../../shared/errors';
import type { StatusAction } from '../../../shared/schemas/receipts';
import type { CountDelta, DocumentRecord, ReceiptStatus, ReceiptType, ScopeKey } from './types';

export type WorkflowAction = 'archive' | 'unarchive' | 'review' | 'ready' | 'reject';

/** Statuses in which the system is working on the document: nobody may change it. */
export const BUSY_STATUSES: readonly ReceiptStatus[] = ['processing', 'converting', 'saving'];
/** Statuses whose documents may be started again (Try Again). */
export const RESTARTABLE_STATUSES: readonly ReceiptStatus[] = ['failed', 'error'];

export const MESSAGES = {
  readOnly: 'Archived documents are read-only',
  busy: 'The document is being processed',
  unassigned: 'Choose a company for this document first',
  notRestartable: 'This document cannot be restarted',
  notAllowed: (from: ReceiptStatus, action: WorkflowAction) => `A document in status ${from} cannot be moved by ${action}`,
  stale: 'The document was changed by someone else',
} as const;

const FROM: Record<WorkflowAction, readonly ReceiptStatus[]> = {
  // A failed document was never read: it is tried again, rejected or deleted, never archived as if booked.
  archive: ['review', 'ready', 'rejected', 'error'],
  unarchive: ['archive'],
  review: ['review', 'ready', 'rejected', 'error', 'archive'],
  ready: ['review', 'rejected', 'error'],
  reject: ['review', 'ready', 'error', 'failed'],
};

const TARGET: Record<WorkflowAction, ReceiptStatus> = {
  archive: 'archive',
  unarchive: 'review',
  review: 'review',
  ready: 'ready',
  reject: 'rejected',
};

/** History name of a ready document whose edited content a confirm would no longer take. */
export const BACK_TO_REVIEW = 'Moved to review: a required value is missing or not valid';

/** History names of the actions. */
export const ACTION_NAMES: Record<WorkflowAction, string> = {
  archive: 'Moved to archive',
  unarchive: 'Unarchived',
  review: 'Moved to review',
  ready: 'Marked ready',
  reject: 'Rejected',
};

export function toWorkflowAction(status: StatusAction): WorkflowAction {
  switch (status) {
    case 'rejected':
    case 'reject':
      return 'reject';
    default:
      return status;
  }
}

export const isBusy = (status: ReceiptStatus) => BUSY_STATUSES.includes(status);

/** Read-only documents and documents the system works on show no edit actions. */
export function disabledForEditing(doc: Pick<DocumentRecord, 'status'>): boolean {
  return doc.status === 'archive' || isBusy(doc.status);
}

/** The status an action leads to, or a 409 explaining why not. */
export function nextStatus(from: ReceiptStatus, action: WorkflowAction): ReceiptStatus {
  if (isBusy(from)) throw conflict(MESSAGES.busy);
  if (from === 'unassigned') throw conflict(MESSAGES.unassigned);
  if (from === 'archive' && action !== 'unarchive' && action !== 'review') throw conflict(MESSAGES.readOnly);
  if (!FROM[action].includes(from)) throw conflict(MESSAGES.notAllowed(from, action));
  return TARGET[action];
}

/** Edits other than status changes (flag, type, combine): not on archived or busy documents. */
export function assertEditable(doc: Pick<DocumentRecord, 'status'>): void {
  if (doc.status === 'archive') throw conflict(MESSAGES.readOnly);
  if (isBusy(doc.status)) throw conflict(MESSAGES.busy);
}

export function assertDeletable(doc: Pick<DocumentRecord, 'status'>): void {
  if (isBusy(doc.status)) throw conflict(MESSAGES.busy);
}

export function assertRestartable(doc: Pick<DocumentRecord, 'status' | 'can_be_restarted'>): void {
  if (!doc.can_be_restarted || !RESTARTABLE_STATUSES.includes(doc.status)) throw conflict(MESSAGES.notRestartable);
}

/** The counts change when a document moves from (scope, type, status) to another. */
export function countMove(
  from: { scope: ScopeKey; receipt_type: ReceiptType; status: ReceiptStatus } | null,
  to: { scope: ScopeKey; receipt_type: ReceiptType; status: ReceiptStatus } | null,
): CountDelta[] {
  if (from && to && from.scope === to.scope && from.receipt_type === to.receipt_type && from.status === to.status) return [];
  const out: CountDelta[] = [];
  if (from) out.push({ scope: from.scope, receipt_type: from.receipt_type, status: from.status, delta: -1 });
  if (to) out.push({ scope: to.scope, receipt_type: to.receipt_type, status: to.status, delta: 1 });
  return out;
}

/** Adds deltas of the same count together and drops the ones that cancel out. */
export function mergeCountDeltas(deltas: CountDelta[]): CountDelta[] {
  const byKey = new Map<string, CountDelta>();
  for (const d of deltas) {
    const key = `${d.scope}|${d.receipt_type}|${d.status}`;
    const existing = byKey.get(key);
    if (existing) existing.delta += d.delta;
    else byKey.set(key, { ...d });
  }
  return [...byKey.values()].filter((d) => d.delta !== 0);
}
