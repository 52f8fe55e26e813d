/**
 * Document records written straight to the table (list, search and benchmark seeds): every field a
 * processed document has, with neutral values, the given ones on top, and the search text of the result.
 */
import { documentItemsWithIndex } from '../../lambdas/adapters/ddb/documents-store';
import { batchWrite } from '../../lambdas/adapters/ddb/table-ops';
import { searchTextOf } from '../../lambdas/core/documents/list';
import type { DocumentRecord, ReceiptStatus } from '../../lambdas/core/documents/types';

export type SeededFields = Pick<DocumentRecord, 'receipt_id' | 'scope' | 'created_at'> & Partial<DocumentRecord>;

export function seededDocument(fields: SeededFields): DocumentRecord {
  const companyId = fields.scope.startsWith('C#') ? fields.scope.slice(2) : null;
  const doc: DocumentRecord = {
    company_id: companyId,
    company_name: 'Seeded',
    company_code: '1',
    user_id: 'seed',
    user: { name: 'Seed', surname: 'User' },
    receipt_type: 'receipt',
    status: companyId ? 'review' : 'unassigned',
    flag: false,
    notes: '',
    category: null,
    original_file_name: 'file.pdf',
    email_id: null,
    duplicate_id: null,
    stakeholder_id: null,
    counterparty_name: '',
    document_number: '',
    issue_date: null,
    total: null,
    currency: 'EUR',
    key_digest: null,
    can_be_restarted: false,
    error_message: null,
    updated_at: fields.created_at,
    version: 1,
    upload_id: null,
    mode: 'single',
    split_page: null,
    upload_type: null,
    process_rows: true,
    source: null,
    pages: [],
    content_key: null,
    boxes_key: null,
    related_documents: [],
    charged_month: null,
    processing_run: 1,
    ...fields,
    search_text: '',
  };
  doc.search_text = searchTextOf(doc);
  return doc;
}

/**
 * The row `i` (0 = the newest) of a seeded list of `count` documents of a company, one hour apart from 2025-01-01:
 * a processed one-page document of "Supplier <i> UAB", number INV-<i>, total <i + 1>.50, file scan-<i>.pdf.
 */
export function listRowDocument(companyId: string, receiptId: string, i: number, count: number, status: ReceiptStatus): DocumentRecord {
  return seededDocument({
    receipt_id: receiptId,
    scope: `C#${companyId}`,
    created_at: new Date(Date.UTC(2025, 0, 1) + (count - i) * 3_600_000).toISOString(),
    status,
    original_file_name: `scan-${i}.pdf`,
    counterparty_name: `Supplier ${i} UAB`,
    document_number: `INV-${i}`,
    issue_date: '2025-01-05',
    total: `${i + 1}.50`,
    version: 2,
    pages: [{ page: 1, document: `scan-${i}.pdf`, image_key: null, status: 'processed', width: 1200, height: 1700 }],
  });
}

/** Writes the documents with their list and search items straight to the table, 25 items a batch. */
export async function writeDocuments(docs: DocumentRecord[]): Promise<void> {
  const items = docs.flatMap((d) => documentItemsWithIndex(d));
  for (let i = 0; i < items.length; i += 25) await batchWrite(items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })));
}
