/**
 * Reading an uploaded workbook (XLSX or legacy XLS) into rows of cell texts, safely:
 * - the type is told by the bytes, never by the name: XLSX is a zip archive holding xl/workbook.xml,
 *   XLS an OLE2 compound file (the signature D0 CF 11 E0 A1 B1 1A E1);
 * - an XLSX is a zip, so a small file could expand into gigabytes: the archive's declared sizes are checked
 *   first (entries, each part, the total), then every part is inflated once with fflate into a buffer of its
 *   declared size and the workbook is re-packed uncompressed from what was inflated — so the parser
 *   (SheetJS, @e965/xlsx) only ever sees parts of the checked size, whatever the archive claims;
 * - rows come back as arrays of strings (SheetJS `header: 1`), never as objects keyed by cell text, so a
 *   header such as "__proto__" cannot reach an object's prototype;
 * - at most MAX_SHEET_ROWS rows of the first sheet are read.
 */
import * as XLSX from '@e965/xlsx';
import { unzipSync, zipSync, type Zippable } from 'fflate';

/** Sum of the declared uncompressed sizes of an XLSX's parts. */
export const XLSX_MAX_UNCOMPRESSED_BYTES = 128 * 1024 * 1024;
/** Largest single part of an XLSX. */
export const XLSX_MAX_PART_BYTES = 96 * 1024 * 1024;
/** Entries of an XLSX archive (a workbook has a few dozen). */
export const XLSX_MAX_ENTRIES = 2000;
/** Rows read from the sheet (header search rows included); more is refused. */
export const MAX_SHEET_ROWS = 50_000;
/** Columns kept of each row. */
export const MAX_COLUMNS = 100;
/** Longest cell text kept (longer texts are cut; the row schemas then refuse them). */
export const MAX_CELL_CHARS = 1000;

export type WorkbookKind = 'xlsx' | 'xls';

/** A file the import refuses as a whole; the message is shown to the user. */
export class WorkbookProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkbookProblem';
  }
}

export const WORKBOOK_MSG = {
  notWorkbook: 'This file type is not allowed: the file is not an .xlsx or .xls workbook',
  unreadable: 'The workbook could not be read; save it again as .xlsx or .xls and retry',
  tooLargeUnpacked: 'The workbook is too large when unpacked',
  tooManyRows: `The sheet has more than ${MAX_SHEET_ROWS} rows; split it into smaller files`,
  empty: 'The workbook has no sheet with data',
  encrypted: 'The workbook is password-protected; save it without a password and retry',
} as const;

const OLE2_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04];

const startsWith = (bytes: Uint8Array, signature: number[]) => signature.every((b, i) => bytes[i] === b);

interface ZipEntry {
  name: string;
  originalSize: number;
}

/** The entries of a zip archive as declared by its directory, nothing inflated. */
function zipEntries(bytes: Uint8Array): ZipEntry[] {
  const entries: ZipEntry[] = [];
  try {
    unzipSync(bytes, {
      filter: (f) => {
        entries.push({ name: f.name, originalSize: f.originalSize });
        if (entries.length > XLSX_MAX_ENTRIES) throw new WorkbookProblem(WORKBOOK_MSG.tooLargeUnpacked);
        return false;
      },
    });
  } catch (error) {
    if (error instanceof WorkbookProblem) throw error;
    throw new WorkbookProblem(WORKBOOK_MSG.unreadable);
  }
  return entries;
}

/**
 * The kind of workbook by content: xlsx (a zip with xl/workbook.xml), xls (an OLE2 compound file), or null.
 * An OLE2 file that is an encrypted OOXML workbook (EncryptedPackage) is refused later by the reader.
 */
export function sniffWorkbook(bytes: Uint8Array): WorkbookKind | null {
  if (bytes.length >= 8 && startsWith(bytes, OLE2_SIGNATURE)) return 'xls';
  if (bytes.length >= 4 && startsWith(bytes, ZIP_SIGNATURE)) {
    let entries: ZipEntry[];
    try {
      entries = zipEntries(bytes);
    } catch {
      return null;
    }
    return entries.some((e) => e.name === 'xl/workbook.xml' || e.name === 'xl/workbook.bin') ? 'xlsx' : null;
  }
  return null;
}

/**
 * The XLSX re-packed from parts inflated within their checked declared sizes (stored, not compressed):
 * what SheetJS parses can be no larger than what was checked.
 */
export function boundedXlsx(bytes: Uint8Array): Uint8Array {
  const entries = zipEntries(bytes);
  let total = 0;
  for (const e of entries) {
    if (e.originalSize > XLSX_MAX_PART_BYTES) throw new WorkbookProblem(WORKBOOK_MSG.tooLargeUnpacked);
    total += e.originalSize;
    if (total > XLSX_MAX_UNCOMPRESSED_BYTES) throw new WorkbookProblem(WORKBOOK_MSG.tooLargeUnpacked);
  }
  let parts: Record<string, Uint8Array>;
  try {
    // fflate inflates each part into a buffer of its declared size: a part that claims less than it holds is cut.
    parts = unzipSync(bytes);
  } catch {
    throw new WorkbookProblem(WORKBOOK_MSG.unreadable);
  }
  const repacked: Zippable = {};
  for (const [name, data] of Object.entries(parts)) repacked[name] = [data, { level: 0 }];
  return zipSync(repacked);
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? value : String(value);
  return text.length > MAX_CELL_CHARS ? text.slice(0, MAX_CELL_CHARS) : text;
}

export interface SheetRows {
  kind: WorkbookKind;
  /** Rows of the first sheet as cell texts; rows[i] is sheet row `firstRow + i` (1-based). */
  rows: string[][];
  firstRow: number;
}

/** Reads the first sheet of a workbook; WorkbookProblem with the user's message for anything that is not a readable workbook. */
/**
 * Cells are read as the sheet shows them (a code typed as 00123 stays 00123), but Excel's General format shows a
 * whole number of 12 digits or more as 1.23457E+11: codes and VAT numbers kept as numbers would lose their digits,
 * and two suppliers would share one code. Such whole numbers are read with all their digits.
 */
function writeLongIntegersInFull(sheet: XLSX.WorkSheet): void {
  const data = (sheet as { '!data'?: (XLSX.CellObject | undefined)[][] })['!data'];
  for (const row of data ?? []) {
    for (const cell of row ?? []) {
      if (cell?.t !== 'n' || typeof cell.v !== 'number' || !Number.isSafeInteger(cell.v)) continue;
      // Without a formatted text the General format is applied when reading, with the same exponent from 12 digits.
      if (cell.w === undefined ? Math.abs(cell.v) >= 1e11 : /e[+-]?\d/i.test(cell.w)) cell.w = String(cell.v);
    }
  }
}

export function readWorkbook(bytes: Uint8Array, limits: { maxRows?: number } = {}): SheetRows {
  const maxRows = limits.maxRows ?? MAX_SHEET_ROWS;
  const kind = sniffWorkbook(bytes);
  if (!kind) throw new WorkbookProblem(WORKBOOK_MSG.notWorkbook);
  const input = kind === 'xlsx' ? boundedXlsx(bytes) : bytes;
  let book: XLSX.WorkBook;
  try {
    book = XLSX.read(input, {
      type: 'array',
      sheets: 0,
      // One row more than allowed: to tell "more than the limit" from "exactly the limit".
      sheetRows: maxRows + 1,
      dense: true,
      cellFormula: false,
      cellHTML: false,
      cellStyles: false,
      bookVBA: false,
      bookDeps: false,
      WTF: false,
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    if (/password|encrypt/i.test(message)) throw new WorkbookProblem(WORKBOOK_MSG.encrypted);
    throw new WorkbookProblem(WORKBOOK_MSG.unreadable);
  }
  const sheetName = book.SheetNames[0];
  const sheet = sheetName ? book.Sheets[sheetName] : undefined;
  if (!sheet || !sheet['!ref']) throw new WorkbookProblem(WORKBOOK_MSG.empty);
  const range = XLSX.utils.decode_range(sheet['!ref']);
  writeLongIntegersInFull(sheet);
  const raw = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: false, defval: '', blankrows: true });
  if (raw.length > maxRows) throw new WorkbookProblem(maxRows === MAX_SHEET_ROWS ? WORKBOOK_MSG.tooManyRows : `The sheet has more than ${maxRows} rows; split it into smaller files`);
  const firstColumn = range.s.c;
  const rows = raw.map((row) => {
    const cells: string[] = [];
    // Cells are addressed from column A, so that column letters in messages would mean what the user sees.
    for (let c = 0; c < firstColumn && c < MAX_COLUMNS; c++) cells.push('');
    for (let i = 0; i < row.length && cells.length < MAX_COLUMNS; i++) cells.push(cellText(row[i]));
    return cells;
  });
  return { kind, rows, firstRow: range.s.r + 1 };
}
