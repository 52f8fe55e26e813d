import { idQuerySchema } from '../../../shared/schemas/master-data';
import { deleteStakeholder } from '../../core/master-data/stakeholders';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

/** DELETE /stakeholder?id=: {deleted: true, id}. */
export const handler = httpHandler({
  route: 'DELETE /stakeholder',
  query: idQuerySchema,
  async run({ query, caller, deps }) {
    const c = requireCompany(caller);
    return deleteStakeholder(deps, c, c.companyId, query.id);
  },
});
