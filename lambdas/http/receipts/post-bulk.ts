import { bulkBodySchema, companyScopedQuerySchema } from '../../../shared/schemas/receipts';
import { sqsExportQueue } from '../../adapters/sqs/export-queue';
import { changeDocumentStatus } from '../../core/content/edit';
import { bulkAction } from '../../core/documents/bulk';
import { sendDocuments } from '../../core/integrations/export';
import { httpHandler, requireCaller } from '../../runtime/http-handler';
import { editWiring, sendConfirm } from '../receipt/edit-wiring';

/**
 * POST /receipts/bulk: status, flag, type or delete on receipt_ids; answers per document. `send` confirms the
 * documents as the edit screen's CONFIRM does (the same checks) and queues them for the company's export targets,
 * also to send again after a failure.
 */
export const handler = httpHandler({
  route: 'POST /receipts/bulk',
  query: companyScopedQuerySchema,
  body: bulkBodySchema,
  async run({ body, caller, deps, log }) {
    const w = editWiring(deps, log);
    if (body.action === 'send') return sendDocuments({ ...deps, queue: sqsExportQueue, log }, sendConfirm(w), requireCaller(caller), body.receipt_ids);
    return bulkAction(deps, requireCaller(caller), body, (c, id, status) => changeDocumentStatus(w.ports, w.workflow, c, id, status));
  },
});
