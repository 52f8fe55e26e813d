import { idQuerySchema } from '../../../shared/schemas/master-data';
import { deleteCategory } from '../../core/master-data/categories';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

/** DELETE /category?id=: {deleted: true, id}. */
export const handler = httpHandler({
  route: 'DELETE /category',
  query: idQuerySchema,
  async run({ query, caller, deps }) {
    const c = requireCompany(caller);
    return deleteCategory(deps, c, c.companyId, query.id);
  },
});
