import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { uploadErrorMessage } from '../../../web/src/features/upload/lib/validate';
import {
  acceptUpload,
  checkContent,
  decodeS3Key,
  documentIdFor,
  parseProcessTicketKey,
  parseUploadKey,
  processTicketKey,
  safeFileName,
  uploadKey,
} from '../../../lambdas/core/documents/files';
import { AppError } from '../../../shared/errors';

function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

const MB = 1024 * 1024;

describe('upload rules up front', () => {
  it('accepts the documented types and sizes', () => {
    expect(acceptUpload({ original_file_name: 'a.JPG', content_type: 'image/jpeg', size: 10 * MB, mode: 'single' })).toEqual({ ext: 'jpg', kind: 'image', contentType: 'image/jpeg' });
    expect(acceptUpload({ original_file_name: 'scan.pdf', size: 31_457_280, mode: 'multiple' }).contentType).toBe('application/pdf');
    for (const ext of ['xlsx', 'xls', 'ods', 'docx', 'doc', 'odt', 'rtf']) {
      expect(acceptUpload({ original_file_name: `f.${ext}`, size: 1000, mode: 'single' }).kind).toBe('office');
    }
    expect(acceptUpload({ original_file_name: 'f.doc', content_type: 'application/octet-stream', size: 10, mode: 'single' }).contentType).toBe('application/octet-stream');
  });

  it('refuses with the spec messages', () => {
    expect(refusal(() => acceptUpload({ original_file_name: 'virus.exe', size: 10, mode: 'single' }))).toMatchObject({
      statusCode: 422,
      message: 'This file type is not allowed',
      details: { code: 1 },
    });
    expect(refusal(() => acceptUpload({ original_file_name: 'a.png', content_type: 'application/pdf', size: 10, mode: 'single' })).message).toBe('This file type is not allowed');
    expect(refusal(() => acceptUpload({ original_file_name: 'a.png', size: 10 * MB + 1, mode: 'single' })).message).toBe('Image size limits 10MB');
    expect(refusal(() => acceptUpload({ original_file_name: 'a.pdf', size: 31_457_281, mode: 'single' })).message).toBe('File size limits 30MB');
    expect(refusal(() => acceptUpload({ original_file_name: 'a.jpg', size: 100, mode: 'multiple' })).message).toBe('One document per page applies only to PDF files');
    expect(refusal(() => acceptUpload({ original_file_name: 'a.pdf', size: 0, mode: 'single' })).message).toBe('The file is empty');
  });

  it('gives code 1 to the file format only, so the upload card shows the other refusals as they are', () => {
    expect(refusal(() => acceptUpload({ original_file_name: 'a.png', content_type: 'application/pdf', size: 10, mode: 'single' })).details).toMatchObject({ code: 1 });
    for (const input of [
      { original_file_name: 'a.png', size: 10 * MB + 1, mode: 'single' as const },
      { original_file_name: 'a.pdf', size: 31_457_281, mode: 'single' as const },
      { original_file_name: 'a.jpg', size: 100, mode: 'multiple' as const },
      { original_file_name: 'a.pdf', size: 0, mode: 'single' as const },
    ]) {
      const error = refusal(() => acceptUpload(input));
      expect(error.details).toMatchObject({ code: 2 });
      expect(uploadErrorMessage({ code: (error.details as { code: number }).code, message: error.message })).toBe(error.message);
    }
  });
});

describe('object keys and ids', () => {
  it('builds one safe key per upload and reads it back', () => {
    expect(safeFileName('../../etc/Sąskaita faktūra #12 (copy).PDF')).toBe('Saskaita_faktura_12_copy.pdf');
    expect(safeFileName('...')).toBe('file');
    const key = uploadKey(null, 'user-1', '01UPLOAD', 'my receipt.jpg');
    expect(key).toBe('uploads/NONE/user-1/01UPLOAD/my_receipt.jpg');
    expect(parseUploadKey(key)).toEqual({ companyId: null, userId: 'user-1', uploadId: '01UPLOAD', fileName: 'my_receipt.jpg' });
    expect(parseUploadKey(uploadKey('c1', 'u', 'up', 'x.pdf'))?.companyId).toBe('c1');
    expect(parseUploadKey('documents/x/source.pdf')).toBeUndefined();
    expect(parseProcessTicketKey(processTicketKey('DOC1', 3))).toEqual({ receiptId: 'DOC1', run: 3 });
    expect(decodeS3Key('uploads/a/b/c/my+file%281%29.pdf')).toBe('uploads/a/b/c/my file(1).pdf');
  });

  it('derives the same document id from the same object and page, and different ones otherwise', () => {
    const a = documentIdFor('uploads/c/u/1/a.pdf', '"abc"', null);
    expect(a).toMatch(/^[0-9A-Z]{26}$/);
    expect(documentIdFor('uploads/c/u/1/a.pdf', 'abc', null)).toBe(a);
    expect(documentIdFor('uploads/c/u/1/a.pdf', 'abd', null)).not.toBe(a);
    expect(documentIdFor('uploads/c/u/1/a.pdf', 'abc', 1)).not.toBe(a);
    expect(documentIdFor('uploads/c/u/1/a.pdf', 'abc', 1)).not.toBe(documentIdFor('uploads/c/u/1/a.pdf', 'abc', 2));
  });
});

describe('content check by magic bytes', () => {
  it('accepts what the bytes really are', async () => {
    const jpeg = await sharp({ create: { width: 80, height: 80, channels: 3, background: '#fff' } }).jpeg().toBuffer();
    const png = await sharp({ create: { width: 80, height: 80, channels: 3, background: '#fff' } }).png().toBuffer();
    const pdf = await (async () => {
      const d = await PDFDocument.create();
      d.addPage();
      return d.save();
    })();
    expect(await checkContent(jpeg, 'a.jpg', 'single')).toEqual({ ok: true, kind: 'image', mime: 'image/jpeg' });
    expect(await checkContent(png, 'a.png', 'single')).toEqual({ ok: true, kind: 'image', mime: 'image/png' });
    // A JPEG named .jpeg/.png is still an image of an allowed kind only when the extension family agrees.
    expect(await checkContent(jpeg, 'a.jpeg', 'single')).toMatchObject({ ok: true });
    expect(await checkContent(pdf, 'a.pdf', 'multiple')).toEqual({ ok: true, kind: 'pdf', mime: 'application/pdf' });
    expect(await checkContent(new TextEncoder().encode('{\\rtf1\\ansi hello}'), 'a.rtf', 'single')).toMatchObject({ ok: true, kind: 'office' });
  });

  it('refuses empty files, other types and renamed files', async () => {
    const png = await sharp({ create: { width: 80, height: 80, channels: 3, background: '#fff' } }).png().toBuffer();
    expect(await checkContent(new Uint8Array(), 'a.pdf', 'single')).toEqual({ ok: false, message: 'The file is empty' });
    expect(await checkContent(new TextEncoder().encode('just some text, not a pdf'), 'a.pdf', 'single')).toEqual({ ok: false, message: 'This file type is not allowed' });
    expect(await checkContent(png, 'a.pdf', 'single')).toEqual({ ok: false, message: 'This file type is not allowed' });
    expect(await checkContent(new TextEncoder().encode('MZ\x90\x00 executable'), 'a.exe', 'single')).toEqual({ ok: false, message: 'This file type is not allowed' });
    const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
    expect(await checkContent(gif, 'a.jpg', 'single')).toEqual({ ok: false, message: 'This file type is not allowed' });
  });

  it('takes a JPEG named .png and a PNG named .jpg as the images they are; a PDF named .jpg stays refused', async () => {
    const png = await sharp({ create: { width: 80, height: 80, channels: 3, background: '#fff' } }).png().toBuffer();
    const jpeg = await sharp({ create: { width: 80, height: 80, channels: 3, background: '#fff' } }).jpeg().toBuffer();
    const pdf = await (async () => {
      const d = await PDFDocument.create();
      d.addPage();
      return d.save();
    })();
    expect(await checkContent(png, 'photo.jpg', 'single')).toEqual({ ok: true, kind: 'image', mime: 'image/png' });
    expect(await checkContent(png, 'photo.JPEG', 'single')).toEqual({ ok: true, kind: 'image', mime: 'image/png' });
    expect(await checkContent(jpeg, 'photo.png', 'single')).toEqual({ ok: true, kind: 'image', mime: 'image/jpeg' });
    expect(await checkContent(pdf, 'scan.jpg', 'single')).toEqual({ ok: false, message: 'This file type is not allowed' });
    expect(await checkContent(jpeg, 'scan.pdf', 'single')).toEqual({ ok: false, message: 'This file type is not allowed' });
  });
});
