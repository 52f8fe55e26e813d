import { contentPathSchema, setNotesSchema } from '../../../shared/schemas/content';
import { companyScopedQuerySchema } from '../../../shared/schemas/receipts';
import { setReceiptNotes } from '../../core/content/edit';
import { httpHandler, requireCaller } from '../../runtime/http-handler';
import { editWiring } from './edit-wiring';

/** PUT /receipt/{id}/notes: the edit screen's notes, stored as the typing stops. */
export const handler = httpHandler({
  route: 'PUT /receipt/{id}/notes',
  path: contentPathSchema,
  query: companyScopedQuerySchema,
  body: setNotesSchema,
  async run({ path, body, caller, deps, log }) {
    const w = editWiring(deps, log);
    return setReceiptNotes(w.ports, w.workflow, requireCaller(caller), path.id, body);
  },
});
