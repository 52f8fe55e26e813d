import { totalDocumentsResponseSchema } from '../../../shared/schemas/receipts';
import { z } from 'zod';
import { totalDocuments } from '../../core/documents/queries';
import { httpHandler, requireCaller } from '../../runtime/http-handler';

/** GET /receipts/total-documents: counts by status per type (exact: counts change with every status change). */
export const handler = httpHandler({
  route: 'GET /receipts/total-documents',
  response: { schema: totalDocumentsResponseSchema },
  query: z.object({ company_id: z.string().optional(), selected: z.enum(['ALL']).optional() }),
  async run({ query, caller, deps }) {
    return totalDocuments(deps, requireCaller(caller), query);
  },
});
