import { driveFoldersQuerySchema } from '../../../shared/schemas/drive';
import { driveDeps } from '../../adapters/drive/deps';
import { listDriveFolders } from '../../core/drive-import/service';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

/** GET /company/service/drive/folders: one page of folders (items, next) for the folder list pop-up. */
export const handler = httpHandler({
  route: 'GET /company/service/drive/folders',
  query: driveFoldersQuerySchema,
  async run({ query, caller, deps, log }) {
    const c = requireCompany(caller);
    return listDriveFolders(driveDeps(deps, log), { userId: c.userId, companyId: c.companyId }, query);
  },
});
