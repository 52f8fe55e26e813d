import {
  adminCompanyPathSchema,
  updateAvailableDocumentsQuerySchema,
  updateAvailableDocumentsSchema,
} from '../../../shared/schemas/admin';
import { updateAvailableDocuments } from '../../core/admin/admin';
import { httpHandler } from '../../runtime/http-handler';

export const handler = httpHandler({
  route: 'POST /admin/companies/{id}/updateAvailableDocuments',
  path: adminCompanyPathSchema,
  query: updateAvailableDocumentsQuerySchema,
  body: updateAvailableDocumentsSchema,
  async run({ path, query, body, deps }) {
    return updateAvailableDocuments(deps, path.id, { available: body.available_documents, expected: body.expected_available_documents, reset: query.reset === '1' });
  },
});
