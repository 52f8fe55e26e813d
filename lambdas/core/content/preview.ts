/**
 * GET receipts/{id}/preview: what a quick look at a document needs: its page images and the main values
 * (document number, date, counterparty, totals) with their labels.
 */
import type { ContentCaller, ContentPorts } from './ports';
import { loadContent } from './service';
import { stakeholderKind } from './schema';
import { valueOf } from './tree';

export async function getPreview(ports: ContentPorts, caller: ContentCaller, receiptId: string) {
  const l = await loadContent(ports, caller, receiptId);
  const kind = stakeholderKind(l.record.receipt_type);
  const ids = ['document_id', 'issue_date', `${kind}_name`, 'currency', 'amount_total_base', 'amount_tax', 'amount_total'];
  const labels = new Map(l.schema.map((f) => [f.id, f.label]));
  const pages = await Promise.all(
    l.record.pages.map(async (p) => ({
      page: p.page,
      document: p.document,
      status: p.status,
      url: ports.documents.pageUrl ? await ports.documents.pageUrl(l.record, p.page) : null,
    })),
  );
  return {
    receipt_id: l.record.receipt_id,
    receipt_type: l.record.receipt_type,
    status: l.record.status,
    original_file_name: l.record.original_file_name,
    pages,
    fields: ids.map((id) => ({ id, label: labels.get(id) ?? id, value: valueOf(l.doc, id) })),
  };
}
