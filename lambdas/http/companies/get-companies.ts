import { companiesResponseSchema } from '../../../shared/schemas/company';
import { listCompaniesOfUser } from '../../core/accounts/companies';
import { httpHandler, requireCaller } from '../../runtime/http-handler';

export const handler = httpHandler({
  route: 'GET /companies',
  response: { schema: companiesResponseSchema },
  async run({ caller, deps }) {
    const items = await listCompaniesOfUser(deps.store, requireCaller(caller).userId, deps.clock, deps.emailInDomain);
    return { items };
  },
});
