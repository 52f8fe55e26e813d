import { companyIdQuerySchema } from '../../../shared/schemas/company';
import { putSqlMappingSchema } from '../../../shared/schemas/master-data-sync';
import { saveSqlMapping } from '../../core/master-data/sync/service';
import { httpHandler, requireCompany } from '../../runtime/http-handler';
import { syncDeps } from './sync-deps';

/**
 * PUT /company/service/sql/mapping: which tables and columns hold suppliers, customers, categories and items,
 * checked against the stored connection's database before it is saved.
 */
export const handler = httpHandler({
  route: 'PUT /company/service/sql/mapping',
  query: companyIdQuerySchema,
  body: putSqlMappingSchema,
  async run({ body, caller, deps }) {
    const c = requireCompany(caller);
    return saveSqlMapping(syncDeps(deps), c.companyId, body.mapping);
  },
});
