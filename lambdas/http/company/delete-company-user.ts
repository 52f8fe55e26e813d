import { companyIdQuerySchema } from '../../../shared/schemas/company';
import { companyUserPathSchema } from '../../../shared/schemas/team';
import { deleteCompanyUser } from '../../core/team/members';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

export const handler = httpHandler({
  route: 'DELETE /company/users/{id}',
  query: companyIdQuerySchema,
  path: companyUserPathSchema,
  async run({ path, caller, deps }) {
    const c = requireCompany(caller);
    return deleteCompanyUser(deps, c.userId, c.companyId, path.id);
  },
});
