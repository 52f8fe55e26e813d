import { deleteItemQuerySchema } from '../../../shared/schemas/master-data';
import { deleteItem } from '../../core/master-data/items';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

/** DELETE /item?name=: the item's name or name_id; {deleted: true, id: name_id}. */
export const handler = httpHandler({
  route: 'DELETE /item',
  query: deleteItemQuerySchema,
  async run({ query, caller, deps }) {
    const c = requireCompany(caller);
    return deleteItem(deps, c, c.companyId, query.name);
  },
});
