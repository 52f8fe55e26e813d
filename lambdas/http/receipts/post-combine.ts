import { combineBodySchema, companyScopedQuerySchema, receiptIdPathSchema } from '../../../shared/schemas/receipts';
import { combineDocuments } from '../../core/documents/workflow';
import { httpHandler, requireCaller } from '../../runtime/http-handler';

/** POST /receipts/{id}/combine: the pages of body.receipt_id join this document, which stays. */
export const handler = httpHandler({
  route: 'POST /receipts/{id}/combine',
  path: receiptIdPathSchema,
  query: companyScopedQuerySchema,
  body: combineBodySchema,
  async run({ path, body, caller, deps, log }) {
    return combineDocuments({ ...deps, log }, requireCaller(caller), path.id, body.receipt_id, body.version);
  },
});
