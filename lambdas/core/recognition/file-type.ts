/** What kind of document the bytes are, from their signature (the MIME type and name only help). */
import { AppError } from '../../../shared/errors';

export type DocumentKind = 'image' | 'pdf' | 'xml' | 'office' | 'unknown';

/** Shown when a file can be stored but not previewed or recognised. */
export const UNSUPPORTED_MESSAGE = 'Preview cannot be made for this file type';

export class UnsupportedDocumentError extends AppError {
  constructor(detail?: string) {
    super('ValidationFailed', UNSUPPORTED_MESSAGE, detail ? { detail } : undefined);
    this.name = 'UnsupportedDocumentError';
  }
}

function startsWith(bytes: Uint8Array, sig: number[], offset = 0): boolean {
  return sig.every((b, i) => bytes[offset + i] === b);
}

const OFFICE_EXT = /\.(docx?|xlsx?|xlsm|pptx?|odt|ods|odp|rtf)$/i;
const OFFICE_MIME = /(officedocument|msword|ms-excel|ms-powerpoint|opendocument|rtf)/i;

export function detectDocumentKind(bytes: Uint8Array, mime = '', fileName = ''): DocumentKind {
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46])) return 'pdf'; // %PDF
  if (
    startsWith(bytes, [0xff, 0xd8, 0xff]) || // JPEG
    startsWith(bytes, [0x89, 0x50, 0x4e, 0x47]) || // PNG
    startsWith(bytes, [0x47, 0x49, 0x46, 0x38]) || // GIF
    startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || // TIFF LE
    startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a]) || // TIFF BE
    (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) || // WEBP
    (startsWith(bytes, [0x66, 0x74, 0x79, 0x70], 4) && /^(heic|heix|mif1|avif)/.test(new TextDecoder().decode(bytes.slice(8, 12)))) // HEIC/AVIF
  ) {
    return 'image';
  }
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0])) {
    return OFFICE_EXT.test(fileName) || OFFICE_MIME.test(mime) ? 'office' : 'unknown';
  }
  if (startsWith(bytes, [0x7b, 0x5c, 0x72, 0x74, 0x66])) return 'office'; // {\rtf
  const head = new TextDecoder('utf-8').decode(bytes.slice(0, 512)).replace(/^\uFEFF/, '').trimStart();
  if (head.startsWith('<')) return 'xml';
  if (/^image\//.test(mime)) return 'image';
  if (OFFICE_EXT.test(fileName) || OFFICE_MIME.test(mime)) return 'office';
  return 'unknown';
}
