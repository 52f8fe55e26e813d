import { importUploadQuerySchema } from '../../../shared/schemas/master-data';
import { requestImportUpload } from '../../core/master-data/import/service';
import { httpHandler, requireCaller } from '../../runtime/http-handler';

/** GET /upload/import: records a pending master-data import and hands out a presigned PUT for the workbook. */
export const handler = httpHandler({
  route: 'GET /upload/import',
  query: importUploadQuerySchema,
  async run({ query, caller, deps }) {
    return requestImportUpload(deps, requireCaller(caller), query);
  },
});
