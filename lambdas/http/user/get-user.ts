import { withGlobalAdminFlag } from '../../core/admin/global-admin';
import { getOwnProfile } from '../../core/accounts/users';
import { httpHandler, requireCaller } from '../../runtime/http-handler';

export const handler = httpHandler({
  route: 'GET /user',
  async run({ caller, deps }) {
    const c = requireCaller(caller);
    return withGlobalAdminFlag(await getOwnProfile(deps, c.userId), c.groups, deps.globalAdminEmails);
  },
});
