import { isNewStakeholderQuerySchema, isNewStakeholderResponseSchema } from '../../../shared/schemas/master-data';
import { isNewStakeholder } from '../../core/master-data/stakeholders';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

/** GET /isNewStakeholder?type&name&code: {isNewStakeholder, stakeholder} (code first, then name). */
export const handler = httpHandler({
  route: 'GET /isNewStakeholder',
  response: { schema: isNewStakeholderResponseSchema },
  query: isNewStakeholderQuerySchema,
  async run({ query, caller, deps }) {
    return isNewStakeholder(deps, requireCompany(caller), query);
  },
});
