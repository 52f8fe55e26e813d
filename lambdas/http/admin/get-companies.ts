import { adminCompaniesQuerySchema, adminCompaniesResponseSchema } from '../../../shared/schemas/admin';
import { listAdminCompanies } from '../../core/admin/admin';
import { httpHandler } from '../../runtime/http-handler';

export const handler = httpHandler({
  route: 'GET /admin/companies',
  response: { schema: adminCompaniesResponseSchema },
  query: adminCompaniesQuerySchema,
  async run({ query, deps }) {
    return listAdminCompanies(deps, query.next || undefined, query.month);
  },
});
