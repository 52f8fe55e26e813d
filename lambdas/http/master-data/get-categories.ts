import { categoriesQuerySchema } from '../../../shared/schemas/master-data';
import { listCategories } from '../../core/master-data/categories';
import { httpHandler, requireCaller } from '../../runtime/http-handler';

/** GET /categories: sorted by name, 50 a page; search_name, with_external_data, selected=ALL, next / next_company. */
export const handler = httpHandler({
  route: 'GET /categories',
  query: categoriesQuerySchema,
  async run({ query, caller, deps }) {
    return listCategories(deps, requireCaller(caller), query);
  },
});
