import { companyScopedQuerySchema, receiptIdPathSchema } from '../../../shared/schemas/receipts';
import { getDuplicates } from '../../core/documents/workflow';
import { httpHandler, requireCaller } from '../../runtime/http-handler';

/** GET /receipts/{id}/duplicates: same file in the company, and same counterparty + number + total. */
export const handler = httpHandler({
  route: 'GET /receipts/{id}/duplicates',
  path: receiptIdPathSchema,
  query: companyScopedQuerySchema,
  async run({ path, caller, deps }) {
    return getDuplicates(deps, requireCaller(caller), path.id);
  },
});
