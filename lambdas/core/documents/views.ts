/** Records → the API's shapes (product.md section 3, Receipt). */
import type { ContentItem } from '../../../shared/schemas/content';
import type { HistoryEntry, Receipt, ReceiptPage, ReceiptSummary } from '../../../shared/schemas/receipts';
import { disabledForEditing, RESTARTABLE_STATUSES } from './status-machine';
import type { DocumentRecord, HistoryRecord } from './types';

export function toSummary(doc: DocumentRecord): ReceiptSummary {
  return {
    receipt_id: doc.receipt_id,
    company_id: doc.company_id,
    company_name: doc.company_name,
    company_code: doc.company_code,
    user_id: doc.user_id,
    user: { name: doc.user.name, surname: doc.user.surname },
    receipt_type: doc.receipt_type,
    status: doc.status,
    flag: doc.flag,
    notes: doc.notes,
    category: doc.category,
    category_id: doc.category_id ?? null,
    external_category_id: doc.external_category_id ?? null,
    original_file_name: doc.original_file_name,
    email_id: doc.email_id,
    duplicate_id: doc.duplicate_id,
    ...(doc.same_document ? { same_document: true as const } : {}),
    stakeholder_id: doc.stakeholder_id,
    stakeholder: doc.counterparty_name ? { name: doc.counterparty_name } : null,
    supplierCustomerName: doc.counterparty_name,
    document_number: doc.document_number,
    issue_date: doc.issue_date,
    total: doc.total,
    currency: doc.currency,
    stakeholder_date_format: doc.stakeholder_date_format ?? null,
    // A failed document moved on (rejected) keeps its stored flag, but Try Again starts only failed and error ones.
    can_be_restarted: doc.can_be_restarted && RESTARTABLE_STATUSES.includes(doc.status),
    disabled_for_editing: disabledForEditing(doc),
    error: doc.error_message ? { message: doc.error_message } : null,
    created_at: doc.created_at,
    updated_at: doc.updated_at,
    version: doc.version,
    page_count: doc.pages.length,
    upload_id: doc.upload_id,
  };
}

export function toHistoryEntry(h: HistoryRecord): HistoryEntry {
  return { id: h.id, date: h.date, name: h.name, user: { name: h.user.name, surname: h.user.surname } };
}

export function toDetail(
  doc: DocumentRecord,
  content: ContentItem[] | undefined,
  pageUrls: (string | null)[],
  history: HistoryRecord[],
): Receipt {
  const pages: ReceiptPage[] = doc.pages.map((p, i) => ({
    page: p.page,
    document: p.document,
    url: pageUrls[i] ?? null,
    status: p.status,
    width: p.width,
    height: p.height,
  }));
  return {
    ...toSummary(doc),
    content: content ?? [],
    pages,
    related_documents: doc.related_documents,
    available_template: false,
    history: history.map(toHistoryEntry),
  };
}
