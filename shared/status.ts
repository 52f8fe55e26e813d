/** Receipt statuses, their titles and colours (product.md section 4). */
export const RECEIPT_STATUSES = [
  'processing',
  'archive',
  'error',
  'review',
  'ready',
  'unassigned',
  'converting',
  'rejected',
  'saving',
  'failed',
] as const;
export type ReceiptStatus = (typeof RECEIPT_STATUSES)[number];

export const STATUS_TITLES: Record<ReceiptStatus, string> = {
  review: 'To Review',
  processing: 'In Processing',
  converting: 'Converting',
  ready: 'Ready',
  archive: 'Archive',
  error: 'Error',
  unassigned: 'Unassigned',
  rejected: 'Rejected',
  saving: 'Saving',
  failed: 'Failed',
};

export function statusColour(status: ReceiptStatus): 'green' | 'red' | 'orange' {
  if (status === 'ready') return 'green';
  if (status === 'review' || status === 'error') return 'red';
  return 'orange';
}

/** List routes: /receipts/{status}; inbox means no status filter (any status except unassigned). */
export const LIST_STATUSES = ['inbox', 'processing', 'review', 'ready', 'archive', 'unassigned', 'rejected', 'saving', 'failed'] as const;
export type ListStatus = (typeof LIST_STATUSES)[number];
