import { adminCompanyPathSchema, adminCompanyUsageResponseSchema } from '../../../shared/schemas/admin';
import { companyUsageByMonth } from '../../core/admin/admin';
import { httpHandler } from '../../runtime/http-handler';

export const handler = httpHandler({
  route: 'GET /admin/companies/{id}/usage',
  path: adminCompanyPathSchema,
  response: { schema: adminCompanyUsageResponseSchema },
  async run({ path, deps }) {
    return companyUsageByMonth(deps, path.id);
  },
});
