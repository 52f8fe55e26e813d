import { contentPathSchema, setCategorySchema } from '../../../shared/schemas/content';
import { companyScopedQuerySchema } from '../../../shared/schemas/receipts';
import { setReceiptCategory } from '../../core/content/edit';
import { httpHandler, requireCaller } from '../../runtime/http-handler';
import { editWiring } from './edit-wiring';

/** PUT /receipt/{id}/category: the edit screen's category, stored as soon as it is picked. */
export const handler = httpHandler({
  route: 'PUT /receipt/{id}/category',
  path: contentPathSchema,
  query: companyScopedQuerySchema,
  body: setCategorySchema,
  async run({ path, body, caller, deps, log }) {
    const w = editWiring(deps, log);
    return setReceiptCategory(w.ports, requireCaller(caller), path.id, body, w.masterData);
  },
});
