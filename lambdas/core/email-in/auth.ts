/**
 * The sender checks the receiving mail server wrote into the message: SES prepends `Received-SPF`,
 * `Authentication-Results` (spf, dkim, dmarc), `X-SES-Spam-Verdict` and `X-SES-Virus-Verdict`; the local
 * SMTP server prepends its own `Authentication-Results` (spf=none, it checks nothing). Only the topmost header
 * of each kind is read: the receiving server prepends it, lower ones may have been written by the sender.
 */
import type { EmailAuthView, MailVerdict } from '../../../shared/schemas/emails';

export interface MailHeader {
  key: string;
  value: string;
}

const VERDICTS: readonly MailVerdict[] = ['pass', 'fail', 'softfail', 'neutral', 'none', 'gray', 'temperror', 'permerror'];

function verdict(word: string | undefined): MailVerdict {
  const w = (word ?? '').trim().toLowerCase();
  if (w === 'hardfail') return 'fail';
  if (w === 'processing_failed') return 'temperror';
  return (VERDICTS as readonly string[]).includes(w) ? (w as MailVerdict) : 'unknown';
}

function first(headers: MailHeader[], key: string): string | undefined {
  return headers.find((h) => h.key === key)?.value;
}

/** `method=result` of one Authentication-Results header (RFC 8601), the first result of each method. */
export function authResults(value: string | undefined): Partial<Record<'spf' | 'dkim' | 'dmarc', MailVerdict>> {
  const out: Partial<Record<'spf' | 'dkim' | 'dmarc', MailVerdict>> = {};
  if (!value) return out;
  // Comments in parentheses are not results.
  const text = value.replace(/\([^)]*\)/g, ' ');
  for (const m of text.matchAll(/\b(spf|dkim|dmarc)\s*=\s*([a-z_]+)/gi)) {
    const method = m[1]!.toLowerCase() as 'spf' | 'dkim' | 'dmarc';
    out[method] ??= verdict(m[2]);
  }
  return out;
}

export const SPOOF_WARNING = 'The sender could not be verified (SPF, DKIM or DMARC failed): the sender address may be forged.';
export const SPAM_WARNING = 'The mail server marked this message as spam.';
export const VIRUS_WARNING = 'The mail server found a virus in this message: no documents were created from it.';

export function mailAuth(headers: MailHeader[]): EmailAuthView {
  const results = authResults(first(headers, 'authentication-results'));
  const receivedSpf = first(headers, 'received-spf');
  const spf = results.spf ?? (receivedSpf ? verdict(receivedSpf.trim().split(/\s+/)[0]) : 'unknown');
  const spamHeader = first(headers, 'x-ses-spam-verdict');
  const virusHeader = first(headers, 'x-ses-virus-verdict');
  const auth: EmailAuthView = {
    spf,
    dkim: results.dkim ?? 'unknown',
    dmarc: results.dmarc ?? 'unknown',
    spam: spamHeader ? verdict(spamHeader) : 'unknown',
    virus: virusHeader ? verdict(virusHeader) : 'unknown',
    warning: null,
  };
  if (auth.virus === 'fail') auth.warning = VIRUS_WARNING;
  else if (['fail', 'softfail'].includes(auth.spf) || auth.dkim === 'fail' || auth.dmarc === 'fail') auth.warning = SPOOF_WARNING;
  else if (auth.spam === 'fail') auth.warning = SPAM_WARNING;
  return auth;
}
