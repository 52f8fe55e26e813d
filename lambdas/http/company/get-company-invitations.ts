import { companyIdQuerySchema } from '../../../shared/schemas/company';
import { pendingInvitationsResponseSchema } from '../../../shared/schemas/team';
import { listPendingInvitations } from '../../core/team/invitations';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

export const handler = httpHandler({
  route: 'GET /company/invitations',
  query: companyIdQuerySchema,
  response: { schema: pendingInvitationsResponseSchema },
  async run({ caller, deps }) {
    const c = requireCompany(caller);
    return { items: await listPendingInvitations(deps, { userId: c.userId, companyId: c.companyId }) };
  },
});
