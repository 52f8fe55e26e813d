import { EMAIL_PREFIX_MAX, EMAIL_PREFIX_MIN, EMAIL_IN_DOMAIN } from '../../../shared/constants';

/** A member's Email-in address: the prefix (lower case) at the email-in domain. */
export function memberEmailInAddress(prefix: string): string {
  return `${prefix.trim().toLowerCase()}@${EMAIL_IN_DOMAIN}`;
}

function clean(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '.')
    .replace(/\.{2,}/g, '.')
    .replace(/^\.+|\.+$/g, '');
}

/**
 * The default Email-in prefix of a new member: name.surname without accents (jonas.jonaitis), else the
 * login e-mail's local part; padded to 4 characters. Letters, digits and dots only, so it never collides
 * with a company's own address (which carries a hyphen).
 */
export function defaultEmailPrefix(name: string, surname: string, email: string): string {
  let base = clean(`${name} ${surname}`);
  if (base.length < EMAIL_PREFIX_MIN) base = clean(email.split('@')[0] ?? '');
  if (base.length < EMAIL_PREFIX_MIN) base = `${base}${base ? '.' : ''}user`.replace(/^\./, '');
  return base.slice(0, EMAIL_PREFIX_MAX - 5).replace(/\.+$/, '');
}

/** Candidates tried in order when a prefix is taken: base, base2, base3, …, then base.<random>. */
export function prefixCandidate(base: string, attempt: number, random: () => number = Math.random): string {
  if (attempt === 0) return base;
  if (attempt < 4) return `${base}${attempt + 1}`;
  return `${base}.${Math.floor(random() * 9000 + 1000)}`;
}
