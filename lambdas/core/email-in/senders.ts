/**
 * The company's allowed senders (Settings → Email-in): when the list is not empty, Email-in takes mail only from an
 * address on it or from an address of a domain on it (its subdomains too), and only when the receiving server did
 * not find the sender forged (SPF, DKIM or DMARC failed: the From address proves nothing then). Mail from anyone else
 * is recorded with every part not taken and the reason — it shows in the company's mail list and the owner's
 * notice — and makes no document and uses none of the month's quota.
 */
import type { EmailAuthView } from '../../../shared/schemas/emails';
import type { MailAttachment, ParsedMail } from './mime';

export const SENDER_NOT_ALLOWED = 'Not taken: the sender is not on the allowed senders list';
export const SENDER_NOT_VERIFIED = 'Not taken: the sender could not be verified, and only allowed senders are taken';

/** Whether the address is on the list: the address itself, or its domain or a parent domain of it. */
export function isAllowedSender(senders: readonly string[], address: string): boolean {
  const from = address.trim().toLowerCase();
  const at = from.lastIndexOf('@');
  if (at <= 0) return false;
  const domain = from.slice(at + 1);
  return senders.some((s) => (s.includes('@') ? s === from : domain === s || domain.endsWith(`.${s}`)));
}

function forged(auth: EmailAuthView): boolean {
  return ['fail', 'softfail'].includes(auth.spf) || auth.dkim === 'fail' || auth.dmarc === 'fail';
}

/** Why the company takes nothing of the mail, or null when it takes it (no list, or an allowed and unforged sender). */
export function senderRefusal(senders: readonly string[] | undefined, mail: Pick<ParsedMail, 'from_address' | 'auth'>): string | null {
  if (!senders?.length) return null;
  if (!isAllowedSender(senders, mail.from_address)) return SENDER_NOT_ALLOWED;
  return forged(mail.auth) ? SENDER_NOT_VERIFIED : null;
}

/** The parts of a refused mail as the record lists them: each attachment with the reason, then those not taken anyway. */
export function refusedParts(mail: Pick<ParsedMail, 'attachments' | 'rejected'>, reason: string): ParsedMail['rejected'] {
  return [...mail.attachments.map((a: MailAttachment) => ({ original_file_name: a.original_file_name, reason })), ...mail.rejected];
}
