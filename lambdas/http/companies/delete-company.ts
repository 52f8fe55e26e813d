import { companyIdQuerySchema } from '../../../shared/schemas/company';
import { deleteCompany } from '../../core/accounts/companies';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

export const handler = httpHandler({
  route: 'DELETE /company',
  query: companyIdQuerySchema,
  async run({ caller, deps }) {
    const c = requireCompany(caller);
    return deleteCompany(deps, c.userId, c.companyId);
  },
});
