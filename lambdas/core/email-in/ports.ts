/** What email-in needs from the outside world; adapters implement it. */
import type { EmailInClaim, EmailRecord, EmailSummary } from './types';

export interface EmailStore {
  /** The claim of an email-in address (company or member), if any. */
  claim(address: string): Promise<EmailInClaim | undefined>;
  get(emailId: string): Promise<EmailRecord | undefined>;
  /**
   * A page of the company's records, newest first (E10): `after` is the position a previous page ended at
   * (`<created_at>#<email id>`, the `next` it gave), `next` the position of this page's last record while older
   * ones may follow, else null.
   */
  listOfCompany(companyId: string, page: { after?: string; limit: number }): Promise<{ items: EmailSummary[]; next: string | null }>;
  /** Creates the record unless it exists (the marker that makes a redelivered message create nothing); false when it existed. */
  create(record: EmailRecord): Promise<boolean>;
  /**
   * receiving → done with the documents made from the message, conditionally: true for the one call that moved
   * the record, false when it was done already (another delivery of the same message finished it).
   */
  finish(emailId: string, files: EmailRecord['files']): Promise<boolean>;
  /**
   * Counts one notice to the owner of the address in the hour (`YYYY-MM-DDTHH`, UTC), conditionally (E7): true when
   * fewer than `max` were counted in that hour, false (nothing counted) when `max` were. `expiresAt` (epoch
   * seconds): when the count may be removed.
   */
  countNotice(address: string, hour: string, max: number, expiresAt: number): Promise<boolean>;
  /**
   * Keeps the envelope recipients of a message SES received (its receipt rule's Lambda action, before the raw message
   * is stored under `inbound/<messageId>`), until `expiresAt` (epoch seconds): the stored message itself names no
   * recipient that only the envelope had (a Bcc), when it had several (E11).
   */
  putEnvelope(messageId: string, recipients: string[], expiresAt: number): Promise<void>;
  /** The envelope recipients kept for SES's message id, if any (E12). */
  envelope(messageId: string): Promise<string[] | undefined>;
}
