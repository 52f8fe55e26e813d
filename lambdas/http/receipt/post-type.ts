import { companyScopedQuerySchema, receiptIdPathSchema, typeBodySchema } from '../../../shared/schemas/receipts';
import { convertType } from '../../core/documents/workflow';
import { httpHandler, requireCaller } from '../../runtime/http-handler';

/** POST /receipt/{id}/type: receipt ⇄ invoice; the counts move between the types. */
export const handler = httpHandler({
  route: 'POST /receipt/{id}/type',
  path: receiptIdPathSchema,
  query: companyScopedQuerySchema,
  body: typeBodySchema,
  async run({ path, body, caller, deps }) {
    return convertType(deps, requireCaller(caller), path.id, body.receipt_type, body.version);
  },
});
