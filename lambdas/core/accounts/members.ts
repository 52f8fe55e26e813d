import { notFound } from '../../../shared/errors';
import type { CompanyRole } from '../../../shared/schemas';
import type { AccountsStore } from '../ports';

export interface CompanyUserView {
  user_id: string;
  company_id: string;
  name: string;
  surname: string;
  role: CompanyRole;
  /** The member's Email-in address (the company's address until members get their own). */
  email: string;
  can_be_deleted: boolean;
  user: { created_at: string; last_login: string | null; email: string };
}

/**
 * Members of a company, for its administrators (My Team, the upload's Owner dropdown).
 * The company's owner and the caller cannot be deleted.
 */
export async function listCompanyUsers(store: AccountsStore, callerId: string, companyId: string): Promise<CompanyUserView[]> {
  const [company] = await store.getCompanies([companyId]);
  if (!company) throw notFound('Company not found');
  const members = await store.listMembersOfCompany(companyId);
  const profiles = new Map((await store.getProfiles(members.map((m) => m.user_id))).map((p) => [p.id, p]));
  return members
    .filter((m) => profiles.has(m.user_id))
    .map((m) => {
      const p = profiles.get(m.user_id)!;
      return {
        user_id: m.user_id,
        company_id: companyId,
        name: p.name,
        surname: p.surname,
        role: m.role,
        email: company.email,
        can_be_deleted: m.user_id !== callerId && m.user_id !== company.owner.user_id,
        user: { created_at: p.created_at, last_login: p.last_login, email: p.email },
      };
    })
    .sort((a, b) => `${a.surname} ${a.name}`.localeCompare(`${b.surname} ${b.name}`));
}
