/**
 * Office documents read as text, with no OCR and no native code (works in Lambda): docx, xlsx, odt, ods,
 * rtf and doc become an OcrDocument of exactly-read words on a synthetic page layout (see layout.ts), which
 * the shared extraction reads like a PDF text layer. Legacy Excel (.xls) has no reader here; it is read
 * from LibreOffice's PDF where LibreOffice is installed. Anything that cannot be read — damaged, protected
 * with a password, no text — is an UnsupportedDocumentError whose detail says why.
 */
import { UnsupportedDocumentError } from '../file-type';
import type { OcrDocument } from '../types';
import { docEncrypted, readDoc } from './doc';
import { docxParts, readDocx } from './docx';
import { layoutDocument, type FlowPage } from './layout';
import { odfEncrypted, odfParts, readOds, readOdt } from './odf';
import { isRtf, readRtf } from './rtf';
import { readXlsx, xlsxParts } from './xlsx';
import { openZip, type ZipParts } from './zip';

export type OfficeFormat = 'docx' | 'xlsx' | 'odt' | 'ods' | 'rtf' | 'doc' | 'xls';

export const OFFICE_MSG = {
  damaged: (format: string) => `The ${format} file is damaged and cannot be read`,
  protected: 'The file is protected with a password',
  xls: 'Excel 97-2003 workbooks (.xls) are read only where LibreOffice is installed; save the file as .xlsx',
  noText: 'The document has no text to read',
  unknown: 'Not a Word, Excel, OpenDocument or RTF document',
} as const;

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const CFB = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

function startsWith(bytes: Uint8Array, sig: number[]): boolean {
  return sig.every((b, i) => bytes[i] === b);
}

function extOf(fileName: string): string {
  return /\.([a-z0-9]+)$/i.exec(fileName.trim())?.[1]?.toLowerCase() ?? '';
}

/** Whether a compound file holds a stream of this name (directory entries are UTF-16LE). */
function cfbHasStream(bytes: Uint8Array, name: string): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(Buffer.from(name, 'utf16le'));
}

const wantedPart = (name: string) => docxParts(name) || xlsxParts(name) || odfParts(name);

function zipFormat(zip: ZipParts, ext: string): OfficeFormat | undefined {
  if (zip.has('word/document.xml')) return 'docx';
  if (zip.has('xl/workbook.xml')) return 'xlsx';
  const mimetype = zip.text('mimetype')?.trim();
  if (mimetype === 'application/vnd.oasis.opendocument.text') return 'odt';
  if (mimetype === 'application/vnd.oasis.opendocument.spreadsheet') return 'ods';
  if (zip.has('content.xml') && (ext === 'odt' || ext === 'ods')) return ext;
  return undefined;
}

function readZip(bytes: Uint8Array, ext: string): { format: OfficeFormat; pages: FlowPage[] } {
  const label = ['docx', 'xlsx', 'odt', 'ods'].includes(ext) ? ext : 'zip';
  let zip: ZipParts;
  try {
    zip = openZip(bytes, wantedPart);
  } catch (error) {
    throw new UnsupportedDocumentError(`${OFFICE_MSG.damaged(label)} (${(error as Error).message})`);
  }
  const format = zipFormat(zip, ext);
  if (!format) throw new UnsupportedDocumentError(OFFICE_MSG.unknown);
  if ((format === 'odt' || format === 'ods') && odfEncrypted(zip)) throw new UnsupportedDocumentError(OFFICE_MSG.protected);
  try {
    const read = { docx: readDocx, xlsx: readXlsx, odt: readOdt, ods: readOds }[format as 'docx' | 'xlsx' | 'odt' | 'ods'];
    return { format, pages: read(zip) };
  } catch (error) {
    throw new UnsupportedDocumentError(`${OFFICE_MSG.damaged(format)} (${(error as Error).message})`);
  }
}

async function readCompound(bytes: Uint8Array, ext: string): Promise<{ format: OfficeFormat; pages: FlowPage[] }> {
  // A password-protected docx/xlsx is a compound file holding the encrypted package.
  if (cfbHasStream(bytes, 'EncryptedPackage') || cfbHasStream(bytes, 'EncryptionInfo')) throw new UnsupportedDocumentError(OFFICE_MSG.protected);
  const isDoc = ext === 'doc' || (ext !== 'xls' && cfbHasStream(bytes, 'WordDocument'));
  if (!isDoc) {
    if (ext === 'xls' || cfbHasStream(bytes, 'Workbook') || cfbHasStream(bytes, 'Book')) throw new UnsupportedDocumentError(OFFICE_MSG.xls);
    throw new UnsupportedDocumentError(OFFICE_MSG.unknown);
  }
  if (docEncrypted(bytes)) throw new UnsupportedDocumentError(OFFICE_MSG.protected);
  try {
    return { format: 'doc', pages: await readDoc(bytes) };
  } catch (error) {
    throw new UnsupportedDocumentError(`${OFFICE_MSG.damaged('doc')} (${(error as Error).message})`);
  }
}

/**
 * The text of an office document as positioned words (source `office`, confidence 99). The format comes
 * from the bytes (zip parts, compound-file streams, the RTF header); the name's extension only settles
 * what the bytes leave open.
 */
export async function readOfficeDocument(bytes: Uint8Array, fileName: string): Promise<OcrDocument> {
  const ext = extOf(fileName);
  let pages: FlowPage[];
  if (isRtf(bytes)) {
    try {
      pages = readRtf(bytes);
    } catch (error) {
      throw new UnsupportedDocumentError(`${OFFICE_MSG.damaged('rtf')} (${(error as Error).message})`);
    }
  } else if (startsWith(bytes, ZIP)) pages = readZip(bytes, ext).pages;
  else if (startsWith(bytes, CFB)) pages = (await readCompound(bytes, ext)).pages;
  else if (ext === 'rtf') throw new UnsupportedDocumentError(OFFICE_MSG.damaged('rtf'));
  else throw new UnsupportedDocumentError(ext ? OFFICE_MSG.damaged(ext) : OFFICE_MSG.unknown);
  const doc = layoutDocument(pages);
  if (!doc.pages.length) throw new UnsupportedDocumentError(OFFICE_MSG.noText);
  return doc;
}
