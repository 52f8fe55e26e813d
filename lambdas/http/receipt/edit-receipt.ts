import { contentPathSchema, editReceiptQuerySchema, editReceiptSchema } from '../../../shared/schemas/content';
import { editReceipt } from '../../core/content/edit';
import { changeStatus, convertType, type DocumentDeps } from '../../core/documents/workflow';
import { ddbDocumentsStore } from '../../adapters/ddb/documents-store';
import { s3Files } from '../../adapters/s3/files';
import { httpHandler, requireCaller } from '../../runtime/http-handler';
import { contentPorts } from '../receipts/content-ports';

/**
 * POST /receipt/{id}?with_send=: the edit screen's actions (CONFIRM / REVIEW AND SEND, Review, REJECT):
 * unsaved values are saved, the content is validated (422 with the errors by content id), then the status moves.
 */
export const handler = httpHandler({
  route: 'POST /receipt/{id}',
  path: contentPathSchema,
  query: editReceiptQuerySchema,
  body: editReceiptSchema,
  async run({ path, query, body, caller, deps }) {
    const documents: DocumentDeps = { documents: ddbDocumentsStore, files: s3Files, store: deps.store, live: deps.live, clock: deps.clock, ids: deps.ids };
    return editReceipt(
      contentPorts(deps),
      {
        changeStatus: (c, id, status, version) => changeStatus(documents, c, id, status, version),
        convertType: (c, id, type, version) => convertType(documents, c, id, type, version),
      },
      requireCaller(caller),
      path.id,
      body,
      query.with_send,
    );
  },
});
