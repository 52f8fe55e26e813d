import { adminCompanyPathSchema } from '../../../shared/schemas/admin';
import { getAdminCompany } from '../../core/admin/admin';
import { httpHandler } from '../../runtime/http-handler';

export const handler = httpHandler({
  route: 'GET /admin/companies/{id}',
  path: adminCompanyPathSchema,
  async run({ path, deps }) {
    return getAdminCompany(deps, path.id);
  },
});
