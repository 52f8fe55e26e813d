import { companyIdQuerySchema } from '../../../shared/schemas/company';
import { ddbSyncStateStore } from '../../adapters/ddb/sync-store';
import { importStatusesOf } from '../../core/master-data/sync/service';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

/** GET /company/service/imports: the SQL and Rivile imports' last run, what it imported, the last error, the SQL mapping. */
export const handler = httpHandler({
  route: 'GET /company/service/imports',
  query: companyIdQuerySchema,
  async run({ caller, deps }) {
    const c = requireCompany(caller);
    return importStatusesOf({ store: deps.store, syncState: ddbSyncStateStore }, c.companyId);
  },
});
