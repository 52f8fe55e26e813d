import { updateCompanySchema } from '../../../shared/schemas/admin';
import { companyIdQuerySchema } from '../../../shared/schemas/company';
import { updateCompanyDetails } from '../../core/settings/company-settings';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

export const handler = httpHandler({
  route: 'PUT /company',
  query: companyIdQuerySchema,
  body: updateCompanySchema,
  async run({ body, caller, deps }) {
    const c = requireCompany(caller);
    return updateCompanyDetails(deps, { companyId: c.companyId, role: c.role ?? 'basic' }, body);
  },
});
