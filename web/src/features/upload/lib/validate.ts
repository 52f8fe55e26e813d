import { DOCUMENT_MAX_BYTES, IMAGE_MAX_BYTES } from '../../../../../shared/constants';
import { UPLOAD_ERROR_CODE, UPLOAD_MSG, type ReceiptType } from '../../../../../shared/schemas/receipts';

/** Cost = receipt, Sales = invoice (product.md section 3, upload request). */
export type UploadReceiptType = ReceiptType;
/** One document per file = single, One document per page = multiple (PDF only). */
export type UploadMode = 'single' | 'multiple';

export const MSG_TYPE_NOT_ALLOWED = UPLOAD_MSG.typeNotAllowed;
export const MSG_IMAGE_TOO_BIG = UPLOAD_MSG.imageTooBig;
/**
 * The spec's catalogue has 'PDF size limits 500MB', but the enforced limit is 30 MB (31457280 bytes) and it
 * applies to every non-image document, so the card says what is true.
 */
export const MSG_DOCUMENT_TOO_BIG = UPLOAD_MSG.documentTooBig;
export const MSG_PAGES_PDF_ONLY = UPLOAD_MSG.multipleOnlyPdf;
export const MSG_EMPTY = UPLOAD_MSG.empty;
export const MSG_LOW_RESOLUTION = UPLOAD_MSG.resolutionTooLow;
export const MSG_UPLOAD_ERROR = 'Error';

export const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png'] as const;
export const DOCUMENT_EXTENSIONS = ['pdf', 'xlsx', 'xls', 'ods', 'docx', 'doc', 'odt', 'rtf'] as const;

const MIME_BY_EXTENSION: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  pdf: 'application/pdf',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xls: 'application/vnd.ms-excel',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  doc: 'application/msword',
  odt: 'application/vnd.oasis.opendocument.text',
  rtf: 'application/rtf',
};

/** The `accept` attribute of the file input. */
export const ACCEPT_ATTRIBUTE = [...IMAGE_EXTENSIONS, ...DOCUMENT_EXTENSIONS].map((e) => `.${e}`).join(',');

/** The file input of a mode: One document per page takes PDF files only, so the file dialog offers only those. */
export function acceptOf(mode: UploadMode): string {
  return mode === 'multiple' ? '.pdf' : ACCEPT_ATTRIBUTE;
}

/** The drop zone's line about sizes, for the files the mode takes. */
export function sizeHintOf(mode: UploadMode): string {
  return mode === 'multiple' ? 'PDF files up to 30 MB' : 'JPG and PNG up to 10 MB · PDF and office documents up to 30 MB';
}

export interface FileLike {
  name: string;
  size: number;
  type: string;
}

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot >= 0 ? name.slice(dot + 1).toLowerCase() : '';
}

export type FileKind = 'image' | 'pdf' | 'document';

/** What kind of file this is by its extension (browsers report empty or odd MIME types for office files). */
export function fileKind(file: Pick<FileLike, 'name'>): FileKind | null {
  const ext = extensionOf(file.name);
  if ((IMAGE_EXTENSIONS as ReadonlyArray<string>).includes(ext)) return 'image';
  if (ext === 'pdf') return 'pdf';
  if ((DOCUMENT_EXTENSIONS as ReadonlyArray<string>).includes(ext)) return 'document';
  return null;
}

/** The content type to sign and send: the browser's when it has one, else the one of the extension. */
export function contentTypeOf(file: FileLike): string {
  return file.type || MIME_BY_EXTENSION[extensionOf(file.name)] || 'application/octet-stream';
}

/**
 * Client-side checks before anything is sent (rules.md 5 Uploads): type by extension, images ≤ 10 MB, other
 * documents ≤ 30 MB, not empty, and One document per page only for PDF. Returns the card's message, or null when fine.
 */
export function validateUploadFile(file: FileLike, mode: UploadMode): string | null {
  const kind = fileKind(file);
  if (!kind) return MSG_TYPE_NOT_ALLOWED;
  if (kind === 'image' && file.size > IMAGE_MAX_BYTES) return MSG_IMAGE_TOO_BIG;
  if (kind !== 'image' && file.size > DOCUMENT_MAX_BYTES) return MSG_DOCUMENT_TOO_BIG;
  if (file.size === 0) return MSG_EMPTY;
  if (mode === 'multiple' && kind !== 'pdf') return MSG_PAGES_PDF_ONLY;
  return null;
}

/**
 * The card text of a failed upload (rules.md 8): any message containing 'too low' → the resolution text;
 * code 1 (file format) → 'This file type is not allowed'; otherwise the server's message or 'Error'.
 */
export function uploadErrorMessage(error: { code?: unknown; message?: unknown } | null | undefined): string {
  const message = typeof error?.message === 'string' ? error.message.trim() : '';
  if (/too low/i.test(message)) return MSG_LOW_RESOLUTION;
  const code = typeof error?.code === 'string' ? Number(error.code) : error?.code;
  if (code === UPLOAD_ERROR_CODE.fileFormat) return MSG_TYPE_NOT_ALLOWED;
  return message || MSG_UPLOAD_ERROR;
}

/** Header of the result cards: 'Your uploaded items (N files, M failure)'. */
export function uploadSummary(total: number, failures: number): string {
  return `Your uploaded items (${total} files, ${failures} failure)`;
}
