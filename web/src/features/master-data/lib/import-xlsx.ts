/** Rules of the Upload XLSX pop-up (rules.md 5 Uploads): .xlsx and .xls only, at most 10 MB. */
import { XLSX_MAX_BYTES } from '../../../../../shared/constants';
import { XLSX_CONTENT_TYPES, type ImportResult, type ImportType } from '../../../../../shared/schemas/master-data';
import { UPLOAD_MSG } from '../../../../../shared/schemas/receipts';

export const IMPORT_EXTENSIONS = ['xlsx', 'xls'] as const;
export const IMPORT_ACCEPT = '.xlsx,.xls,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,application/vnd.ms-excel';
export const MSG_IMPORT_TOO_BIG = 'File size limits 10MB';
/** How often the pop-up asks how the import goes. */
export const IMPORT_POLL_MS = 1000;

const CONTENT_TYPE: Record<(typeof IMPORT_EXTENSIONS)[number], (typeof XLSX_CONTENT_TYPES)[number]> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xls: 'application/vnd.ms-excel',
};

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot >= 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** The message for a file the pop-up refuses before sending anything, or null when it may be sent. */
export function validateImportFile(file: { name: string; size: number }): string | null {
  if (!(IMPORT_EXTENSIONS as readonly string[]).includes(extensionOf(file.name))) return UPLOAD_MSG.typeNotAllowed;
  if (file.size > XLSX_MAX_BYTES) return MSG_IMPORT_TOO_BIG;
  if (file.size === 0) return UPLOAD_MSG.empty;
  return null;
}

/** The content type to sign: the one of the extension (browsers report odd or empty types for spreadsheets). */
export function importContentType(file: { name: string }): (typeof XLSX_CONTENT_TYPES)[number] {
  return extensionOf(file.name) === 'xls' ? CONTENT_TYPE.xls : CONTENT_TYPE.xlsx;
}

const NOUN: Record<ImportType, [string, string]> = {
  suppliers: ['supplier', 'suppliers'],
  customers: ['customer', 'customers'],
  categories: ['category', 'categories'],
  items: ['item', 'items'],
};

const count = (n: number, [one, many]: [string, string]) => `${n} ${n === 1 ? one : many}`;

/** The result line: "3 suppliers created, 1 updated, 5 unchanged, 2 rows rejected" (unchanged only when there are any). */
export function importSummary(result: Pick<ImportResult, 'upload_type' | 'created' | 'updated' | 'unchanged' | 'rejected'>): string {
  const parts = [`${count(result.created, NOUN[result.upload_type])} created`, `${result.updated} updated`];
  if (result.unchanged > 0) parts.push(`${result.unchanged} unchanged`);
  parts.push(`${count(result.rejected.length, ['row', 'rows'])} rejected`);
  return parts.join(', ');
}

/** Rows the import has applied or rejected so far. */
export const rowsDone = (result: Pick<ImportResult, 'created' | 'updated' | 'unchanged' | 'rejected'>) =>
  result.created + result.updated + result.unchanged + result.rejected.length;

export const isFinished = (result: Pick<ImportResult, 'status'>) => result.status === 'done' || result.status === 'failed';
