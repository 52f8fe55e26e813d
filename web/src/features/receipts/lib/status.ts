import { LIST_STATUSES, RECEIPT_STATUSES, STATUS_TITLES, statusColour, type ListStatus, type ReceiptStatus } from '../../../../../shared/status';
import { MENU_STATUS_LABELS } from '../../../lib/badge';

export function isListStatus(value: string | undefined): value is ListStatus {
  return typeof value === 'string' && (LIST_STATUSES as ReadonlyArray<string>).includes(value);
}

export function isReceiptStatus(value: unknown): value is ReceiptStatus {
  return typeof value === 'string' && (RECEIPT_STATUSES as ReadonlyArray<string>).includes(value);
}

/** The page title of /receipts/{status}: inbox → 'Inbox', review → 'To Review', … */
export function listTitle(status: ListStatus): string {
  return MENU_STATUS_LABELS[status];
}

/** Row status label and colour (ready green; review and error red; all others orange). */
export function statusLabel(status: string): { text: string; tone: 'green' | 'red' | 'orange' } {
  if (!isReceiptStatus(status)) return { text: status, tone: 'orange' };
  return { text: STATUS_TITLES[status], tone: statusColour(status) };
}
