import { updateProfileSchema } from '../../../shared/schemas/user';
import { updateOwnProfile } from '../../core/accounts/users';
import { httpHandler, requireCaller } from '../../runtime/http-handler';

export const handler = httpHandler({
  route: 'POST /user',
  body: updateProfileSchema,
  async run({ body, caller, deps }) {
    return updateOwnProfile(deps, requireCaller(caller).userId, body);
  },
});
