/**
 * File rules for document uploads (rules.md section 5 "Uploads"): which names, types and sizes are
 * accepted up front, where the object goes, and the check of the bytes once they have arrived.
 */
import { createHash } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import { DOCUMENT_MAX_BYTES, IMAGE_MAX_BYTES } from '../../../shared/constants';
import { AppError } from '../../../shared/errors';
import { UPLOAD_ERROR_CODE, UPLOAD_MSG } from '../../../shared/schemas/receipts';
import type { UploadMode } from './types';

export type FileKind = 'image' | 'pdf' | 'office';

interface ExtRule {
  kind: FileKind;
  mime: string;
  /** Content types a browser may report for the extension. */
  mimes: string[];
  /** What file-type calls the bytes of this extension. */
  detected: string[];
}

const OCTET = 'application/octet-stream';
const CFB = ['cfb'];

export const EXTENSIONS: Record<string, ExtRule> = {
  jpg: { kind: 'image', mime: 'image/jpeg', mimes: ['image/jpeg', 'image/jpg', 'image/pjpeg'], detected: ['jpg'] },
  jpeg: { kind: 'image', mime: 'image/jpeg', mimes: ['image/jpeg', 'image/jpg', 'image/pjpeg'], detected: ['jpg'] },
  png: { kind: 'image', mime: 'image/png', mimes: ['image/png'], detected: ['png'] },
  pdf: { kind: 'pdf', mime: 'application/pdf', mimes: ['application/pdf', 'application/x-pdf'], detected: ['pdf'] },
  xlsx: {
    kind: 'office',
    mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    mimes: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/zip'],
    detected: ['xlsx', 'zip'],
  },
  xls: { kind: 'office', mime: 'application/vnd.ms-excel', mimes: ['application/vnd.ms-excel'], detected: CFB },
  ods: {
    kind: 'office',
    mime: 'application/vnd.oasis.opendocument.spreadsheet',
    mimes: ['application/vnd.oasis.opendocument.spreadsheet', 'application/zip'],
    detected: ['ods', 'zip'],
  },
  docx: {
    kind: 'office',
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    mimes: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'application/zip'],
    detected: ['docx', 'zip'],
  },
  doc: { kind: 'office', mime: 'application/msword', mimes: ['application/msword'], detected: CFB },
  odt: {
    kind: 'office',
    mime: 'application/vnd.oasis.opendocument.text',
    mimes: ['application/vnd.oasis.opendocument.text', 'application/zip'],
    detected: ['odt', 'zip'],
  },
  rtf: { kind: 'office', mime: 'application/rtf', mimes: ['application/rtf', 'text/rtf'], detected: ['rtf'] },
};

export function extensionOf(fileName: string): string {
  const m = /\.([A-Za-z0-9]+)$/.exec(fileName.trim());
  return m ? m[1]!.toLowerCase() : '';
}

export const maxBytesFor = (kind: FileKind) => (kind === 'image' ? IMAGE_MAX_BYTES : DOCUMENT_MAX_BYTES);

function uploadError(message: string, field: string, code: number): AppError {
  return new AppError('ValidationFailed', message, { code, fields: [{ path: [field], message }] });
}

export interface AcceptedUpload {
  ext: string;
  kind: FileKind;
  contentType: string;
}

/** Checks name, declared type, size and mode before a presigned URL is handed out. */
export function acceptUpload(input: { original_file_name: string; content_type?: string; size: number; mode: UploadMode }): AcceptedUpload {
  const ext = extensionOf(input.original_file_name);
  const rule = EXTENSIONS[ext];
  if (!rule) throw uploadError(UPLOAD_MSG.typeNotAllowed, 'original_file_name', UPLOAD_ERROR_CODE.fileFormat);
  const declared = (input.content_type ?? '').split(';')[0]!.trim().toLowerCase();
  let contentType = rule.mime;
  if (declared && declared !== OCTET) {
    if (!rule.mimes.includes(declared)) throw uploadError(UPLOAD_MSG.typeNotAllowed, 'content_type', UPLOAD_ERROR_CODE.fileFormat);
    contentType = declared;
  } else if (declared === OCTET) {
    contentType = OCTET;
  }
  // Code 1 is the file format only (product.md section 4): the upload card shows 'This file type is not allowed'
  // for it, and the message itself for the others.
  if (input.mode === 'multiple' && rule.kind !== 'pdf') throw uploadError(UPLOAD_MSG.multipleOnlyPdf, 'type', UPLOAD_ERROR_CODE.unknown);
  if (input.size <= 0) throw uploadError(UPLOAD_MSG.empty, 'size', UPLOAD_ERROR_CODE.unknown);
  if (input.size > maxBytesFor(rule.kind)) {
    throw uploadError(rule.kind === 'image' ? UPLOAD_MSG.imageTooBig : UPLOAD_MSG.documentTooBig, 'size', UPLOAD_ERROR_CODE.unknown);
  }
  return { ext, kind: rule.kind, contentType };
}

/** A file name safe for an S3 key: no path, ASCII letters, digits, dot, dash and underscore. */
export function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const ext = extensionOf(base);
  const stem = (ext ? base.slice(0, -(ext.length + 1)) : base)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^[._]+|[._]+$/g, '')
    .slice(0, 100);
  return `${stem || 'file'}${ext ? `.${ext}` : ''}`;
}

export const UPLOAD_PREFIX = 'uploads/';
export const PROCESS_PREFIX = 'jobs/process/';
/** The bucket notifies the processing queue of objects created under these prefixes only. */
export const PROCESSING_PREFIXES = [UPLOAD_PREFIX, PROCESS_PREFIX] as const;
/** companyId `NONE`: the all-companies view; the document stays with its owner until a company is chosen. */
export function uploadKey(companyId: string | null, userId: string, uploadId: string, fileName: string): string {
  return `${UPLOAD_PREFIX}${companyId ?? 'NONE'}/${userId}/${uploadId}/${safeFileName(fileName)}`;
}

export function parseUploadKey(key: string): { companyId: string | null; userId: string; uploadId: string; fileName: string } | undefined {
  const m = /^uploads\/([^/]+)\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(key);
  if (!m) return undefined;
  return { companyId: m[1] === 'NONE' ? null : m[1]!, userId: m[2]!, uploadId: m[3]!, fileName: m[4]! };
}

/** S3 keys of what the processing makes of a document. */
export const documentKeys = {
  pageSource: (receiptId: string) => `documents/${receiptId}/source.pdf`,
  /** The first MAX_RECOGNISED_PAGES pages of a longer PDF: what is rendered and recognised. */
  firstPages: (receiptId: string, run: number) => `documents/${receiptId}/first-pages/${run}.pdf`,
  pageImage: (receiptId: string, page: number, run: number) => `documents/${receiptId}/pages/${run}-${page}.jpg`,
  /** `unique` (a new id per write) keeps a losing concurrent write from overwriting the winner's content. */
  content: (receiptId: string, unique: string) => `documents/${receiptId}/content/${unique}.json`,
  boxes: (receiptId: string, run: number) => `documents/${receiptId}/boxes/${run}.json`,
  /** The word boxes of a merged document (its own and the merged one's pages), as of its version after the merge. */
  combinedBoxes: (receiptId: string, version: number) => `documents/${receiptId}/boxes/combined-${version}.json`,
  prefix: (receiptId: string) => `documents/${receiptId}/`,
};

/**
 * A processing ticket: a small object whose object-created event starts the job for one document
 * (Try Again, and the pages of a split PDF, each processed by its own invocation).
 */
export function processTicketKey(receiptId: string, run: number): string {
  return `${PROCESS_PREFIX}${receiptId}/${run}.json`;
}
export function parseProcessTicketKey(key: string): { receiptId: string; run: number } | undefined {
  const m = /^jobs\/process\/([^/]+)\/(\d+)\.json$/.exec(key);
  return m ? { receiptId: m[1]!, run: Number(m[2]) } : undefined;
}

/** S3 notifications carry the key URL-encoded with '+' for spaces. */
export function decodeS3Key(key: string): string {
  return decodeURIComponent(key.replace(/\+/g, ' '));
}

export type ContentCheck =
  | { ok: true; kind: FileKind; mime: string }
  | { ok: false; message: string };

/** What file-type calls the bytes of the accepted images (JPEG, PNG). */
const IMAGE_TYPES = new Set(Object.values(EXTENSIONS).flatMap((r) => (r.kind === 'image' ? r.detected : [])));

/**
 * The check of the arrived bytes (magic bytes, not the name): empty files, types other than the
 * accepted ones, a file that is not what its extension says, and sizes over the limit of what it really is.
 * An image named as the other accepted image type (a PNG named .jpg: phones and chat apps rename photos so) is
 * taken as the image its bytes are (`mime`, by which it is rendered and read); any other mismatch is refused.
 */
export async function checkContent(bytes: Uint8Array, fileName: string, mode: UploadMode): Promise<ContentCheck> {
  if (bytes.length === 0) return { ok: false, message: UPLOAD_MSG.empty };
  const rule = EXTENSIONS[extensionOf(fileName)];
  if (!rule) return { ok: false, message: UPLOAD_MSG.typeNotAllowed };
  const detected = await fileTypeFromBuffer(bytes);
  const otherImage = rule.kind === 'image' && !!detected && IMAGE_TYPES.has(detected.ext);
  if (!detected || !(rule.detected.includes(detected.ext) || otherImage)) return { ok: false, message: UPLOAD_MSG.typeNotAllowed };
  if (mode === 'multiple' && rule.kind !== 'pdf') return { ok: false, message: UPLOAD_MSG.multipleOnlyPdf };
  if (bytes.length > maxBytesFor(rule.kind)) {
    return { ok: false, message: rule.kind === 'image' ? UPLOAD_MSG.imageTooBig : UPLOAD_MSG.documentTooBig };
  }
  return { ok: true, kind: rule.kind, mime: rule.kind === 'office' ? rule.mime : detected.mime };
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
function base32(bytes: Uint8Array, length: number): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < length) {
      out += CROCKFORD[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  return out;
}

/**
 * The id of a document made from an uploaded object: the same object (key + ETag) and page always
 * give the same id, so a notification delivered twice creates one document.
 */
export function documentIdFor(key: string, etag: string, page: number | null): string {
  const digest = createHash('sha256').update(`${key}\n${etag.replace(/"/g, '')}\n${page ?? 0}`).digest();
  return base32(digest, 26);
}

/** A short stable digest (for marker keys). */
export function digest(text: string): string {
  return base32(createHash('sha256').update(text).digest(), 26);
}
