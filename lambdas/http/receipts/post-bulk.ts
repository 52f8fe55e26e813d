import { bulkBodySchema, companyScopedQuerySchema } from '../../../shared/schemas/receipts';
import { isTransactionConflict } from '../../adapters/ddb/transaction-retry';
import { sqsExportQueue } from '../../adapters/sqs/export-queue';
import { changeDocumentStatus } from '../../core/content/edit';
import { bulkAction } from '../../core/documents/bulk';
import { sendDocuments } from '../../core/integrations/export';
import { httpHandler, requireCaller } from '../../runtime/http-handler';
import { editWiring, sendConfirm } from '../receipt/edit-wiring';

/**
 * POST /receipts/bulk: status, flag, type or delete on receipt_ids; answers per document (a status change may name
 * the version of each document the client read: one changed since answers 409 on its own). `send` confirms the
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
    // The status change as the edit screen makes it, wired to the call's adapters (core/documents/bulk.ts `callDeps`).
    let callWiring: typeof w | undefined;
    return bulkAction(
      { ...deps, log },
      requireCaller(caller),
      body,
      (d, c, id, status, version) => {
        callWiring ??= editWiring(d, log);
        return changeDocumentStatus(callWiring.ports, callWiring.workflow, c, id, status, version, callWiring.masterData.store);
      },
      // A document whose transaction still meets others after the client's retries answers 503 on its own.
      { isBusy: isTransactionConflict },
    );
  },
});
