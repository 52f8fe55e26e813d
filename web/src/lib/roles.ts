import type { Company } from '../../../shared/schemas/company';

export const ROLE_LABELS = {
  admin: 'Administrator',
  owner: 'Account owner',
  basic: 'Basic user',
} as const;

/**
 * Role label of the current user in a company: the admin who owns the company (its `user`) is the
 * Account owner, other admins are Administrators, everyone else a Basic user (rules.md 6). Null for an admin while
 * the user's own e-mail is not known yet (the profile still loading): which of the two it is cannot be told, and
 * showing "Administrator" first would be wrong for the owner.
 */
export function companyRoleLabel(company: Pick<Company, 'role' | 'user'>, userEmail: string | null | undefined): string | null {
  if (company.role !== 'admin') return ROLE_LABELS.basic;
  const owner = company.user?.email;
  if (owner && !userEmail) return null;
  if (owner && userEmail && owner.toLowerCase() === userEmail.toLowerCase()) return ROLE_LABELS.owner;
  return ROLE_LABELS.admin;
}

/**
 * Why a screen for company administrators (My Team, Integration, Fields configuration) was left for the dashboard:
 * null when the user has no company yet (the dashboard offers to create one).
 */
export function adminScreenNotice(
  screen: string,
  view: { companies: ReadonlyArray<Pick<Company, 'role'>>; allCompanies: boolean },
  opts: { perCompany?: boolean } = {},
): string | null {
  if (view.companies.length === 0) return null;
  if (view.allCompanies && opts.perCompany && view.companies.some((c) => c.role === 'admin')) return `${screen} is set per company: choose a company to open it`;
  return `Only a company administrator can open ${screen}`;
}
