/** Settings: a company administrator renames the company or changes its code (PUT /company). */
import { notFound } from '../../../shared/errors';
import type { UpdateCompanyInput } from '../../../shared/schemas/admin';
import type { Company, CompanyRole } from '../../../shared/schemas/company';
import { monthOf, toCompanyView } from '../accounts/companies';
import type { CompanyAdminStore } from '../admin/ports';
import { publishCompanyChange } from '../live/company-event';
import type { AccountsStore, Clock, LiveEvents } from '../ports';

/**
 * Writes name and code, answers the company as the caller sees it, and tells every open screen of
 * the company's members (a `company` event with the changed fields; their role is not in it).
 */
export async function updateCompanyDetails(
  deps: { store: AccountsStore; admin: CompanyAdminStore; clock: Clock; live: LiveEvents },
  caller: { companyId: string; role: CompanyRole },
  input: UpdateCompanyInput,
): Promise<Company> {
  const record = await deps.admin.setNameAndCode(caller.companyId, input.name.trim(), input.code.trim());
  if (!record) throw notFound('Company not found');
  const stats = await deps.store.getCompanyStats([record.company_id], monthOf(deps.clock.now()));
  const view = toCompanyView(record, caller.role, stats.get(record.company_id));
  await publishCompanyChange(deps.live, { company_id: record.company_id, name: record.name, code: record.code });
  return view;
}
