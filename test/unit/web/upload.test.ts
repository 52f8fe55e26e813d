import { describe, expect, it } from 'vitest';
import { DOCUMENT_MAX_BYTES, IMAGE_MAX_BYTES } from '../../../shared/constants';
import { formatBytes, itemsForFiles, itemsLeftBehind, leftListText, processingText, queueReducer, queueSummary, stillUploadingText, uploadedList, type UploadItem } from '../../../web/src/features/upload/lib/queue';
import { progressPercent, putHeaders, uploadQuery } from '../../../web/src/features/upload/lib/request';
import { s3ErrorMessage } from '../../../web/src/features/upload/lib/put-file';
import {
  ACCEPT_ATTRIBUTE,
  acceptOf,
  contentTypeOf,
  fileKind,
  sizeHintOf,
  uploadErrorMessage,
  uploadSummary,
  validateUploadFile,
} from '../../../web/src/features/upload/lib/validate';

const file = (name: string, size = 1000, type = '') => ({ name, size, type });

describe('upload checks in the browser', () => {
  it('accepts JPEG/PNG images and PDF and office documents', () => {
    for (const n of ['a.jpg', 'b.JPEG', 'c.png', 'd.pdf', 'e.xlsx', 'f.xls', 'g.ods', 'h.docx', 'i.doc', 'j.odt', 'k.rtf']) {
      expect(validateUploadFile(file(n), 'single')).toBeNull();
    }
    expect(ACCEPT_ATTRIBUTE).toContain('.pdf');
  });

  it("refuses other types with 'This file type is not allowed'", () => {
    expect(validateUploadFile(file('virus.exe'), 'single')).toBe('This file type is not allowed');
    expect(validateUploadFile(file('photo.heic'), 'single')).toBe('This file type is not allowed');
    expect(validateUploadFile(file('noextension'), 'single')).toBe('This file type is not allowed');
  });

  it('limits images to 10 MB', () => {
    expect(validateUploadFile(file('a.jpg', IMAGE_MAX_BYTES), 'single')).toBeNull();
    expect(validateUploadFile(file('a.jpg', IMAGE_MAX_BYTES + 1), 'single')).toBe('Image size limits 10MB');
  });

  it('limits other documents to 30 MB, with a message that says 30 MB', () => {
    expect(validateUploadFile(file('a.pdf', DOCUMENT_MAX_BYTES), 'single')).toBeNull();
    expect(validateUploadFile(file('a.pdf', DOCUMENT_MAX_BYTES + 1), 'single')).toBe('File size limits 30MB');
    expect(validateUploadFile(file('a.docx', DOCUMENT_MAX_BYTES + 1), 'single')).toBe('File size limits 30MB');
  });

  it('refuses empty files', () => {
    expect(validateUploadFile(file('a.pdf', 0), 'single')).toBe('The file is empty');
  });

  it('allows One document per page only for PDF files', () => {
    expect(validateUploadFile(file('a.pdf'), 'multiple')).toBeNull();
    expect(validateUploadFile(file('a.jpg'), 'multiple')).toBe('One document per page applies only to PDF files');
    expect(validateUploadFile(file('a.xlsx'), 'multiple')).toBe('One document per page applies only to PDF files');
  });

  it('finds the kind and content type by extension when the browser gives none', () => {
    expect(fileKind(file('x.PDF'))).toBe('pdf');
    expect(fileKind(file('x.png'))).toBe('image');
    expect(fileKind(file('x.odt'))).toBe('document');
    expect(contentTypeOf(file('x.jpg'))).toBe('image/jpeg');
    expect(contentTypeOf(file('x.pdf', 1, 'application/pdf'))).toBe('application/pdf');
    expect(contentTypeOf(file('x.xlsx'))).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  });
});

describe('upload failure texts', () => {
  it("shows the resolution text for any message containing 'too low'", () => {
    expect(uploadErrorMessage({ message: 'Image resolution too low (300x200)' })).toBe('Resolution of the image is too low to be processed');
    expect(uploadErrorMessage({ code: 2, message: 'DPI is Too Low' })).toBe('Resolution of the image is too low to be processed');
  });

  it('code 1 is the file format', () => {
    expect(uploadErrorMessage({ code: 1, message: 'whatever' })).toBe('This file type is not allowed');
    expect(uploadErrorMessage({ code: '1' })).toBe('This file type is not allowed');
  });

  it("otherwise the server's message or 'Error'", () => {
    expect(uploadErrorMessage({ code: 2, message: 'Quota reached' })).toBe('Quota reached');
    expect(uploadErrorMessage({ code: 2 })).toBe('Error');
    expect(uploadErrorMessage(undefined)).toBe('Error');
  });

  it('reads the message of an S3 XML error', () => {
    expect(s3ErrorMessage('<Error><Code>SignatureDoesNotMatch</Code><Message>The signature did not match</Message></Error>')).toBe(
      'The signature did not match',
    );
    expect(s3ErrorMessage('')).toBeUndefined();
  });

  it("titles the result cards 'Your uploaded items (N files, M failure)'", () => {
    expect(uploadSummary(3, 1)).toBe('Your uploaded items (3 files, 1 failure)');
    expect(uploadSummary(2, 0)).toBe('Your uploaded items (2 files, 0 failure)');
  });
});

describe('GET /upload/document query', () => {
  const settings = { receiptType: 'invoice' as const, mode: 'multiple' as const, ownerId: 'u2' };
  const pdf = file('scan.pdf', 2048, 'application/pdf');

  it('names the company, type, mode, file, owner, content type and size', () => {
    expect(uploadQuery(pdf, settings, { selfId: 'u1', allCompanies: false, activeCompanyId: 'c1' })).toEqual({
      company_id: 'c1',
      receipt_type: 'invoice',
      type: 'multiple',
      original_file_name: 'scan.pdf',
      user_id: 'u2',
      content_type: 'application/pdf',
      size: 2048,
    });
  });

  it('sends the owner empty when the user picks themselves', () => {
    expect(uploadQuery(pdf, { ...settings, ownerId: 'u1' }, { selfId: 'u1', allCompanies: false, activeCompanyId: 'c1' }).user_id).toBe('');
    expect(uploadQuery(pdf, { ...settings, ownerId: '' }, { selfId: 'u1', allCompanies: false, activeCompanyId: 'c1' }).user_id).toBe('');
  });

  it('sends company_id NONE in the all-companies view', () => {
    expect(uploadQuery(pdf, settings, { selfId: 'u1', allCompanies: true, activeCompanyId: 'c1' }).company_id).toBe('NONE');
  });

  it('PUTs with the signed headers, or the content type', () => {
    expect(putHeaders(pdf, { 'content-type': 'application/pdf' })).toEqual({ 'content-type': 'application/pdf' });
    expect(putHeaders(file('a.png'), undefined)).toEqual({ 'Content-Type': 'image/png' });
  });

  it('turns progress events into a percent', () => {
    expect(progressPercent(50, 200)).toBe(25);
    expect(progressPercent(300, 200)).toBe(100);
    expect(progressPercent(1, 0)).toBe(0);
  });
});

describe('upload queue', () => {
  let n = 0;
  const id = () => `i${++n}`;

  it('fails files that do not pass the checks at once, queues the others', () => {
    const items = itemsForFiles([file('a.jpg', 10), file('b.exe', 10), file('c.jpg', 10)], 'multiple', id);
    expect(items.map((i) => [i.name, i.state, i.message])).toEqual([
      ['a.jpg', 'failed', 'One document per page applies only to PDF files'],
      ['b.exe', 'failed', 'This file type is not allowed'],
      ['c.jpg', 'failed', 'One document per page applies only to PDF files'],
    ]);
    expect(itemsForFiles([file('a.pdf', 10)], 'multiple', id)[0]!.state).toBe('waiting');
  });

  it('moves items through uploading to done or failed and counts them', () => {
    let items = queueReducer([], { type: 'add', items: itemsForFiles([file('a.pdf'), file('b.png'), file('c.exe')], 'single', id) });
    const [a, b] = items;
    items = queueReducer(items, { type: 'start', id: a!.id });
    items = queueReducer(items, { type: 'progress', id: a!.id, progress: 140 });
    expect(items[0]).toMatchObject({ state: 'uploading', progress: 100 });
    expect(queueSummary(items)).toEqual({ total: 3, failures: 1, successes: 0, active: 2, finished: false });
    items = queueReducer(items, { type: 'done', id: a!.id });
    items = queueReducer(items, { type: 'failed', id: b!.id, message: 'Error' });
    expect(queueSummary(items)).toEqual({ total: 3, failures: 2, successes: 1, active: 0, finished: true });
    expect(queueReducer(items, { type: 'clear' })).toEqual([]);
  });

  it('follows the documents made from an uploaded file through the live events', () => {
    let items = queueReducer([], { type: 'add', items: itemsForFiles([file('scan.pdf'), file('photo.jpg')], 'single', id) });
    const [pdf, photo] = items;
    items = queueReducer(items, { type: 'done', id: pdf!.id, uploadId: 'up1' });
    items = queueReducer(items, { type: 'done', id: photo!.id, uploadId: 'up2' });
    expect(processingText(items[0]!)).toEqual({ text: 'Uploaded · processing', failed: false });
    items = queueReducer(items, { type: 'document', report: { receipt_id: 'd1', upload_id: 'up1', status: 'processing' } });
    items = queueReducer(items, { type: 'document', report: { receipt_id: 'd2', upload_id: 'up1', status: 'processing' } });
    expect(processingText(items[0]!).text).toBe('2 documents: 2 In Processing');
    items = queueReducer(items, { type: 'document', report: { receipt_id: 'd1', upload_id: 'up1', status: 'review' } });
    expect(processingText(items[0]!).text).toBe('2 documents: 1 To Review, 1 In Processing');
    // events of other uploads change nothing
    expect(queueReducer(items, { type: 'document', report: { receipt_id: 'x', upload_id: 'other', status: 'review' } })).toBe(items);
    items = queueReducer(items, {
      type: 'document',
      report: { receipt_id: 'd3', upload_id: 'up2', status: 'failed', error: { message: 'Image resolution is too low' } },
    });
    expect(processingText(items[1]!)).toEqual({ text: 'Failed', failed: true, error: 'Resolution of the image is too low to be processed' });
    expect(queueSummary(items)).toEqual({ total: 2, failures: 1, successes: 1, active: 0, finished: true });
  });

  it('opens the list where the uploaded documents are now', () => {
    let items = queueReducer([], { type: 'add', items: itemsForFiles([file('scan.pdf'), file('photo.jpg'), file('x.exe')], 'single', id) });
    const [pdf, photo] = items;
    items = queueReducer(items, { type: 'done', id: pdf!.id, uploadId: 'up1' });
    items = queueReducer(items, { type: 'done', id: photo!.id, uploadId: 'up2' });
    // not heard of yet: being read
    expect(uploadedList(items, false)).toEqual({ path: '/receipts/processing', label: 'Open In Processing' });
    items = queueReducer(items, { type: 'document', report: { receipt_id: 'd1', upload_id: 'up1', status: 'review' } });
    expect(uploadedList(items, false).label).toBe('Open In Processing');
    items = queueReducer(items, { type: 'document', report: { receipt_id: 'd2', upload_id: 'up2', status: 'review' } });
    expect(uploadedList(items, false)).toEqual({ path: '/receipts/review', label: 'Open To Review' });
    items = queueReducer(items, { type: 'document', report: { receipt_id: 'd2', upload_id: 'up2', status: 'ready' } });
    expect(uploadedList(items, false)).toEqual({ path: '/receipts/inbox', label: 'Open Inbox' });
    // the all-companies view's uploads wait in Unassigned
    expect(uploadedList(items, true)).toEqual({ path: '/receipts/unassigned', label: 'Open Unassigned' });
  });

  it('offers only PDF files for One document per page, and says so', () => {
    expect(acceptOf('multiple')).toBe('.pdf');
    expect(acceptOf('single')).toBe(ACCEPT_ATTRIBUTE);
    expect(sizeHintOf('multiple')).toBe('PDF files up to 30 MB');
    expect(sizeHintOf('single')).toBe('JPG and PNG up to 10 MB · PDF and office documents up to 30 MB');
  });

  it('formats sizes', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(2048)).toBe('2 KB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.0 MB');
  });
});

describe('closing the upload pop-up while files upload', () => {
  it('says how many files closing cancels', () => {
    expect(stillUploadingText(1)).toBe('1 file is still uploading. Closing the pop-up cancels it.');
    expect(stillUploadingText(3)).toBe('3 files are still uploading. Closing the pop-up cancels them.');
  });
});

describe('leaving the documents list while files upload', () => {
  it('keeps the files waiting or uploading and those kept after a session ended, and says where they wait', () => {
    const item = (id: string, state: UploadItem['state'], extra: Partial<UploadItem> = {}): UploadItem => ({ id, name: `${id}.pdf`, size: 1, state, progress: 0, ...extra });
    const items = [
      item('w', 'waiting'),
      item('u', 'uploading'),
      item('d', 'done'),
      item('f', 'failed', { retry: true, message: 'Error' }),
      item('s', 'failed', { retry: true, sessionEnded: true, message: 'Session expired' }),
      item('x', 'failed', { retry: false, message: 'This file type is not allowed' }),
    ];
    expect(itemsLeftBehind(items).map((i) => i.id)).toEqual(['w', 'u', 's']);
    expect(leftListText(1)).toBe('1 file did not finish uploading. It waits in the upload pop-up on the documents list.');
    expect(leftListText(2)).toBe('2 files did not finish uploading. They wait in the upload pop-up on the documents list.');
  });
});
