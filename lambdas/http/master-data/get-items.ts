import { itemsQuerySchema } from '../../../shared/schemas/master-data';
import { listItems } from '../../core/master-data/items';
import { httpHandler, requireCaller } from '../../runtime/http-handler';

/** GET /items: sorted by name, 50 a page; limit, next, next_company, selected=ALL, search_name. */
export const handler = httpHandler({
  route: 'GET /items',
  query: itemsQuerySchema,
  async run({ query, caller, deps }) {
    return listItems(deps, requireCaller(caller), query);
  },
});
