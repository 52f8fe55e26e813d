/** The Google Drive and Dropbox providers, configured from the environment (docs/integrations.md). */
import type { DriveProviders } from '../../core/drive-import/ports';
import { env } from '../../runtime/env';
import { dropboxDrive } from './dropbox';
import { googleDrive } from './google';

export const driveProviders: DriveProviders = {
  google: googleDrive(() => {
    const e = env();
    return { clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET, oauthUrl: e.GOOGLE_OAUTH_URL, apiUrl: e.GOOGLE_API_URL };
  }),
  dropbox: dropboxDrive(() => {
    const e = env();
    return { appKey: e.DROPBOX_APP_KEY, baseUrl: e.DROPBOX_URL };
  }),
};
