/** Records of email-in as the store keeps them. */
import type { EmailAuthView } from '../../../shared/schemas/emails';
import type { ReceiptType } from '../documents/types';

/** An email-in address claim: the company's address, or a member's personal address (with user_id). */
export interface EmailInClaim {
  address: string;
  company_id: string;
  /** Set for a member's personal Email-in address: that member owns the documents. */
  user_id?: string | null;
}

export interface EmailRecord {
  email_id: string;
  company_id: string;
  /** Who owns the documents made from it. */
  owner_id: string;
  /** The email-in address it was taken from (as the claim writes it). */
  address: string;
  /**
   * This company's addresses the message was sent to, as addressed (`acme+sales@…`, in the stored domain): what the
   * list of mail shows. Absent on records received before (the list shows `address`).
   */
  to_addresses?: string[];
  message_id: string | null;
  content_hash: string;
  subject: string;
  from: string;
  from_address: string;
  arrived_at: string;
  text: string;
  receipt_type: ReceiptType;
  files: { receipt_id: string; original_file_name: string }[];
  rejected_files: { original_file_name: string; reason: string }[];
  /**
   * Why the company took nothing of the mail because of its sender (the allowed senders), or null: decided when the
   * record is made, and followed by every later delivery whatever the list says by then. Absent on older records.
   */
  sender_refused?: string | null;
  auth: EmailAuthView;
  /** S3 key of the raw message (one object for every company the message was addressed to). */
  raw_key: string;
  /**
   * Every company the message was addressed to (this one included): the raw message is theirs too, so the purge of
   * one deleted company removes it only when none of the others keeps its record. Absent on records received before.
   */
  to_companies?: string[];
  /** receiving: documents being created; done: every accepted attachment has its upload and document id. */
  state: 'receiving' | 'done';
  created_at: string;
}

/**
 * What the list of a company's mail (GET /emails, E10) reads of each record: everything it shows, not the text (the
 * panel reads that with the record, E6), so a page of long mails stays one small read.
 */
export const EMAIL_SUMMARY_ATTRIBUTES = [
  'email_id', 'company_id', 'subject', 'from', 'address', 'to_addresses', 'arrived_at', 'files', 'rejected_files', 'sender_refused', 'receipt_type', 'auth', 'state',
] as const;
export type EmailSummary = Pick<EmailRecord, (typeof EMAIL_SUMMARY_ATTRIBUTES)[number]>;
