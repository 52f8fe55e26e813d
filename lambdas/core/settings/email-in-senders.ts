/** Settings → Email-in: a company administrator limits the senders Email-in takes mail from (PUT /company/email-in). */
import { notFound } from '../../../shared/errors';
import type { Company, CompanyRole, UpdateEmailInSendersInput } from '../../../shared/schemas/company';
import { monthOf, toCompanyView } from '../accounts/companies';
import type { CompanyAdminStore } from '../admin/ports';
import { publishCompanyChange } from '../live/company-event';
import type { AccountsStore, Clock, LiveEvents } from '../ports';

/**
 * Writes the list (checked and made unique by `updateEmailInSendersSchema`; empty takes mail from anyone again),
 * answers the company as the caller sees it and tells every open screen of the company's members. Mail already
 * received stays as it was; the list applies to mail that arrives from now on (lambdas/core/email-in/senders.ts).
 */
export async function updateEmailInSenders(
  deps: { store: AccountsStore; admin: CompanyAdminStore; clock: Clock; live: LiveEvents; emailInDomain: string },
  caller: { companyId: string; role: CompanyRole },
  input: UpdateEmailInSendersInput,
): Promise<Company> {
  const record = await deps.admin.setEmailInSenders(caller.companyId, input.email_in_senders);
  if (!record) throw notFound('Company not found');
  const stats = await deps.store.getCompanyStats([record.company_id], monthOf(deps.clock.now()));
  const view = toCompanyView(record, caller.role, stats.get(record.company_id), deps.emailInDomain);
  await publishCompanyChange(deps.live, { company_id: record.company_id, email_in_senders: view.email_in_senders });
  return view;
}
