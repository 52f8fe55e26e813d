/**
 * The company's allowed senders (Settings → Email-in): when the list is not empty, Email-in takes mail only from an
 * address on it (its `+tag` variants too) or from an address of a domain on it (its subdomains too), and only when
 * the From address is not forged: in AWS the receiving server (SES) must have proved its domain (DMARC pass, or a
 * DKIM or SPF pass of that domain: auth.ts `fromProven`), and a failed SPF, DKIM or DMARC check refuses the mail
 * anywhere. Local mode's SMTP server checks no sender, so there the From address is taken as written. Mail from anyone
 * else is recorded with the reason (the record's `sender_refused`; every part not taken with it) — it shows in the
 * company's mail list — and makes no document, uses none of the month's quota and sends no notice.
 */
import type { EmailAuthView } from '../../../shared/schemas/emails';
import type { MailAttachment, ParsedMail } from './mime';

export const SENDER_NOT_ALLOWED = 'Not taken: the sender is not on the allowed senders list';
export const SENDER_NOT_VERIFIED = 'Not taken: the sender could not be verified, and only allowed senders are taken';

/** An address without its `+tag` (`anna+invoices@x` is anna's mailbox), lower case. */
function mailboxOf(address: string): string {
  const at = address.lastIndexOf('@');
  return `${address.slice(0, at).replace(/\+.*$/, '')}${address.slice(at)}`;
}

/** Whether the address is on the list: the address itself (with or without a `+tag`), or its domain or a parent domain of it. */
export function isAllowedSender(senders: readonly string[], address: string): boolean {
  const from = address.trim().toLowerCase();
  const at = from.lastIndexOf('@');
  if (at <= 0) return false;
  const domain = from.slice(at + 1);
  return senders.some((s) => (s.includes('@') ? mailboxOf(s) === mailboxOf(from) : domain === s || domain.endsWith(`.${s}`)));
}

function forged(auth: EmailAuthView): boolean {
  return ['fail', 'softfail'].includes(auth.spf) || auth.dkim === 'fail' || auth.dmarc === 'fail';
}

/**
 * Why the company takes nothing of the mail, or null when it takes it (no list, or an allowed sender whose address
 * is not forged). `serverChecksSenders`: the receiving server checked the sender (SES), so its proof is required.
 */
export function senderRefusal(
  senders: readonly string[] | undefined,
  mail: Pick<ParsedMail, 'from_address' | 'auth' | 'from_proven'>,
  serverChecksSenders: boolean,
): string | null {
  if (!senders?.length) return null;
  if (!isAllowedSender(senders, mail.from_address)) return SENDER_NOT_ALLOWED;
  if (forged(mail.auth) || (serverChecksSenders && !mail.from_proven)) return SENDER_NOT_VERIFIED;
  return null;
}

/** The parts of a refused mail as the record lists them: each attachment with the reason, then those not taken anyway. */
export function refusedParts(mail: Pick<ParsedMail, 'attachments' | 'rejected'>, reason: string): ParsedMail['rejected'] {
  return [...mail.attachments.map((a: MailAttachment) => ({ original_file_name: a.original_file_name, reason })), ...mail.rejected];
}
