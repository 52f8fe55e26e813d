import { companyIdQuerySchema } from '../../../shared/schemas/company';
import { listCompanyUsers } from '../../core/team/members';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

export const handler = httpHandler({
  route: 'GET /company/users',
  query: companyIdQuerySchema,
  async run({ caller, deps }) {
    const c = requireCompany(caller);
    return { items: await listCompanyUsers(deps, c.userId, c.companyId) };
  },
});
