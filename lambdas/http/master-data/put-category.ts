import { companyQuerySchema, updateCategorySchema } from '../../../shared/schemas/master-data';
import { updateCategory } from '../../core/master-data/categories';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

/** PUT /category: the id and the changed fields. */
export const handler = httpHandler({
  route: 'PUT /category',
  query: companyQuerySchema,
  body: updateCategorySchema,
  async run({ body, caller, deps }) {
    const c = requireCompany(caller);
    return updateCategory(deps, c, c.companyId, body);
  },
});
