import { companyScopedQuerySchema, receiptIdPathSchema, restartBodySchema } from '../../../shared/schemas/receipts';
import { restartDocument } from '../../core/documents/workflow';
import { httpHandler, requireCaller } from '../../runtime/http-handler';

/** POST /receipts/{id}/restart: Try Again for a failed document (can_be_restarted becomes false). */
export const handler = httpHandler({
  route: 'POST /receipts/{id}/restart',
  path: receiptIdPathSchema,
  query: companyScopedQuerySchema,
  body: restartBodySchema,
  async run({ path, body, caller, deps }) {
    return restartDocument(deps, requireCaller(caller), path.id, body.version);
  },
});
