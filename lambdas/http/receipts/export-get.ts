import { z } from 'zod';
import { contentPathSchema, exportQuerySchema } from '../../../shared/schemas/content';
import { exportReceipts } from '../../core/export/service';
import { httpHandler, requireCaller } from '../../runtime/http-handler';
import { contentPorts } from './content-ports';

/** GET /receipts/{id}/export: {mime, base64, name} of a CSV, PDF, XML or i.SAF file. */
export const handler = httpHandler({
  route: 'GET /receipts/{id}/export',
  path: contentPathSchema,
  query: exportQuerySchema.extend({ company_id: z.string().optional() }),
  async run({ path, query, caller, deps }) {
    return exportReceipts(contentPorts(deps), requireCaller(caller), path.id, query);
  },
});
