/** The Google Drive and Dropbox providers, configured from the environment (docs/integrations.md). */
import type { DriveProviders } from '../../core/drive-import/ports';
import { env } from '../../runtime/env';
import { dropboxDrive } from './dropbox';
import { googleDrive } from './google';

/**
 * The providers of one handler. `googleClientSecret` gives Google's client secret at the first token exchange or
 * refresh (Deps.googleClientSecret: GOOGLE_CLIENT_SECRET in local mode, the Secrets Manager secret
 * GOOGLE_CLIENT_SECRET_ID names in AWS, for the handlers that declare googleClientSecret).
 */
export function driveProviders(googleClientSecret: () => Promise<string>): DriveProviders {
  return {
    google: googleDrive(() => {
      const e = env();
      return { clientId: e.GOOGLE_CLIENT_ID, clientSecret: googleClientSecret, oauthUrl: e.GOOGLE_OAUTH_URL, apiUrl: e.GOOGLE_API_URL };
    }),
    dropbox: dropboxDrive(() => {
      const e = env();
      return { appKey: e.DROPBOX_APP_KEY, baseUrl: e.DROPBOX_URL };
    }),
  };
}
