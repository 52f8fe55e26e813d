import { bulkBodySchema, companyScopedQuerySchema } from '../../../shared/schemas/receipts';
import { bulkAction } from '../../core/documents/bulk';
import { httpHandler, requireCaller } from '../../runtime/http-handler';

/** POST /receipts/bulk: status, flag, type or delete on receipt_ids; answers per document. */
export const handler = httpHandler({
  route: 'POST /receipts/bulk',
  query: companyScopedQuerySchema,
  body: bulkBodySchema,
  async run({ body, caller, deps }) {
    return bulkAction(deps, requireCaller(caller), body);
  },
});
