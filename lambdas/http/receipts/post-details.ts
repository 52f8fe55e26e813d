import { detailsBodySchema, detailsQuerySchema, detailsResponseSchema } from '../../../shared/schemas/receipts';
import { getDocumentDetails } from '../../core/documents/details';
import { httpHandler, requireCaller } from '../../runtime/http-handler';

/** POST /receipts/details: the full documents (content included) of up to 100 ids of one company, for the CSV and PDF exports. */
export const handler = httpHandler({
  route: 'POST /receipts/details',
  query: detailsQuerySchema,
  body: detailsBodySchema,
  response: { schema: detailsResponseSchema, description: 'The documents found in the order asked; the ids not found; the ids to ask for again' },
  async run({ body, caller, deps }) {
    return getDocumentDetails(deps, requireCaller(caller), body.receipt_ids);
  },
});
