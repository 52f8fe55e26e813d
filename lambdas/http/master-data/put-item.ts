import { companyQuerySchema, updateItemSchema } from '../../../shared/schemas/master-data';
import { updateItem } from '../../core/master-data/items';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

/** PUT /item: name_id and the changed name and/or words (a new name gives a new name_id). */
export const handler = httpHandler({
  route: 'PUT /item',
  query: companyQuerySchema,
  body: updateItemSchema,
  async run({ body, caller, deps }) {
    const c = requireCompany(caller);
    return updateItem(deps, c, c.companyId, body);
  },
});
