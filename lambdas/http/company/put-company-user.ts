import { companyIdQuerySchema } from '../../../shared/schemas/company';
import { companyUserPathSchema, updateCompanyUserSchema } from '../../../shared/schemas/team';
import { updateCompanyUser } from '../../core/team/members';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

export const handler = httpHandler({
  route: 'PUT /company/users/{id}',
  query: companyIdQuerySchema,
  path: companyUserPathSchema,
  body: updateCompanyUserSchema,
  async run({ body, path, caller, deps }) {
    const c = requireCompany(caller);
    return updateCompanyUser(deps, c.userId, c.companyId, path.id, body);
  },
});
