import { companyIdQuerySchema } from '../../../shared/schemas/company';
import { sqsPurgeQueue } from '../../adapters/sqs/purge-queue';
import { deleteCompany } from '../../core/accounts/companies';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

export const handler = httpHandler({
  route: 'DELETE /company',
  query: companyIdQuerySchema,
  async run({ caller, deps, log }) {
    const c = requireCompany(caller);
    return deleteCompany({ ...deps, purgeQueue: sqsPurgeQueue, log }, c.userId, c.companyId);
  },
});
