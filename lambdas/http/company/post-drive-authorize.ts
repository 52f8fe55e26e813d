import { driveAuthorizeBodySchema, driveServiceQuerySchema } from '../../../shared/schemas/drive';
import { driveDeps } from '../../adapters/drive/deps';
import { completeAuthorization } from '../../core/drive-import/service';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

/** POST /company/service/drive/authorize: the code and state the provider sent to /integration/{service_type}/authcallback. */
export const handler = httpHandler({
  route: 'POST /company/service/drive/authorize',
  query: driveServiceQuerySchema,
  body: driveAuthorizeBodySchema,
  async run({ body, caller, deps, log }) {
    const c = requireCompany(caller);
    return completeAuthorization(driveDeps(deps, log), { userId: c.userId, companyId: c.companyId }, body);
  },
});
