import { companyIdQuerySchema } from '../../../shared/schemas/company';
import { postSyncSchema } from '../../../shared/schemas/master-data-sync';
import { SYNC_NOW_BUDGET_MS, syncNow } from '../../core/master-data/sync/service';
import { sqsSyncQueue } from '../../adapters/sqs/sync-queue';
import { httpHandler, requireCompany } from '../../runtime/http-handler';
import { syncDeps } from './sync-deps';

/**
 * POST /company/service/imports/sync ("sync now"): runs the import for up to SYNC_NOW_BUDGET_MS, a page still being
 * read or written then included (it is given up and read again later), and answers the run (done, failed, or
 * partial: handed to the continuing job through the sync queue); 409 while another run holds the import.
 */
export const handler = httpHandler({
  route: 'POST /company/service/imports/sync',
  query: companyIdQuerySchema,
  body: postSyncSchema,
  async run({ body, caller, deps, log }) {
    const c = requireCompany(caller);
    return syncNow({ ...syncDeps(deps), continuation: sqsSyncQueue, log }, c.companyId, body.type, SYNC_NOW_BUDGET_MS);
  },
});
