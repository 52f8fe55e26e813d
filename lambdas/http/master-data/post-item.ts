import { companyQuerySchema, createItemSchema } from '../../../shared/schemas/master-data';
import { createItem } from '../../core/master-data/items';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

/** POST /item: name and words (blank words dropped); 201 with the item. */
export const handler = httpHandler({
  route: 'POST /item',
  query: companyQuerySchema,
  body: createItemSchema,
  successStatus: 201,
  async run({ body, caller, deps }) {
    const c = requireCompany(caller);
    return createItem(deps, c, c.companyId, body);
  },
});
