/**
 * What the export pop-up keeps on this browser between exports: a person's spreadsheet settings and the columns
 * they book with do not change from one export to the next. Private mode (no storage): the choice lasts for the
 * pop-up.
 */
import { z } from 'zod';
import { isCsvFormat, type CsvFormat } from './csv';
import { defaultExportFields, type ExportField } from './fields';

const CSV_FORMAT_KEY = 'export_csv_format';
const FIELDS_KEY = 'export_fields';
/** More columns than any export makes sense of: a stored list beyond it is not taken. */
const FIELDS_MAX = 100;

const storedFieldsSchema = z
  .array(z.object({ id: z.string().min(1).max(200), key: z.string().min(1).max(200), label: z.string().trim().min(1).max(200) }))
  .min(1)
  .max(FIELDS_MAX);

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    /* private mode */
  }
}

/** The CSV format last chosen, else comma-separated. */
export function storedCsvFormat(): CsvFormat {
  const v = read(CSV_FORMAT_KEY);
  return isCsvFormat(v) ? v : 'comma';
}

export function rememberCsvFormat(format: CsvFormat): void {
  write(CSV_FORMAT_KEY, format);
}

/** The fields of the last CSV or PDF export (added, renamed, in their order), else the ten default ones. */
export function storedExportFields(): ExportField[] {
  try {
    const parsed = storedFieldsSchema.safeParse(JSON.parse(read(FIELDS_KEY) ?? 'null'));
    return parsed.success ? parsed.data : defaultExportFields();
  } catch {
    return defaultExportFields();
  }
}

export function rememberExportFields(fields: ReadonlyArray<ExportField>): void {
  write(FIELDS_KEY, JSON.stringify(fields.map(({ id, key, label }) => ({ id, key, label }))));
}
