import { companyScopedQuerySchema, receiptIdPathSchema } from '../../../shared/schemas/receipts';
import { getDocument } from '../../core/documents/workflow';
import { httpHandler, requireCaller } from '../../runtime/http-handler';

/** GET /receipts/{id}: the full document with pages (presigned image URLs), content and history. */
export const handler = httpHandler({
  route: 'GET /receipts/{id}',
  path: receiptIdPathSchema,
  query: companyScopedQuerySchema,
  async run({ path, caller, deps }) {
    return getDocument(deps, requireCaller(caller), path.id);
  },
});
