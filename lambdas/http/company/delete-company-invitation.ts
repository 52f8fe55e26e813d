import { companyIdQuerySchema } from '../../../shared/schemas/company';
import { invitationIdPathSchema } from '../../../shared/schemas/team';
import { cancelInvitation } from '../../core/team/invitations';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

export const handler = httpHandler({
  route: 'DELETE /company/invitations/{id}',
  query: companyIdQuerySchema,
  path: invitationIdPathSchema,
  async run({ path, caller, deps }) {
    return cancelInvitation(deps, { companyId: requireCompany(caller).companyId }, path.id);
  },
});
