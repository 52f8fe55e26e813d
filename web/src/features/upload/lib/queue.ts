import { validateUploadFile, type FileLike, type UploadMode } from './validate';

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
}

export type QueueAction =
  | { type: 'add'; items: UploadItem[] }
  | { type: 'start'; id: string }
  | { type: 'progress'; id: string; progress: number }
  | { type: 'done'; id: string }
  | { type: 'failed'; id: string; message: string }
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
      return patch(action.id, { state: 'done', progress: 100, message: undefined });
    case 'failed':
      return patch(action.id, { state: 'failed', message: action.message });
    case 'clear':
      return items.filter((i) => i.state === 'waiting' || i.state === 'uploading');
    default:
      return items;
  }
}

export interface QueueSummary {
  total: number;
  failures: number;
  successes: number;
  active: number;
  /** Every item has its card (nothing waiting or uploading). */
  finished: boolean;
}

export function queueSummary(items: ReadonlyArray<UploadItem>): QueueSummary {
  const failures = items.filter((i) => i.state === 'failed').length;
  const successes = items.filter((i) => i.state === 'done').length;
  const active = items.length - failures - successes;
  return { total: items.length, failures, successes, active, finished: items.length > 0 && active === 0 };
}

/** '2.4 MB', '830 KB', '12 B'. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
