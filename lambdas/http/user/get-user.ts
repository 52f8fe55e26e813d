import { withGlobalAdminFlag } from '../../core/admin/global-admin';
import { openOwnProfile } from '../../core/accounts/users';
import { httpHandler, requireCaller } from '../../runtime/http-handler';

export const handler = httpHandler({
  route: 'GET /user',
  async run({ caller, deps }) {
    const c = requireCaller(caller);
    return withGlobalAdminFlag(await openOwnProfile(deps, c.userId), c.groups, deps.globalAdminEmails);
  },
});
