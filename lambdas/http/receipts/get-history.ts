import { companyScopedQuerySchema, receiptIdPathSchema } from '../../../shared/schemas/receipts';
import { getHistory } from '../../core/documents/workflow';
import { httpHandler, requireCaller } from '../../runtime/http-handler';

/** GET /receipts/{id}/history: every action on the document, oldest first. */
export const handler = httpHandler({
  route: 'GET /receipts/{id}/history',
  path: receiptIdPathSchema,
  query: companyScopedQuerySchema,
  async run({ path, caller, deps }) {
    return getHistory(deps, requireCaller(caller), path.id);
  },
});
