import { applyGridSchema, contentPathSchema } from '../../../shared/schemas/content';
import { applyReceiptGrid } from '../../core/content/service';
import { httpHandler, requireCaller } from '../../runtime/http-handler';
import { contentPorts } from './content-ports';

/** POST /receipts/{id}/grid: the grid's parts become the rows of the line-items table. */
export const handler = httpHandler({
  route: 'POST /receipts/{id}/grid',
  path: contentPathSchema,
  body: applyGridSchema,
  async run({ path, body, caller, deps }) {
    return applyReceiptGrid(contentPorts(deps), requireCaller(caller), path.id, body);
  },
});
