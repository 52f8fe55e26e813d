/** What the Google Drive and Dropbox handlers and the schedule's job hand to lambdas/core/drive-import. */
import type { DriveDeps } from '../../core/drive-import/service';
import type { Deps } from '../../runtime/deps';
import type { Logger } from '../../runtime/logger';
import { ddbDriveStore } from '../ddb/drive-store';
import { ddbIntegrationStore } from '../ddb/integrations-store';
import { secretBox } from '../secrets';
import { driveProviders } from './index';

export function driveDeps(d: Deps, log?: Logger): DriveDeps {
  return {
    store: d.store,
    drive: ddbDriveStore,
    integrations: ddbIntegrationStore,
    secrets: secretBox(),
    providers: driveProviders(d.googleClientSecret),
    clock: d.clock,
    live: d.live,
    appUrl: d.appUrl,
    emailInDomain: d.emailInDomain,
    log,
  };
}
