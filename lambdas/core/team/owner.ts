/**
 * Handing a company over (PUT /company/owner; docs/decisions.md "Handing a company over"): the account owner makes an
 * administrator member the account owner. The owner cannot be removed from a company and stays an administrator, so
 * without this an owner who leaves the firm — or deletes their account — could only delete the company for everybody.
 * The old owner stays an administrator member; the company-code guard (one company per code and owner) moves with the
 * company; the count of companies a user created stays with its creator.
 */
import { conflict, forbidden, notFound } from '../../../shared/errors';
import { OWNER_MSG, type TransferOwnershipInput, type TransferOwnershipResult } from '../../../shared/schemas/team';
import { withCompanyCodeGuard } from '../accounts/companies';
import type { CompanyRecord } from '../accounts/types';
import { publishCompanyChange } from '../live/company-event';
import type { AccountsStore, LiveEvents } from '../ports';
import type { TeamStore } from './types';

export async function transferOwnership(
  deps: { store: AccountsStore; team: Pick<TeamStore, 'getMember'>; live: LiveEvents },
  callerId: string,
  companyId: string,
  input: TransferOwnershipInput,
): Promise<TransferOwnershipResult> {
  const [company] = await deps.store.getCompanies([companyId], { consistent: true });
  if (!company) throw notFound('Company not found');
  if (company.owner.user_id !== callerId) throw forbidden(OWNER_MSG.ownerOnly);
  const [member, profile] = await Promise.all([deps.team.getMember(companyId, input.user_id), deps.store.getProfile(input.user_id)]);
  if (!member || !profile) throw notFound('User not found');
  const owner: CompanyRecord['owner'] = { user_id: profile.id, name: profile.name, surname: profile.surname, email: profile.email };
  if (member.user_id === callerId) return { company_id: companyId, owner };
  if (member.role !== 'admin') throw conflict(OWNER_MSG.notAdmin, [{ path: ['user_id'], message: OWNER_MSG.notAdmin }]);
  const taken = () => conflict(OWNER_MSG.codeTaken, [{ path: ['user_id'], message: OWNER_MSG.codeTaken }]);
  const failure = await withCompanyCodeGuard(deps.store, owner.user_id, company.code, taken, (replacing) =>
    deps.store.transferCompanyOwner(company, owner, replacing),
  );
  // Lowered to Basic, removed, or the company handed over or deleted meanwhile: read again, the same answers.
  if (failure === 'not-admin') throw conflict(OWNER_MSG.notAdmin, [{ path: ['user_id'], message: OWNER_MSG.notAdmin }]);
  if (failure === 'changed') throw forbidden(OWNER_MSG.ownerOnly);
  // Open screens of the company's members read My Team and the companies list again (who the owner is changed).
  await publishCompanyChange(deps.live, { company_id: companyId, user: { name: owner.name, surname: owner.surname, email: owner.email } });
  return { company_id: companyId, owner };
}
