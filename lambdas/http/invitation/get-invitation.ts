import { invitationTokenPathSchema } from '../../../shared/schemas/team';
import { readInvitation } from '../../core/team/invitations';
import { httpHandler } from '../../runtime/http-handler';

/** Public: the token in the path is the credential. */
export const handler = httpHandler({
  route: 'GET /invitation/{token}',
  path: invitationTokenPathSchema,
  async run({ path, deps }) {
    return readInvitation(deps, path.token);
  },
});
