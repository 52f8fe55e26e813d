import { companyIdQuerySchema } from '../../../shared/schemas/company';
import { listCompanyUsers } from '../../core/accounts/members';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

export const handler = httpHandler({
  route: 'GET /company/users',
  query: companyIdQuerySchema,
  async run({ caller, deps }) {
    const c = requireCompany(caller);
    return { items: await listCompanyUsers(deps.store, c.userId, c.companyId) };
  },
});
