import { invitationTokenPathSchema } from '../../../shared/schemas/team';
import { confirmInvitation } from '../../core/team/invitations';
import { httpHandler } from '../../runtime/http-handler';

/** Public: confirms the invitation of a person who already has an account (the token is the credential). */
export const handler = httpHandler({
  route: 'PUT /invitation/{token}',
  path: invitationTokenPathSchema,
  async run({ path, deps }) {
    return confirmInvitation(deps, path.token);
  },
});
