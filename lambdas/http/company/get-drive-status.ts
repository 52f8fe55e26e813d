import { driveServiceQuerySchema } from '../../../shared/schemas/drive';
import { driveDeps } from '../../adapters/drive/deps';
import { driveStatus } from '../../core/drive-import/service';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

/** GET /company/service/drive/status: per service, connected or not, the folder, the last run and its error. */
export const handler = httpHandler({
  route: 'GET /company/service/drive/status',
  query: driveServiceQuerySchema,
  async run({ caller, deps, log }) {
    const c = requireCompany(caller);
    return driveStatus(driveDeps(deps, log), { userId: c.userId, companyId: c.companyId });
  },
});
