import type { ReceiptSummary } from '../../../shared/schemas/receipts';
import type { ListData } from '../../../web/src/features/live/lib/cache-updates';
import { EMPTY_FILTERS, listKeyParams, type ListKeyParams } from '../../../web/src/features/receipts/lib/list-params';

/** The key params of company c1's list of a status. */
export const list = (status: ListKeyParams['status'], over: Partial<ListKeyParams> = {}): ListKeyParams => ({
  ...listKeyParams(status, EMPTY_FILTERS, { kind: 'company', companyId: 'c1' }),
  ...over,
});

/** A cached infinite list of these pages of rows. */
export const data = (...pages: Array<ReceiptSummary[]>): ListData => ({
  pages: pages.map((items, i) => ({ items, next: i < pages.length - 1 ? `n${i}` : null, next_company: null })),
  pageParams: pages.map((_, i) => (i === 0 ? undefined : { next: `n${i - 1}` })),
});

/** A list row with every field set; override what a test is about. */
export function receipt(over: Partial<ReceiptSummary> = {}): ReceiptSummary {
  return {
    receipt_id: 'r1',
    company_id: 'c1',
    company_name: 'Alpha UAB',
    company_code: '111',
    user_id: 'u1',
    user: { name: 'Ona', surname: 'Onaitė' },
    receipt_type: 'receipt',
    status: 'review',
    flag: false,
    notes: '',
    category: null,
    original_file_name: 'receipt.jpg',
    email_id: null,
    duplicate_id: null,
    stakeholder_id: null,
    stakeholder: null,
    supplierCustomerName: 'Maxima',
    document_number: 'A-1',
    issue_date: '2024-03-05',
    total: '12.50',
    currency: 'EUR',
    stakeholder_date_format: null,
    can_be_restarted: false,
    disabled_for_editing: false,
    error: null,
    created_at: '2024-03-05T10:00:00.000Z',
    updated_at: '2024-03-05T10:00:00.000Z',
    version: 1,
    page_count: 1,
    upload_id: null,
    ...over,
  };
}
