import { updateProfileSchema } from '../../../shared/schemas/user';
import { withGlobalAdminFlag } from '../../core/admin/global-admin';
import { updateOwnProfile } from '../../core/accounts/users';
import { httpHandler, requireCaller } from '../../runtime/http-handler';

/** POST /user: the changed contact fields; answers the profile as GET /user does (the platform-admin flag from every source). */
export const handler = httpHandler({
  route: 'POST /user',
  body: updateProfileSchema,
  async run({ body, caller, deps }) {
    const c = requireCaller(caller);
    return withGlobalAdminFlag(await updateOwnProfile(deps, c.userId, body), c.groups, deps.globalAdminEmails);
  },
});
