import { companyIdQuerySchema } from '../../../shared/schemas/company';
import { companyUserPathSchema, updateCompanyUserSchema } from '../../../shared/schemas/team';
import { driveDeps } from '../../adapters/drive/deps';
import { updateCompanyUser } from '../../core/team/members';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

export const handler = httpHandler({
  route: 'PUT /company/users/{id}',
  query: companyIdQuerySchema,
  path: companyUserPathSchema,
  body: updateCompanyUserSchema,
  async run({ body, path, caller, deps, log }) {
    const c = requireCompany(caller);
    // The Google Drive and Dropbox imports an administrator connected end when they are lowered to Basic.
    return updateCompanyUser({ ...deps, drive: driveDeps(deps, log) }, c.userId, c.companyId, path.id, body);
  },
});
