import { deleteReceiptQuerySchema, receiptIdPathSchema } from '../../../shared/schemas/receipts';
import { deleteDocument } from '../../core/documents/workflow';
import { httpHandler, requireCaller } from '../../runtime/http-handler';

/** DELETE /receipt/{id}: also the caller's own unassigned documents (unassigned=1, company_id NONE). */
export const handler = httpHandler({
  route: 'DELETE /receipt/{id}',
  path: receiptIdPathSchema,
  query: deleteReceiptQuerySchema,
  async run({ path, query, caller, deps, log }) {
    return deleteDocument({ ...deps, log }, requireCaller(caller), path.id, query.version);
  },
});
