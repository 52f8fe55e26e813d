import { describe, expect, it } from 'vitest';
import { createGoogleDriveStandIn } from '../../../scripts/local/google-drive-server';
import { DEMO_GOOGLE_FOLDERS, seedDemoGoogleFolders } from '../../../scripts/local/seed-drive';

describe('local demo: the Google Drive stand-in', () => {
  it('holds folders to choose once Google is switched on (it was empty, so no folder could be chosen)', async () => {
    const google = createGoogleDriveStandIn({});
    expect(google.folderByName('Receipts inbox')).toBeUndefined();
    seedDemoGoogleFolders({ google });
    for (const name of DEMO_GOOGLE_FOLDERS) expect(google.folderByName(name)).toEqual(expect.any(String));
  });
});
