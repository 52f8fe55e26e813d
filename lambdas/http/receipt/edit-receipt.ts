import { contentPathSchema, editReceiptQuerySchema, editReceiptSchema } from '../../../shared/schemas/content';
import { editReceipt } from '../../core/content/edit';
import { changeStatus, convertType } from '../../core/documents/workflow';
import { httpHandler, requireCaller } from '../../runtime/http-handler';
import { contentPorts } from '../receipts/content-ports';

/**
 * POST /receipt/{id}?with_send=: the edit screen's actions (CONFIRM / REVIEW AND SEND, Review, REJECT):
 * unsaved values are saved, the content is validated (422 with the errors by content id), then the status moves;
 * a confirm learns the supplier's layout (docs/recognition.md).
 */
export const handler = httpHandler({
  route: 'POST /receipt/{id}',
  path: contentPathSchema,
  query: editReceiptQuerySchema,
  body: editReceiptSchema,
  async run({ path, query, body, caller, deps, log }) {
    return editReceipt(
      contentPorts(deps),
      {
        changeStatus: (c, id, status, version) => changeStatus(deps, c, id, status, version),
        convertType: (c, id, type, version) => convertType(deps, c, id, type, version),
      },
      requireCaller(caller),
      path.id,
      body,
      query.with_send,
      { layouts: deps.layouts, log },
    );
  },
});
