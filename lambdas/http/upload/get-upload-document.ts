import { uploadDocumentQuerySchema, uploadDocumentResponseSchema } from '../../../shared/schemas/receipts';
import { requestUpload } from '../../core/documents/upload';
import { httpHandler, requireCaller } from '../../runtime/http-handler';

/** GET /upload/document: presigned PUT URL for one object; company_id NONE uploads an unassigned document. */
export const handler = httpHandler({
  route: 'GET /upload/document',
  response: { schema: uploadDocumentResponseSchema },
  query: uploadDocumentQuerySchema,
  async run({ query, caller, deps }) {
    const c = requireCaller(caller);
    return requestUpload(deps, c, query);
  },
});
