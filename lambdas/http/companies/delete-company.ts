import { companyIdQuerySchema } from '../../../shared/schemas/company';
import { driveDeps } from '../../adapters/drive/deps';
import { sqsPurgeQueue } from '../../adapters/sqs/purge-queue';
import { deleteCompany } from '../../core/accounts/companies';
import { grantsOfDeletedCompany } from '../../core/drive-import/service';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

export const handler = httpHandler({
  route: 'DELETE /company',
  query: companyIdQuerySchema,
  async run({ caller, deps, log }) {
    const c = requireCompany(caller);
    // The company's Google Drive and Dropbox grants are revoked at the providers as it goes.
    return deleteCompany({ ...deps, purgeQueue: sqsPurgeQueue, log, grants: grantsOfDeletedCompany(driveDeps(deps, log)) }, c.userId, c.companyId);
  },
});
