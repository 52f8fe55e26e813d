import { companyQuerySchema, idPathSchema } from '../../../shared/schemas/master-data';
import { getImportResult } from '../../core/master-data/import/service';
import { httpHandler, requireCaller } from '../../runtime/http-handler';

/** GET /upload/import/{id}: the result of a master-data import of the caller's company (404 for another company's). */
export const handler = httpHandler({
  route: 'GET /upload/import/{id}',
  query: companyQuerySchema,
  path: idPathSchema,
  async run({ path, caller, deps }) {
    return getImportResult(deps, requireCaller(caller), path.id);
  },
});
