import type {
  ContentItem as SharedContentItem,
  ListReceiptsResponse,
  Receipt as ReceiptDetail,
  ReceiptPage,
  ReceiptSummary,
  ReceiptType,
} from '../../../../../shared/schemas/receipts';

/** A list row (GET /receipts items); GET /receipts/{id} adds content, pages, history (ReceiptDetail). */
export type Receipt = ReceiptSummary;
export type { ReceiptDetail, ReceiptPage, ReceiptType };
export type ReceiptListPage = ListReceiptsResponse;
export type ContentItem = SharedContentItem;

/** GET /receipts/{id}/preview: page images and the main values with their labels. */
export interface ReceiptPreview {
  receipt_id: string;
  receipt_type: ReceiptType;
  status: string;
  original_file_name: string;
  pages: Array<{ page: number; document: string; status: string; url: string | null }>;
  fields: Array<{ id: string; label: string; value: string | null }>;
}

/** GET /emails/{id} (product.md section 3, Email record). */
export interface EmailRecord {
  subject?: string | null;
  from?: string | null;
  arrived_at?: string | null;
  text?: string | null;
  /** `failed`: why the document could not be read (it waits in Failed). */
  files?: Array<{ receipt_id: string; original_file_name?: string | null; failed?: string }>;
  /** Email-in: the address it was taken from, parts that did not become documents, the mail server's sender checks. */
  to?: string | null;
  rejected_files?: Array<{ original_file_name: string; reason: string }>;
  /** Why nothing of the mail was taken because of its sender (the company's allowed senders), or null. */
  sender_refused?: string | null;
  company_id?: string;
  auth?: { spf: string; dkim: string; dmarc: string; spam: string; virus: string; warning: string | null } | null;
  state?: 'receiving' | 'done';
}

/** A member of the company for the upload's Owner dropdown (GET /company/users). */
export interface CompanyUser {
  user_id: string;
  company_id?: string;
  name?: string | null;
  surname?: string | null;
  role?: 'admin' | 'basic';
  email?: string | null;
  user?: { email?: string | null } | null;
}
