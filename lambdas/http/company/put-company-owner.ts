import { companyIdQuerySchema } from '../../../shared/schemas/company';
import { transferOwnershipSchema } from '../../../shared/schemas/team';
import { transferOwnership } from '../../core/team/owner';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

/** PUT /company/owner: the account owner makes an administrator member the account owner (core/team/owner.ts). */
export const handler = httpHandler({
  route: 'PUT /company/owner',
  query: companyIdQuerySchema,
  body: transferOwnershipSchema,
  async run({ body, caller, deps }) {
    const c = requireCompany(caller);
    return transferOwnership(deps, c.userId, c.companyId, body);
  },
});
