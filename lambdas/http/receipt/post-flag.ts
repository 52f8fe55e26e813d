import { companyScopedQuerySchema, flagBodySchema, receiptIdPathSchema } from '../../../shared/schemas/receipts';
import { setFlag } from '../../core/documents/workflow';
import { httpHandler, requireCaller } from '../../runtime/http-handler';

/** POST /receipt/{id}/flag */
export const handler = httpHandler({
  route: 'POST /receipt/{id}/flag',
  path: receiptIdPathSchema,
  query: companyScopedQuerySchema,
  body: flagBodySchema,
  async run({ path, body, caller, deps }) {
    return setFlag(deps, requireCaller(caller), path.id, body.flag, body.version);
  },
});
