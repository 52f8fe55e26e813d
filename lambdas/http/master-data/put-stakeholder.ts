import { companyQuerySchema, updateStakeholderSchema } from '../../../shared/schemas/master-data';
import { updateStakeholder } from '../../core/master-data/stakeholders';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

/** PUT /stakeholder: the id and only the changed fields. */
export const handler = httpHandler({
  route: 'PUT /stakeholder',
  query: companyQuerySchema,
  body: updateStakeholderSchema,
  async run({ body, caller, deps }) {
    const c = requireCompany(caller);
    return updateStakeholder(deps, c, c.companyId, body);
  },
});
