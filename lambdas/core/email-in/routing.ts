/**
 * Which email-in addresses a message was sent to. Addresses are `<local>[+<tag>]@<domain>` of an accepted
 * domain (the product's EMAIL_IN_DOMAIN and, in AWS, the domain given at deployment); the claim looked up is
 * `<local>@EMAIL_IN_DOMAIN`, the form the addresses are stored and shown in.
 */
import { EMAIL_IN_DOMAIN } from '../../../shared/constants';
import type { ReceiptType } from '../documents/types';

export interface InAddress {
  /** The claim's address: `<local>@EMAIL_IN_DOMAIN`. */
  address: string;
  /** The `+tag` of the recipient, lower case, or null. */
  tag: string | null;
}

/** Tags of a recipient that make the documents sales invoices: `<address>+sales@…`, `<address>+invoice@…`. */
export const SALES_TAGS = ['sales', 'invoice', 'invoices'] as const;
/** A subject containing this keyword (any case) makes the documents sales invoices. */
export const SALES_SUBJECT_KEYWORD = '[sales]';

export function inAddresses(recipients: string[], domains: string[]): InAddress[] {
  const accepted = new Set([EMAIL_IN_DOMAIN, ...domains].map((d) => d.trim().toLowerCase()).filter(Boolean));
  const out = new Map<string, InAddress>();
  for (const recipient of recipients) {
    const m = /^([^@\s+]+)(?:\+([^@\s]*))?@([^@\s]+)$/.exec(recipient.trim().toLowerCase());
    if (!m || !accepted.has(m[3]!)) continue;
    const address = `${m[1]}@${EMAIL_IN_DOMAIN}`;
    const tag = m[2] || null;
    const known = out.get(address);
    if (!known || (!known.tag && tag)) out.set(address, { address, tag });
  }
  return [...out.values()];
}

/** The recipient as it was addressed, in the stored form: `<local>+<tag>@EMAIL_IN_DOMAIN`, or the address without a tag. */
export function addressedAs(a: InAddress): string {
  return a.tag ? a.address.replace('@', `+${a.tag}@`) : a.address;
}

export function isSalesTag(tag: string | null): boolean {
  return !!tag && (SALES_TAGS as readonly string[]).includes(tag);
}

/** Costs by default; sales invoices by the recipient's tag or the subject keyword (docs/decisions.md). */
export function receiptTypeOf(tag: string | null, subject: string): ReceiptType {
  if (isSalesTag(tag)) return 'invoice';
  if (subject.toLowerCase().includes(SALES_SUBJECT_KEYWORD)) return 'invoice';
  return 'receipt';
}
