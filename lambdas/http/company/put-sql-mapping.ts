import { companyIdQuerySchema } from '../../../shared/schemas/company';
import { putSqlMappingSchema } from '../../../shared/schemas/master-data-sync';
import { ddbSyncStateStore } from '../../adapters/ddb/sync-store';
import { saveSqlMapping } from '../../core/master-data/sync/service';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

/** PUT /company/service/sql/mapping: which tables and columns hold suppliers, customers, categories and items. */
export const handler = httpHandler({
  route: 'PUT /company/service/sql/mapping',
  query: companyIdQuerySchema,
  body: putSqlMappingSchema,
  async run({ body, caller, deps }) {
    const c = requireCompany(caller);
    return saveSqlMapping({ syncState: ddbSyncStateStore, clock: deps.clock }, c.companyId, body.mapping);
  },
});
