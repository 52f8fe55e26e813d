/** GET /emails/{id}: the email a document arrived with (product.md section 3, Email record). */
import { z } from 'zod';

export const emailIdPathSchema = z.object({ id: z.string().trim().min(1).max(64) });
export const emailQuerySchema = z.object({ company_id: z.string().max(64).optional() });

/** Why nothing was taken from a mail without attachments (its notice and Settings' Mail received say it). */
export const NO_ATTACHMENT = 'It had no attachment: documents are taken from attached PDF, JPEG and PNG files and office documents.';

/** A page of GET /emails: the mail a company received, newest first. */
export const EMAIL_LIST_PAGE_SIZE = 20;
/**
 * The position after the last mail of a page, as GET /emails answers it (`next`): the record's arrival in the
 * company's list and its id. Any other text is refused before a query is made.
 */
export const emailListCursorSchema = z
  .string()
  .max(128)
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z#[A-Za-z0-9_-]{1,64}$/, 'Invalid next');
export const emailListQuerySchema = z.object({
  company_id: z.string().max(64).optional(),
  next: emailListCursorSchema.optional(),
  limit: z.coerce.number().int().min(1).max(EMAIL_LIST_PAGE_SIZE).default(EMAIL_LIST_PAGE_SIZE),
});

/** A sender check of the receiving mail server: SPF, DKIM, DMARC, spam and virus scans. */
export type MailVerdict = 'pass' | 'fail' | 'softfail' | 'neutral' | 'none' | 'gray' | 'temperror' | 'permerror' | 'unknown';

export interface EmailAuthView {
  spf: MailVerdict;
  dkim: MailVerdict;
  dmarc: MailVerdict;
  spam: MailVerdict;
  virus: MailVerdict;
  /** Set when a check failed: the sender may be forged and is not trusted. */
  warning: string | null;
}

export interface EmailView {
  email_id: string;
  company_id: string;
  subject: string;
  from: string;
  /** The email-in address the message was taken from. */
  to: string;
  arrived_at: string;
  text: string;
  /**
   * The documents made from the message that still exist; `failed`: why one could not be read (it waits in Failed,
   * e.g. over the monthly limit), absent while it is read or was read.
   */
  files: { receipt_id: string; original_file_name: string; failed?: string }[];
  /** Parts of the message that did not become documents, with the reason. */
  rejected_files: { original_file_name: string; reason: string }[];
  /** Why nothing of the mail was taken because of its sender (the company's allowed senders), or null. */
  sender_refused: string | null;
  receipt_type: 'receipt' | 'invoice';
  auth: EmailAuthView;
  /** receiving while the documents are being created, done afterwards. */
  state: 'receiving' | 'done';
}

/** A mail of GET /emails: the record without its text (the panel, GET /emails/{id}, shows it). */
export type EmailListItem = Omit<EmailView, 'text'>;

export interface EmailListPage {
  items: EmailListItem[];
  /** Give it back as `next` for the older mail; null at the end. */
  next: string | null;
}
