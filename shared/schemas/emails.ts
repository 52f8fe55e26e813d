/** GET /emails/{id}: the email a document arrived with (product.md section 3, Email record). */
import { z } from 'zod';

export const emailIdPathSchema = z.object({ id: z.string().trim().min(1).max(64) });
export const emailQuerySchema = z.object({ company_id: z.string().max(64).optional() });

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
  files: { receipt_id: string; original_file_name: string }[];
  /** Parts of the message that did not become documents, with the reason. */
  rejected_files: { original_file_name: string; reason: string }[];
  receipt_type: 'receipt' | 'invoice';
  auth: EmailAuthView;
  /** receiving while the documents are being created, done afterwards. */
  state: 'receiving' | 'done';
}
