import { contentPathSchema, editReceiptQuerySchema, editReceiptSchema } from '../../../shared/schemas/content';
import { sqsExportQueue } from '../../adapters/sqs/export-queue';
import { editReceipt } from '../../core/content/edit';
import { sendConfirmed } from '../../core/integrations/export';
import { httpHandler, requireCaller } from '../../runtime/http-handler';
import { editWiring } from './edit-wiring';

/**
 * POST /receipt/{id}?with_send=: the edit screen's actions (CONFIRM / REVIEW AND SEND, Review, REJECT):
 * unsaved values are saved, the content is validated (422 with the errors by content id), then the status moves;
 * a confirm learns the supplier's layout (docs/recognition.md), links the supplier/customer to the register
 * (created when new) and is queued for the company's export targets (lambdas/core/integrations/export.ts; a queue
 * that fails leaves the export error on the document and answers that it was confirmed but not sent);
 * category_id / external_category_id set the document's category.
 */
export const handler = httpHandler({
  route: 'POST /receipt/{id}',
  path: contentPathSchema,
  query: editReceiptQuerySchema,
  body: editReceiptSchema,
  async run({ path, query, body, caller, deps, log }) {
    const c = requireCaller(caller);
    const w = editWiring(deps, log);
    const result = await editReceipt(w.ports, w.workflow, c, path.id, body, query.with_send, w.learning, w.masterData);
    if (query.with_send && result.receipt.status === 'archive') await sendConfirmed({ ...deps, queue: sqsExportQueue, log }, c, path.id);
    return result;
  },
});
