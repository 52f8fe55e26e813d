import { getOwnProfile } from '../../core/accounts/users';
import { httpHandler, requireCaller } from '../../runtime/http-handler';

export const handler = httpHandler({
  route: 'GET /user',
  async run({ caller, deps }) {
    return getOwnProfile(deps, requireCaller(caller).userId);
  },
});
