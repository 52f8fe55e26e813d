import { companyQuerySchema, idPathSchema } from '../../../shared/schemas/master-data';
import { getStakeholder } from '../../core/master-data/stakeholders';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

/** GET /stakeholders/{id}: one supplier or customer of the company. */
export const handler = httpHandler({
  route: 'GET /stakeholders/{id}',
  path: idPathSchema,
  query: companyQuerySchema,
  async run({ path, caller, deps }) {
    const c = requireCompany(caller);
    return getStakeholder(deps, c, c.companyId, path.id);
  },
});
