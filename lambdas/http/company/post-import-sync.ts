import { companyIdQuerySchema } from '../../../shared/schemas/company';
import { postSyncSchema } from '../../../shared/schemas/master-data-sync';
import { SYNC_NOW_BUDGET_MS, syncNow } from '../../core/master-data/sync/service';
import { httpHandler, requireCompany } from '../../runtime/http-handler';
import { syncDeps } from './sync-deps';

/**
 * POST /company/service/imports/sync ("sync now"): runs the import for up to SYNC_NOW_BUDGET_MS, a page still being
 * read or written then included (it is given up and read again later), and answers the run (done, failed, or
 * partial: the schedule continues it); 409 while another run holds the import.
 */
export const handler = httpHandler({
  route: 'POST /company/service/imports/sync',
  query: companyIdQuerySchema,
  body: postSyncSchema,
  async run({ body, caller, deps }) {
    const c = requireCompany(caller);
    return syncNow(syncDeps(deps), c.companyId, body.type, SYNC_NOW_BUDGET_MS);
  },
});
