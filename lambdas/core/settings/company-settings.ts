/** Settings: a company administrator renames the company or changes its code (PUT /company). */
import { conflict, notFound } from '../../../shared/errors';
import type { UpdateCompanyInput } from '../../../shared/schemas/admin';
import type { Company, CompanyRole } from '../../../shared/schemas/company';
import { COMPANY_CODE_TAKEN, monthOf, toCompanyView, withCompanyCodeGuard } from '../accounts/companies';
import type { CompanyRecord } from '../accounts/types';
import type { CompanyAdminStore } from '../admin/ports';
import { publishCompanyChange } from '../live/company-event';
import type { AccountsStore, Clock, LiveEvents } from '../ports';

/** Tries of one PUT /company when the company's code changed between its read and the write. */
const CHANGE_TRIES = 3;
export const COMPANY_CHANGED_MEANWHILE = 'The company was changed at the same time. Please try again.';

/**
 * Writes name and code, answers the company as the caller sees it, and tells every open screen of
 * the company's members (a `company` event with the changed fields; their role is not in it).
 * A new code moves the company's creator's company-code guard with it, in the same transaction (A29): the creator
 * cannot give the company the code of another company they created and still have (409 on `code`, the field of the
 * Settings form), and ADD COMPANY then refuses the new code and accepts the old one. Whoever of the company's
 * admins changes it, the guard is the creator's (`owner.user_id`). A change of case or spaces only (one
 * `companyCodeKey`) leaves the guard as it is. The write is conditioned on the code read, so a change at the same
 * time is read again.
 */
export async function updateCompanyDetails(
  deps: { store: AccountsStore; admin: CompanyAdminStore; clock: Clock; live: LiveEvents; emailInDomain: string },
  caller: { companyId: string; role: CompanyRole },
  input: UpdateCompanyInput,
): Promise<Company> {
  const name = input.name.trim();
  const code = input.code.trim();
  const taken = () => conflict(COMPANY_CODE_TAKEN, [{ path: ['code'], message: COMPANY_CODE_TAKEN }]);
  let record: CompanyRecord | undefined;
  for (let attempt = 1; !record; attempt++) {
    const [current] = await deps.store.getCompanies([caller.companyId], { consistent: true });
    if (!current) throw notFound('Company not found');
    if (attempt > CHANGE_TRIES) throw conflict(COMPANY_CHANGED_MEANWHILE);
    record = await withCompanyCodeGuard(deps.store, current.owner.user_id, code, taken, (replacing) =>
      deps.admin.setNameAndCode(current, name, code, replacing),
    );
  }
  const stats = await deps.store.getCompanyStats([record.company_id], monthOf(deps.clock.now()));
  const view = toCompanyView(record, caller.role, stats.get(record.company_id), deps.emailInDomain);
  await publishCompanyChange(deps.live, { company_id: record.company_id, name: record.name, code: record.code });
  return view;
}
