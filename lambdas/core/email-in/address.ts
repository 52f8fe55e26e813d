/**
 * Email-in addresses as users see them. Addresses are stored (company records, members' prefixes, claims) as
 * `<local>@EMAIL_IN_DOMAIN`, whatever domain receives the mail; a deployment that receives mail for its own domain
 * (AWS, context `emailInDomain`) shows them as `<local>@<that domain>`, the address mail reaches. Every answer and
 * event that carries an Email-in address goes through `shownEmailInAddress`.
 */
import { EMAIL_IN_DOMAIN } from '../../../shared/constants';

/**
 * The address shown for a stored `<local>@EMAIL_IN_DOMAIN`: the same local part at the deployed domain. Without a
 * deployed domain (empty; local mode) the stored address is the one shown. Anything not in the stored form (no
 * address, another domain) is shown as it is.
 */
export function shownEmailInAddress(stored: string, deployedDomain: string): string {
  const domain = deployedDomain.trim().toLowerCase();
  if (!domain || !stored) return stored;
  const at = stored.lastIndexOf('@');
  if (at <= 0 || stored.slice(at + 1).toLowerCase() !== EMAIL_IN_DOMAIN) return stored;
  return `${stored.slice(0, at)}@${domain}`;
}
