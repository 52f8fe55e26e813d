/**
 * What an export row holds. The export field list (default order user, type, date, currency, status,
 * total, tax, supplier, category, notes) can be reordered and renamed; any datapoint of the schema
 * (document_id, due_date, ...) can be added by its id. CSV headers are the titles upper-cased, PDF
 * column titles are the readable titles.
 */
import { isoCurrency } from '../../../shared/currency';
import { EXPORT_FIELDS, exportRecordField, exportTax } from '../../../shared/schemas/content';
import { STATUS_TITLES, type ReceiptStatus } from '../../../shared/status';
import { stakeholderKind } from '../content/schema';
import { rowsOf, valueOf, type ContentDocument } from '../content/tree';

/** The document as exports see it: the receipt record's fields the export needs, and its content. */
export interface ExportDocument {
  receipt_id: string;
  receipt_type: 'receipt' | 'invoice';
  status: string;
  created_at: string;
  original_file_name?: string | null;
  /** The document's company as the document keeps it (of its upload). */
  company_name?: string | null;
  company_code?: string | null;
  user?: { name?: string; surname?: string } | null;
  category?: string | null;
  notes?: string | null;
  content: ContentDocument;
}

/** The export's view of a stored document: the record's fields the export reads, and its content. */
export function toExportDocument(record: Omit<ExportDocument, 'content'>, content: ExportDocument['content']): ExportDocument {
  return {
    receipt_id: record.receipt_id,
    receipt_type: record.receipt_type,
    status: record.status,
    created_at: record.created_at,
    original_file_name: record.original_file_name,
    company_name: record.company_name,
    company_code: record.company_code,
    user: record.user,
    category: record.category,
    notes: record.notes,
    content,
  };
}

export interface ExportColumn {
  key: string;
  title: string;
}

const DEFAULT_TITLES: Record<string, string> = {
  user: 'User',
  type: 'Type',
  date: 'Date',
  currency: 'Currency',
  status: 'Status',
  total: 'Total',
  tax: 'Tax',
  supplier: 'Supplier',
  category: 'Category',
  notes: 'Notes',
};

function readable(key: string): string {
  if (DEFAULT_TITLES[key]) return DEFAULT_TITLES[key]!;
  const s = key.replace(/_/g, ' ').trim();
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/**
 * `fields` as sent by the export pop-up: `key` or `key:Title` items, comma-separated, in order. Blank keys
 * are dropped (a new field is added only if non-blank); without fields, the ten defaults.
 */
export function parseExportFields(fields: string | undefined): ExportColumn[] {
  const items = (fields ?? '')
    .split(',')
    .map((part) => {
      const [rawKey = '', ...rest] = part.split(':');
      const key = rawKey.trim();
      const title = rest.join(':').trim();
      return { key, title: title || readable(key) };
    })
    .filter((c) => c.key !== '');
  return items.length ? items : EXPORT_FIELDS.map((key) => ({ key, title: readable(key) }));
}

/** Tax: the tax total, else the sum of the VAT lines (`exportTax`). */
function taxOf(doc: ExportDocument): string {
  return exportTax(valueOf(doc.content, 'amount_tax'), rowsOf(doc.content, 'vat_lines').map((r) => r.vat_line_tax ?? ''));
}

export function exportValue(doc: ExportDocument, key: string): string {
  switch (key) {
    case 'user':
      return [doc.user?.name, doc.user?.surname].filter(Boolean).join(' ');
    case 'type':
      return doc.receipt_type === 'invoice' ? 'Invoice' : 'Receipt';
    case 'date':
      // The document's own date, as the browser's files write it: an upload date under DATE would book it wrongly
      return valueOf(doc.content, 'issue_date');
    case 'currency':
      return isoCurrency(valueOf(doc.content, 'currency'));
    case 'status':
      return STATUS_TITLES[doc.status as ReceiptStatus] ?? doc.status;
    case 'total':
      return valueOf(doc.content, 'amount_total');
    case 'tax':
      return taxOf(doc);
    case 'supplier':
      return valueOf(doc.content, `${stakeholderKind(doc.receipt_type)}_name`);
    case 'category':
      return doc.category ?? '';
    case 'notes':
      return doc.notes ?? '';
    default: {
      const recordField = exportRecordField(key);
      return recordField ? (doc[recordField] ?? '') : valueOf(doc.content, key);
    }
  }
}

export function exportTable(docs: ExportDocument[], columns: ExportColumn[]): string[][] {
  return docs.map((d) => columns.map((c) => exportValue(d, c.key)));
}

/** report-YYYY-MM-DD, or the given name without characters a file system would refuse. */
export function exportFileName(name: string | undefined, now: Date, extension: string): string {
  const base = (name ?? '').replace(/[\\/:*?"<>|\u0000-\u001f]/g, '').trim() || `report-${now.toISOString().slice(0, 10)}`;
  return base.toLowerCase().endsWith(`.${extension}`) ? base : `${base}.${extension}`;
}
