import { listReceiptsQuerySchema, listReceiptsResponseSchema } from '../../../shared/schemas/receipts';
import { listDocuments } from '../../core/documents/queries';
import { httpHandler, requireCaller } from '../../runtime/http-handler';

/** GET /receipts: the document list, newest first, 50 a page; `next` (+ `next_company`) continues. */
export const handler = httpHandler({
  route: 'GET /receipts',
  response: { schema: listReceiptsResponseSchema },
  query: listReceiptsQuerySchema,
  async run({ query, caller, deps }) {
    const { items, next, next_company } = await listDocuments(deps, requireCaller(caller), query);
    return { items, next, next_company };
  },
});
