import { driveServiceQuerySchema } from '../../../shared/schemas/drive';
import { ddbDriveStore } from '../../adapters/ddb/drive-store';
import { ddbIntegrationStore } from '../../adapters/ddb/integrations-store';
import { driveStatus } from '../../core/drive-import/service';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

/**
 * GET /company/service/drive/status: per service, connected or not, the folder, the last run and its error.
 * Reads whether a grant is stored, never opens it (this handler holds no key).
 */
export const handler = httpHandler({
  route: 'GET /company/service/drive/status',
  query: driveServiceQuerySchema,
  async run({ caller }) {
    const c = requireCompany(caller);
    return driveStatus({ drive: ddbDriveStore, integrations: ddbIntegrationStore }, { userId: c.userId, companyId: c.companyId });
  },
});
