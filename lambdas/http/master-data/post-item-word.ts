import { addItemWordSchema, companyQuerySchema } from '../../../shared/schemas/master-data';
import { addItemWord } from '../../core/master-data/items';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

/** POST /item/word: adds the word `value` to the item whose name_id is `key`; 201 with the item. */
export const handler = httpHandler({
  route: 'POST /item/word',
  query: companyQuerySchema,
  body: addItemWordSchema,
  successStatus: 201,
  async run({ body, caller, deps }) {
    const c = requireCompany(caller);
    return addItemWord(deps, c, c.companyId, body);
  },
});
