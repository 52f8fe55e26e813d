import { isoCurrency } from '../../../../../shared/currency';
import { exportRecordField } from '../../../../../shared/schemas/content';
import { STATUS_TITLES } from '../../../../../shared/status';
import { isReceiptStatus } from '../../receipts/lib/status';
import { contentValue, receiptSummary, type ReceiptLike } from '../../receipts/lib/summary';
import { csvHeader, pdfTitle, type ExportField } from './fields';

export const TYPE_LABELS = { receipt: 'Receipt', invoice: 'Invoice' } as const;

/** The value of one export field for one document ('' when it has none). */
export function exportValue(receipt: ReceiptLike, key: string): string {
  const s = receiptSummary(receipt);
  switch (key) {
    case 'user':
      return s.owner;
    case 'type':
      return TYPE_LABELS[receipt.receipt_type] ?? receipt.receipt_type ?? '';
    case 'date':
      return s.date;
    case 'currency':
      return isoCurrency(s.currency);
    case 'status':
      return isReceiptStatus(receipt.status) ? STATUS_TITLES[receipt.status] : String(receipt.status ?? '');
    case 'total':
      return s.total;
    case 'tax':
      return s.tax;
    case 'supplier':
      return s.counterparty;
    case 'category':
      return s.category;
    case 'notes':
      return (receipt.notes ?? '').trim();
    default: {
      // an added field: a field of the document record (the file name, ...), else a content field of that id
      const recordField = exportRecordField(key);
      return recordField ? (receipt[recordField] ?? '').trim() : contentValue(receipt.content, key);
    }
  }
}

export interface ExportTable {
  headers: string[];
  rows: string[][];
}

/** Headers (CSV: upper-cased; PDF: readable titles) and one row per document, columns in the list's order. */
export function exportTable(receipts: ReadonlyArray<ReceiptLike>, fields: ReadonlyArray<ExportField>, kind: 'csv' | 'pdf'): ExportTable {
  return {
    headers: fields.map((f) => (kind === 'csv' ? csvHeader(f) : pdfTitle(f))),
    rows: receipts.map((r) => fields.map((f) => exportValue(r, f.key))),
  };
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** The default file name: 'report-' plus the current date (YYYY-MM-DD). */
export function defaultReportName(now: Date = new Date()): string {
  return `report-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * The file name to save: the typed name (or the default when blank), without characters file systems refuse,
 * with the extension added once.
 */
export function exportFileName(name: string, extension: 'csv' | 'pdf' | 'xml', now: Date = new Date()): string {
  const cleaned = name
    .trim()
    .replace(/[\\/:*?"<>|\u0000-\u001f]+/g, '-')
    .replace(/^\.+/, '');
  const base = cleaned || defaultReportName(now);
  const suffix = `.${extension}`;
  return base.toLowerCase().endsWith(suffix) ? base : `${base}${suffix}`;
}
