import { companyIdQuerySchema } from '../../../shared/schemas/company';
import { companyUserPathSchema } from '../../../shared/schemas/team';
import { driveDeps } from '../../adapters/drive/deps';
import { deleteCompanyUser } from '../../core/team/members';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

export const handler = httpHandler({
  route: 'DELETE /company/users/{id}',
  query: companyIdQuerySchema,
  path: companyUserPathSchema,
  async run({ path, caller, deps, log }) {
    const c = requireCompany(caller);
    // The Google Drive and Dropbox imports the member connected end with their membership.
    return deleteCompanyUser({ ...deps, drive: driveDeps(deps, log) }, c.userId, c.companyId, path.id);
  },
});
