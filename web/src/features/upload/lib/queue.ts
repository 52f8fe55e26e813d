import { STATUS_TITLES, type ListStatus, type ReceiptStatus } from '../../../../../shared/status';
import { uploadErrorMessage, validateUploadFile, type FileLike, type UploadMode } from './validate';

export type UploadItemState = 'waiting' | 'uploading' | 'done' | 'failed';

export interface UploadItem {
  id: string;
  name: string;
  size: number;
  state: UploadItemState;
  /** 0..100 */
  progress: number;
  /** The failure card's message. */
  message?: string;
  /** A failed file that may upload when tried again (its File is kept): the card offers Try again. */
  retry?: boolean;
  /** It failed because the session ended: it is kept for after the user signs in again (lib/kept-uploads.ts). */
  sessionEnded?: boolean;
  /** GET /upload/document's upload_id: the documents made from this file carry it. */
  uploadId?: string;
  /** The documents made from the file, as live events report them (processing, then review/ready or failed). */
  documents?: Record<string, { status: ReceiptStatus; error?: string }>;
}

/** A document event's fields the cards read. */
export interface DocumentReport {
  receipt_id: string;
  upload_id?: string | null;
  status: ReceiptStatus;
  error?: { message?: string | null } | null;
}

export type QueueAction =
  | { type: 'add'; items: UploadItem[] }
  | { type: 'start'; id: string }
  | { type: 'progress'; id: string; progress: number }
  | { type: 'done'; id: string; uploadId?: string }
  | { type: 'document'; report: DocumentReport }
  | { type: 'failed'; id: string; message: string; retry?: boolean; sessionEnded?: boolean }
  | { type: 'retry'; ids: ReadonlyArray<string> }
  | { type: 'clear' };

/** New queue items for chosen files: those failing the client-side checks are failed at once with the card's text. */
export function itemsForFiles(files: ReadonlyArray<FileLike>, mode: UploadMode, newId: () => string): UploadItem[] {
  return files.map((f) => {
    const error = validateUploadFile(f, mode);
    return {
      id: newId(),
      name: f.name,
      size: f.size,
      state: error ? 'failed' : 'waiting',
      progress: 0,
      ...(error ? { message: error } : {}),
    };
  });
}

export function queueReducer(items: UploadItem[], action: QueueAction): UploadItem[] {
  const patch = (id: string, change: Partial<UploadItem>) => items.map((i) => (i.id === id ? { ...i, ...change } : i));
  switch (action.type) {
    case 'add':
      return [...items, ...action.items];
    case 'start':
      return patch(action.id, { state: 'uploading', progress: 0 });
    case 'progress':
      return patch(action.id, { progress: Math.max(0, Math.min(100, action.progress)) });
    case 'done':
      return patch(action.id, { state: 'done', progress: 100, message: undefined, uploadId: action.uploadId });
    case 'document': {
      const r = action.report;
      if (!r.upload_id || !items.some((i) => i.uploadId === r.upload_id)) return items;
      return items.map((i) =>
        i.uploadId === r.upload_id
          ? {
              ...i,
              documents: {
                ...i.documents,
                [r.receipt_id]: { status: r.status, ...(r.error?.message ? { error: r.error.message } : {}) },
              },
            }
          : i,
      );
    }
    case 'failed':
      return patch(action.id, { state: 'failed', message: action.message, retry: action.retry || undefined, sessionEnded: action.sessionEnded || undefined });
    case 'retry':
      // the same card goes back to the queue: a new signed URL and a new PUT; the header counts it as a file again
      return items.map((i) =>
        action.ids.includes(i.id) && i.state === 'failed' && i.retry
          ? { ...i, state: 'waiting', progress: 0, message: undefined, retry: undefined, sessionEnded: undefined }
          : i,
      );
    case 'clear':
      return items.filter((i) => i.state === 'waiting' || i.state === 'uploading');
    default:
      return items;
  }
}

/** The failed cards that offer Try again. */
export function retryableIds(items: ReadonlyArray<UploadItem>): string[] {
  return items.filter((i) => i.state === 'failed' && i.retry).map((i) => i.id);
}

/**
 * What must outlive the pop-up when the session has ended (RECONNECT signs out and leaves the list): the files
 * that failed but may upload when tried again, and those still waiting or on their way (leaving the pop-up stops
 * them). Nothing while the session lasts: the pop-up then goes only when the user closes it.
 */
export function itemsToKeep(items: ReadonlyArray<UploadItem>, sessionEnded: boolean): UploadItem[] {
  const ended = sessionEnded || items.some((i) => i.state === 'failed' && i.sessionEnded);
  if (!ended) return [];
  return items.filter((i) => (i.state === 'failed' && i.retry) || i.state === 'waiting' || i.state === 'uploading');
}

const FAILED_STATUSES: ReadonlyArray<ReceiptStatus> = ['failed', 'error'];

/**
 * What a successfully uploaded file has become: 'Uploaded · processing' until the first event, then the
 * documents' statuses ('To Review', '3 documents: 2 To Review, 1 In Processing'); `failed` when every
 * document of the file failed processing, with the first reason (a 'too low' resolution says so).
 */
export function processingText(item: Pick<UploadItem, 'documents'>): { text: string; failed: boolean; error?: string } {
  const docs = Object.values(item.documents ?? {});
  if (docs.length === 0) return { text: 'Uploaded · processing', failed: false };
  const counts = new Map<ReceiptStatus, number>();
  for (const d of docs) counts.set(d.status, (counts.get(d.status) ?? 0) + 1);
  const parts = [...counts.entries()].map(([status, n]) => (docs.length === 1 ? STATUS_TITLES[status] : `${n} ${STATUS_TITLES[status]}`));
  const text = docs.length === 1 ? parts[0]! : `${docs.length} documents: ${parts.join(', ')}`;
  const failedDocs = docs.filter((d) => FAILED_STATUSES.includes(d.status));
  const firstError = failedDocs.find((d) => d.error)?.error;
  return {
    text,
    failed: failedDocs.length === docs.length,
    ...(failedDocs.length > 0 ? { error: uploadErrorMessage({ message: firstError }) } : {}),
  };
}

export interface QueueSummary {
  total: number;
  failures: number;
  successes: number;
  active: number;
  /** Every item has its card (nothing waiting or uploading). Failures count upload failures and files whose documents all failed. */
  finished: boolean;
}

export function queueSummary(items: ReadonlyArray<UploadItem>): QueueSummary {
  const uploadFailures = items.filter((i) => i.state === 'failed').length;
  const processingFailures = items.filter((i) => i.state === 'done' && processingText(i).failed).length;
  const successes = items.filter((i) => i.state === 'done').length - processingFailures;
  const failures = uploadFailures + processingFailures;
  const active = items.length - uploadFailures - successes - processingFailures;
  return { total: items.length, failures, successes, active, finished: items.length > 0 && active === 0 };
}

/** The statuses an uploaded file's documents reach by themselves, each its own list. */
const REACHED_LISTS: ReadonlyArray<ListStatus> = ['processing', 'review', 'ready', 'failed'];

/**
 * The list that shows the uploaded documents where they are now: In Processing while one of them is read (or not
 * heard of yet), else the one list they all reached (To Review, Ready), else the Inbox that holds them all; in the
 * all-companies view, Unassigned. "Open In Processing" used to stay after every document had left it.
 */
export function uploadedList(items: ReadonlyArray<UploadItem>, allCompanies: boolean): { path: string; label: string } {
  if (allCompanies) return { path: '/receipts/unassigned', label: 'Open Unassigned' };
  const uploaded = items.filter((i) => i.state === 'done');
  const statuses = new Set<string>();
  for (const item of uploaded) {
    const docs = Object.values(item.documents ?? {});
    if (docs.length === 0) statuses.add('processing');
    for (const d of docs) statuses.add(d.status);
  }
  const list: ListStatus = statuses.has('processing') ? 'processing' : statuses.size === 1 ? ([...statuses][0] as ListStatus) : 'inbox';
  if (!REACHED_LISTS.includes(list)) return { path: '/receipts/inbox', label: 'Open Inbox' };
  return { path: `/receipts/${list}`, label: `Open ${STATUS_TITLES[list as ReceiptStatus]}` };
}

/** '2.4 MB', '830 KB', '12 B'. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The question of a pop-up closed while files upload. */
export function stillUploadingText(active: number): string {
  return `${active === 1 ? '1 file is' : `${active} files are`} still uploading. Closing the pop-up cancels ${active === 1 ? 'it' : 'them'}.`;
}

/** The card of a file that did not finish uploading because the user left the documents list. */
export const LEFT_LIST_TEXT = 'Not uploaded: you left the documents list before it finished';

/** The info pop-up on leaving the documents list while files upload: where they wait. */
export function leftListText(files: number): string {
  return `${files === 1 ? '1 file did' : `${files} files did`} not finish uploading. ${files === 1 ? 'It waits' : 'They wait'} in the upload pop-up on the documents list.`;
}

/**
 * The files to keep when the pop-up goes without being closed (the user left the documents list): those still
 * waiting or uploading, and those kept already after a session ended (still to try again).
 */
export function itemsLeftBehind(items: ReadonlyArray<UploadItem>): UploadItem[] {
  return items.filter((i) => i.state === 'waiting' || i.state === 'uploading' || (i.state === 'failed' && i.retry && i.sessionEnded));
}
