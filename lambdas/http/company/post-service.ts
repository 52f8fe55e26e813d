import { companyIdQuerySchema } from '../../../shared/schemas/company';
import { postServiceSchema } from '../../../shared/schemas/integrations';
import { ftpFileDrop } from '../../adapters/ftp/file-drop';
import { ddbIntegrationStore } from '../../adapters/ddb/integrations-store';
import { rivileClient } from '../../adapters/rivile/client';
import { secretBox } from '../../adapters/secrets';
import { changeService } from '../../core/integrations/service';
import { ddbSyncStateStore } from '../../adapters/ddb/sync-store';
import { sqlConnector } from '../../adapters/sql/connector';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

const rivile = rivileClient();

/**
 * POST /company/service: switch an integration on (after a real connection test) or off; answers the company.
 * The one HTTP handler that holds the credentials key (seal new credentials, open stored ones to re-test).
 */
export const handler = httpHandler({
  route: 'POST /company/service',
  query: companyIdQuerySchema,
  body: postServiceSchema,
  async run({ body, caller, deps }) {
    const c = requireCompany(caller);
    return changeService(
      { store: deps.store, live: deps.live, clock: deps.clock, emailInDomain: deps.emailInDomain, integrations: ddbIntegrationStore, secrets: secretBox(), fileDrop: ftpFileDrop, rivile, syncState: ddbSyncStateStore, sql: sqlConnector },
      { userId: c.userId, companyId: c.companyId },
      body,
    );
  },
});
