import { driveSwitchQuerySchema } from '../../../shared/schemas/drive';
import { driveDeps } from '../../adapters/drive/deps';
import { switchDrive } from '../../core/drive-import/service';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

/** GET /company/service/drive/switch: the provider's authorisation URL (state bound to company and user), or switching off. */
export const handler = httpHandler({
  route: 'GET /company/service/drive/switch',
  query: driveSwitchQuerySchema,
  async run({ query, caller, deps, log }) {
    const c = requireCompany(caller);
    return switchDrive(driveDeps(deps, log), { userId: c.userId, companyId: c.companyId }, query);
  },
});
