/**
 * Document records written straight to the table (list, search and benchmark seeds): every field a
 * processed document has, with neutral values, the given ones on top, and the search text of the result.
 */
import { searchTextOf } from '../../lambdas/core/documents/list';
import type { DocumentRecord } from '../../lambdas/core/documents/types';

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
