import { z } from 'zod';
import { contentLinePathSchema, deleteLineQuerySchema } from '../../../shared/schemas/content';
import { deleteLine } from '../../core/content/service';
import { httpHandler, requireCaller } from '../../runtime/http-handler';
import { contentPorts } from './content-ports';

/** DELETE /receipts/{id}/content/{line}?version=: removes row {line}. */
export const handler = httpHandler({
  route: 'DELETE /receipts/{id}/content/{line}',
  path: contentLinePathSchema,
  query: deleteLineQuerySchema.extend({ company_id: z.string().optional() }),
  async run({ path, query, caller, deps }) {
    return deleteLine(contentPorts(deps), requireCaller(caller), path.id, path.line, query.version);
  },
});
