import { contentPathSchema, editReceiptQuerySchema, editReceiptSchema } from '../../../shared/schemas/content';
import { editReceipt } from '../../core/content/edit';
import { changeStatus, convertType, setDocumentMasterData } from '../../core/documents/workflow';
import { ensureStakeholder } from '../../core/master-data/stakeholders';
import { httpHandler, requireCaller } from '../../runtime/http-handler';
import { contentPorts } from '../receipts/content-ports';

/**
 * POST /receipt/{id}?with_send=: the edit screen's actions (CONFIRM / REVIEW AND SEND, Review, REJECT):
 * unsaved values are saved, the content is validated (422 with the errors by content id), then the status moves;
 * a confirm learns the supplier's layout (docs/recognition.md) and links the supplier/customer to the register
 * (created when new); category_id / external_category_id set the document's category.
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
      {
        store: deps.masterData,
        setMasterData: (c, id, patch, history, version) => setDocumentMasterData(deps, c, id, patch, history, version),
        ensureStakeholder: (companyId, type, input) => ensureStakeholder(deps, companyId, type, input),
      },
    );
  },
});
