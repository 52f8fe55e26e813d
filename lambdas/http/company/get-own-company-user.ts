import { companyIdQuerySchema } from '../../../shared/schemas/company';
import { ownCompanyUser } from '../../core/team/members';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

export const handler = httpHandler({
  route: 'GET /company/users/me',
  query: companyIdQuerySchema,
  async run({ caller, deps }) {
    const c = requireCompany(caller);
    return ownCompanyUser(deps, c.userId, c.companyId);
  },
});
