import { companyQuerySchema, createStakeholderSchema } from '../../../shared/schemas/master-data';
import { createStakeholder } from '../../core/master-data/stakeholders';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

/** POST /stakeholder: a new supplier or customer; 201 with its view. */
export const handler = httpHandler({
  route: 'POST /stakeholder',
  query: companyQuerySchema,
  body: createStakeholderSchema,
  successStatus: 201,
  async run({ body, caller, deps }) {
    const c = requireCompany(caller);
    return createStakeholder(deps, c, c.companyId, body);
  },
});
