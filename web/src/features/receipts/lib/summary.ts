import { exportTax } from '../../../../../shared/schemas/content';
import { fullName } from '../../../lib/format';
import type { Receipt } from '../api/types';

/** The part of a content item (shared/schemas/content) the summary reads. */
export interface ContentNode {
  schema_id: string;
  content?: { value?: unknown } | null;
  children?: ReadonlyArray<ContentNode> | null;
}

/** Content field ids of recognised header values, as fallbacks when a summary field is empty. */
export const CONTENT_IDS = {
  documentNumber: ['document_id', 'invoice_number'],
  date: ['issue_date'],
  total: ['amount_total'],
  tax: ['amount_tax'],
  currency: ['currency'],
} as const;

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

/** The first non-empty value of a content field (depth first), by schema_id. */
export function contentValue(content: ReadonlyArray<ContentNode> | null | undefined, schemaId: string): string {
  if (!content) return '';
  for (const item of content) {
    if (item.schema_id === schemaId) {
      const v = text(item.content?.value);
      if (v) return v;
    }
    const nested = contentValue(item.children, schemaId);
    if (nested) return nested;
  }
  return '';
}

/** Every non-empty value of a content field (depth first), by schema_id: the cells of one column of a table. */
export function contentValues(content: ReadonlyArray<ContentNode> | null | undefined, schemaId: string): string[] {
  if (!content) return [];
  return content.flatMap((item) => {
    const own = item.schema_id === schemaId ? text(item.content?.value) : '';
    return [...(own ? [own] : []), ...contentValues(item.children, schemaId)];
  });
}

/** A list row, or a full document with its content. */
export type ReceiptLike = Receipt & { content?: ReadonlyArray<ContentNode> | null };

function firstOf(receipt: ReceiptLike, direct: unknown, ids: ReadonlyArray<string>): string {
  const d = text(direct);
  if (d) return d;
  for (const id of ids) {
    const v = contentValue(receipt.content, id);
    if (v) return v;
  }
  return '';
}

/** Supplier (receipts) or customer (invoices). */
export function counterpartyName(receipt: ReceiptLike): string {
  const direct = text(receipt.supplierCustomerName) || text(receipt.stakeholder?.name);
  if (direct) return direct;
  return contentValue(receipt.content, receipt.receipt_type === 'invoice' ? 'customer_name' : 'supplier_name');
}

export interface RowSummary {
  counterparty: string;
  documentNumber: string;
  /** YYYY-MM-DD as recognised, or ''. */
  date: string;
  total: string;
  tax: string;
  currency: string;
  fileName: string;
  owner: string;
  category: string;
}

/** The values a list row and an export show, from the list item or its content. */
export function receiptSummary(receipt: ReceiptLike): RowSummary {
  return {
    counterparty: counterpartyName(receipt),
    documentNumber: firstOf(receipt, receipt.document_number, CONTENT_IDS.documentNumber),
    date: firstOf(receipt, receipt.issue_date, CONTENT_IDS.date),
    total: firstOf(receipt, receipt.total, CONTENT_IDS.total),
    tax: exportTax(firstOf(receipt, undefined, CONTENT_IDS.tax), contentValues(receipt.content, 'vat_line_tax')),
    currency: firstOf(receipt, receipt.currency, CONTENT_IDS.currency),
    fileName: text(receipt.original_file_name),
    owner: fullName(receipt.user ?? undefined),
    category: text(receipt.category),
  };
}

/** '12.50 EUR' (or just the amount). */
export function formatTotal(total: string, currency: string): string {
  if (!total) return '';
  return currency ? `${total} ${currency}` : total;
}

/** How a list row's controls name their document ('Open scan.pdf', 'Flag scan.pdf'): its file name, else its id. */
export function documentName(receipt: Pick<Receipt, 'original_file_name' | 'receipt_id'>): string {
  return (typeof receipt.original_file_name === 'string' ? receipt.original_file_name.trim() : '') || receipt.receipt_id;
}
