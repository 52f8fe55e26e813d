import { describe, expect, it } from 'vitest';
import { UPLOAD_MSG } from '../../../shared/schemas/receipts';
import { ApiError, NETWORK_ERROR_MESSAGE, networkError } from '../../../web/src/lib/api-error';
import { uploadFailure } from '../../../web/src/features/upload/lib/failure';
import {
  dropKeptUploads,
  keepUploads,
  keptUploads,
  keptUploadsKey,
  lostFilesText,
  namesWithoutFiles,
  readKeptNames,
  writeKeptNames,
  type KeptUpload,
} from '../../../web/src/features/upload/lib/kept-uploads';
import { UploadPutError } from '../../../web/src/features/upload/lib/put-file';
import { itemsToKeep, queueReducer, queueSummary, retryableIds, type UploadItem } from '../../../web/src/features/upload/lib/queue';
import { uploadSummary } from '../../../web/src/features/upload/lib/validate';

class MemoryStore {
  data = new Map<string, string>();
  getItem(k: string) {
    return this.data.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.data.set(k, v);
  }
  removeItem(k: string) {
    this.data.delete(k);
  }
}

const item = (id: string, change: Partial<UploadItem> = {}): UploadItem => ({ id, name: `${id}.pdf`, size: 10, state: 'waiting', progress: 0, ...change });

describe('uploadFailure: the card text and whether Try again is offered', () => {
  it('offers a retry for the network, the storage and passing server errors', () => {
    expect(uploadFailure(networkError())).toEqual({ message: NETWORK_ERROR_MESSAGE, retry: true, sessionEnded: false });
    expect(uploadFailure(new UploadPutError(500, 'We encountered an internal error. Please try again.'))).toEqual({
      message: 'We encountered an internal error. Please try again.',
      retry: true,
      sessionEnded: false,
    });
    expect(uploadFailure(new UploadPutError(0, NETWORK_ERROR_MESSAGE)).retry).toBe(true);
    expect(uploadFailure(new UploadPutError(403, 'Request has expired')).retry).toBe(true);
    expect(uploadFailure(new ApiError(503, 'TokenRefreshFailed', 'Something went wrong')).retry).toBe(true);
    expect(uploadFailure(new ApiError(500, 'InternalError', 'Something went wrong')).retry).toBe(true);
    expect(uploadFailure(new TypeError('boom')).retry).toBe(true);
  });

  it('marks an ended session (401): retried once signed in again', () => {
    expect(uploadFailure(new ApiError(401, 'Unauthorized', 'Your previous session has expired.'))).toEqual({
      message: 'Your previous session has expired.',
      retry: true,
      sessionEnded: true,
    });
  });

  it('offers no retry for a refusal of the file or the reached monthly quota', () => {
    const typeRefused = new ApiError(400, 'BadRequest', UPLOAD_MSG.typeNotAllowed, { code: 1 });
    expect(uploadFailure(typeRefused)).toEqual({ message: UPLOAD_MSG.typeNotAllowed, retry: false, sessionEnded: false });
    expect(uploadFailure(new ApiError(400, 'BadRequest', UPLOAD_MSG.documentTooBig)).retry).toBe(false);
    expect(uploadFailure(new ApiError(422, 'ValidationFailed', 'Invalid input', [{ path: ['size'], message: UPLOAD_MSG.empty }]))).toMatchObject({
      message: UPLOAD_MSG.empty,
      retry: false,
    });
    expect(uploadFailure(new ApiError(403, 'Forbidden', 'Forbidden')).retry).toBe(false);
    const quota = `${UPLOAD_MSG.quotaExceeded} (100 documents a month). Ask a platform administrator to raise it.`;
    expect(uploadFailure(new ApiError(429, 'QuotaExceeded', quota))).toEqual({ message: quota, retry: false, sessionEnded: false });
  });

  it('offers a retry for the cap on uploads waiting for their files (it clears as they arrive or expire)', () => {
    const held = 'You have 50 uploads waiting for their files. Upload reservations that are not used expire after 20 minutes; try again when your uploads have finished.';
    expect(uploadFailure(new ApiError(429, 'QuotaExceeded', held))).toEqual({ message: held, retry: true, sessionEnded: false });
  });
});

describe('queue: Try again', () => {
  it('puts a failed file that may pass back in the queue, and the header counts follow', () => {
    let items = [item('a', { state: 'done', progress: 100 }), item('b'), item('c', { state: 'failed', message: UPLOAD_MSG.typeNotAllowed })];
    items = queueReducer(items, { type: 'failed', id: 'b', message: 'No connection to the internet', retry: true });
    expect(uploadSummary(queueSummary(items).total, queueSummary(items).failures)).toBe('Your uploaded items (3 files, 2 failure)');
    expect(retryableIds(items)).toEqual(['b']);

    items = queueReducer(items, { type: 'retry', ids: ['b', 'c'] });
    expect(items.map((i) => i.state)).toEqual(['done', 'waiting', 'failed']);
    expect(items[1]).toMatchObject({ progress: 0, message: undefined, retry: undefined });
    // a file refused for what it is stays refused
    expect(items[2]!.message).toBe(UPLOAD_MSG.typeNotAllowed);
    expect(queueSummary(items)).toMatchObject({ total: 3, failures: 1, active: 1, finished: false });

    items = queueReducer(queueReducer(items, { type: 'start', id: 'b' }), { type: 'done', id: 'b', uploadId: 'u-b' });
    expect(uploadSummary(queueSummary(items).total, queueSummary(items).failures)).toBe('Your uploaded items (3 files, 1 failure)');
  });

  it('a failure without retry offers none', () => {
    const items = queueReducer([item('a')], { type: 'failed', id: 'a', message: UPLOAD_MSG.typeNotAllowed, retry: false });
    expect(items[0]!.retry).toBeUndefined();
    expect(retryableIds(items)).toEqual([]);
    expect(queueReducer(items, { type: 'retry', ids: ['a'] })).toEqual(items);
  });

  it('keeps nothing while the session lasts; once it ended, what may still upload', () => {
    const items = [
      item('done', { state: 'done' }),
      item('net', { state: 'failed', retry: true, message: NETWORK_ERROR_MESSAGE }),
      item('type', { state: 'failed', message: UPLOAD_MSG.typeNotAllowed }),
      item('up', { state: 'uploading' }),
      item('wait'),
    ];
    expect(itemsToKeep(items, false)).toEqual([]);
    expect(itemsToKeep(items, true).map((i) => i.id)).toEqual(['net', 'up', 'wait']);
    const ended = [...items, item('sess', { state: 'failed', retry: true, sessionEnded: true })];
    expect(itemsToKeep(ended, false).map((i) => i.id)).toEqual(['net', 'up', 'wait', 'sess']);
  });
});

describe('kept uploads: the files kept for after the next sign-in', () => {
  const kept = (name: string): KeptUpload => ({
    name,
    size: 3,
    message: 'Your previous session has expired.',
    file: new File(['abc'], name, { type: 'application/pdf' }),
    settings: { receiptType: 'receipt', mode: 'single', ownerId: '' },
    target: { allCompanies: false, activeCompanyId: 'C1' },
  });

  it('keeps the Files in this page load and their names in the tab, per user', () => {
    const store = new MemoryStore();
    keepUploads('user-1', [kept('a.pdf'), kept('b.pdf')], [], store);
    expect(JSON.parse(store.getItem(keptUploadsKey('user-1'))!).names).toEqual(['a.pdf', 'b.pdf']);
    const back = keptUploads('user-1', store);
    expect(back.uploads.map((u) => u.name)).toEqual(['a.pdf', 'b.pdf']);
    expect(back.uploads[0]!.file).toBeInstanceOf(File);
    expect(back.lostNames).toEqual([]);
    // another user signing in on this tab sees nothing
    expect(keptUploads('user-2', store)).toEqual({ uploads: [], lostNames: [] });
    expect(keptUploads('', store)).toEqual({ uploads: [], lostNames: [] });

    dropKeptUploads('user-1', store);
    expect(keptUploads('user-1', store)).toEqual({ uploads: [], lostNames: [] });
    expect(store.data.size).toBe(0);
  });

  it('after a reload (Files gone) the names are still there to be shown', () => {
    const store = new MemoryStore();
    writeKeptNames('user-3', ['r4.jpg', 'r5.jpg'], store);
    expect(keptUploads('user-3', store)).toEqual({ uploads: [], lostNames: ['r4.jpg', 'r5.jpg'] });
    // names shown but not seen to are kept next to new files
    keepUploads('user-3', [kept('r6.jpg')], ['r4.jpg', 'r5.jpg'], store);
    expect(readKeptNames('user-3', store)).toEqual(['r6.jpg', 'r4.jpg', 'r5.jpg']);
    expect(keptUploads('user-3', store).lostNames).toEqual(['r4.jpg', 'r5.jpg']);
    dropKeptUploads('user-3', store);
  });

  it('reads unreadable or foreign entries as none, and survives a storage that throws', () => {
    const store = new MemoryStore();
    store.setItem(keptUploadsKey('u'), '{not json');
    expect(readKeptNames('u', store)).toEqual([]);
    store.setItem(keptUploadsKey('u'), JSON.stringify({ names: ['a.pdf', 3, ''] }));
    expect(readKeptNames('u', store)).toEqual(['a.pdf']);
    const throwing = { getItem: () => null, setItem: () => { throw new Error('quota'); }, removeItem: () => undefined };
    expect(() => writeKeptNames('u', ['a.pdf'], throwing)).not.toThrow();
    expect(readKeptNames('u', null)).toEqual([]);
  });

  it('matches each held File to one stored name', () => {
    expect(namesWithoutFiles(['a.pdf', 'a.pdf', 'b.pdf'], [{ name: 'a.pdf' }])).toEqual(['a.pdf', 'b.pdf']);
    expect(namesWithoutFiles([], [{ name: 'a.pdf' }])).toEqual([]);
  });

  it('names the files to choose again', () => {
    expect(lostFilesText(['r4.jpg'])).toBe('This file was not uploaded before your session ended; please choose it again: r4.jpg');
    expect(lostFilesText(['r4.jpg', 'r5.jpg'])).toBe('These 2 files were not uploaded before your session ended; please choose them again: r4.jpg, r5.jpg');
  });
});
