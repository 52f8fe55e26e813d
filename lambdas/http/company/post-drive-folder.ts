import { driveFolderBodySchema, driveServiceQuerySchema } from '../../../shared/schemas/drive';
import { driveDeps } from '../../adapters/drive/deps';
import { chooseDriveFolder } from '../../core/drive-import/service';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

/** POST /company/service/drive/folders: the folder whose new files become documents; answers the company. */
export const handler = httpHandler({
  route: 'POST /company/service/drive/folders',
  query: driveServiceQuerySchema,
  body: driveFolderBodySchema,
  async run({ body, caller, deps, log }) {
    const c = requireCompany(caller);
    return chooseDriveFolder(driveDeps(deps, log), { userId: c.userId, companyId: c.companyId }, body);
  },
});
