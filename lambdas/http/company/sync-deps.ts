/** The adapters of the master-data imports (SQL, Rivile), shared by their handlers and the schedule's job. */
import { ddbIntegrationStore } from '../../adapters/ddb/integrations-store';
import { ddbSyncStateStore } from '../../adapters/ddb/sync-store';
import { rivileClient } from '../../adapters/rivile/client';
import { secretBox } from '../../adapters/secrets';
import { sqlConnector } from '../../adapters/sql/connector';
import type { SyncDeps } from '../../core/master-data/sync/service';
import type { Deps } from '../../runtime/deps';

const rivile = rivileClient();

export function syncDeps(deps: Pick<Deps, 'masterData' | 'clock' | 'ids'>): SyncDeps {
  return {
    masterData: deps.masterData,
    clock: deps.clock,
    ids: deps.ids,
    syncState: ddbSyncStateStore,
    integrations: ddbIntegrationStore,
    secrets: secretBox(),
    sql: sqlConnector,
    rivile,
  };
}
