import { companyScopedQuerySchema, receiptIdPathSchema, statusBodySchema } from '../../../shared/schemas/receipts';
import { changeStatus } from '../../core/documents/workflow';
import { httpHandler, requireCaller } from '../../runtime/http-handler';

/** POST /receipt/{id}/status: archive, unarchive (→ review), review, ready, reject. */
export const handler = httpHandler({
  route: 'POST /receipt/{id}/status',
  path: receiptIdPathSchema,
  query: companyScopedQuerySchema,
  body: statusBodySchema,
  async run({ path, body, caller, deps }) {
    return changeStatus(deps, requireCaller(caller), path.id, body.status, body.version);
  },
});
