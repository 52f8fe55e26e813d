/**
 * The sender checks the receiving mail server wrote into the message: SES prepends `Received-SPF`,
 * `Authentication-Results` (spf, dkim, dmarc), `X-SES-Spam-Verdict` and `X-SES-Virus-Verdict`; the local
 * SMTP server prepends its own `Authentication-Results` (spf=none, it checks nothing). Only the topmost header
 * of each kind is read: the receiving server prepends it, lower ones may have been written by the sender.
 */
import { getDomain } from 'tldts';
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

/**
 * Whether two domains are the same organisation's as DMARC's relaxed alignment sees it (RFC 7489 3.1.1): the same
 * organisational domain, the registrable domain by the Public Suffix List with its private section, so two sites
 * of one shared host (`a.github.io`, `b.github.io`) are two organisations, and a host never proves its suffix. A
 * domain that is itself a public suffix (or no domain) is aligned only with itself.
 */
export function aligned(a: string, b: string): boolean {
  if (!a || !b) return false;
  if (a === b) return true;
  const organisation = (d: string) => getDomain(d, { allowPrivateDomains: true });
  const org = organisation(a);
  return org !== null && org === organisation(b);
}

function domainOf(identity: string | undefined): string {
  const value = (identity ?? '').trim().toLowerCase().replace(/^<|>$/g, '');
  return value.slice(value.lastIndexOf('@') + 1);
}

/**
 * Whether the receiving server proved the From address's domain (RFC 7489's alignment, relaxed): DMARC passed, or a
 * DKIM signature of that domain (`header.d` / `header.i`) passed, or SPF passed for an envelope sender of that domain
 * (`smtp.mailfrom` / `envelope-from`). A pass for another domain proves nothing of the From address: anyone passes
 * SPF for their own server.
 */
export function fromProven(headers: MailHeader[], fromAddress: string): boolean {
  const from = domainOf(fromAddress);
  const value = first(headers, 'authentication-results');
  if (!from || !value) return false;
  // A result is `method=result` and its properties; SES also separates an SPF result's properties with `;`
  // (`spf=pass (…) client-ip=…; envelope-from=…; helo=…;`), so a part without a result belongs to the one before.
  let current: { method: string; pass: boolean } | null = null;
  for (const part of value.replace(/\([^)]*\)/g, ' ').split(';')) {
    const result = /\b(spf|dkim|dmarc)\s*=\s*([a-z_]+)/i.exec(part);
    if (result) current = { method: result[1]!.toLowerCase(), pass: verdict(result[2]) === 'pass' };
    if (!current?.pass) continue;
    if (current.method === 'dmarc') return true;
    const keys = current.method === 'dkim' ? ['header\\.d', 'header\\.i'] : ['smtp\\.mailfrom', 'envelope-from'];
    for (const key of keys) {
      const property = new RegExp(`(?:^|\\s)${key}\\s*=\\s*(\\S+)`, 'i').exec(part);
      if (property && aligned(domainOf(property[1]), from)) return true;
    }
  }
  return false;
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
