import { companyQuerySchema, createCategorySchema } from '../../../shared/schemas/master-data';
import { createCategory } from '../../core/master-data/categories';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

/** POST /category: name and category_code; 201 with the category. */
export const handler = httpHandler({
  route: 'POST /category',
  query: companyQuerySchema,
  body: createCategorySchema,
  successStatus: 201,
  async run({ body, caller, deps }) {
    const c = requireCompany(caller);
    return createCategory(deps, c, c.companyId, body);
  },
});
