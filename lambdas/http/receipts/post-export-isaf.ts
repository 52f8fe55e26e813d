import { exportIsafBodySchema, exportIsafQuerySchema } from '../../../shared/schemas/receipts';
import { exportDocuments } from '../../core/export/service';
import { httpHandler, requireCaller } from '../../runtime/http-handler';
import { contentPorts } from './content-ports';

/** POST /receipts/export-isaf: {mime, base64, name} of the i.SAF register of the selected documents (ids in the body). */
export const handler = httpHandler({
  route: 'POST /receipts/export-isaf',
  query: exportIsafQuerySchema,
  body: exportIsafBodySchema,
  async run({ body, query, caller, deps }) {
    return exportDocuments(contentPorts(deps), requireCaller(caller), body.receipt_ids, { type: 'isaf', registration_number: query.registration_number });
  },
});
