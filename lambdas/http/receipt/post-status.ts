import { companyScopedQuerySchema, receiptIdPathSchema, statusBodySchema } from '../../../shared/schemas/receipts';
import { changeDocumentStatus } from '../../core/content/edit';
import { httpHandler, requireCaller } from '../../runtime/http-handler';
import { editWiring } from './edit-wiring';

/** POST /receipt/{id}/status: archive, unarchive (→ review), review, ready (only content a confirm would take), reject. */
export const handler = httpHandler({
  route: 'POST /receipt/{id}/status',
  path: receiptIdPathSchema,
  query: companyScopedQuerySchema,
  body: statusBodySchema,
  async run({ path, body, caller, deps, log }) {
    const w = editWiring(deps, log);
    return changeDocumentStatus(w.ports, w.workflow, requireCaller(caller), path.id, body.status, body.version, w.masterData.store);
  },
});
