import { companyQuerySchema, idPathSchema } from '../../../shared/schemas/master-data';
import { getCategory } from '../../core/master-data/categories';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

/** GET /categories/{id}: one category of the company. */
export const handler = httpHandler({
  route: 'GET /categories/{id}',
  path: idPathSchema,
  query: companyQuerySchema,
  async run({ path, caller, deps }) {
    const c = requireCompany(caller);
    return getCategory(deps, c, c.companyId, path.id);
  },
});
