import { createCompanySchema } from '../../../shared/schemas/company';
import { createCompany } from '../../core/accounts/companies';
import { httpHandler, requireCaller } from '../../runtime/http-handler';

export const handler = httpHandler({
  route: 'POST /company',
  body: createCompanySchema,
  successStatus: 201,
  async run({ body, caller, deps }) {
    return createCompany(deps, requireCaller(caller).userId, body);
  },
});
