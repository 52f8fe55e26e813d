import { contentPathSchema, gridTemplateSchema } from '../../../shared/schemas/content';
import { saveGridTemplate } from '../../core/content/service';
import { httpHandler, requireCaller } from '../../runtime/http-handler';
import { contentPorts } from './content-ports';

/** POST /receipts/{id}/template/grid: saves the document's grid as its supplier's (customer's) template. */
export const handler = httpHandler({
  route: 'POST /receipts/{id}/template/grid',
  path: contentPathSchema,
  body: gridTemplateSchema,
  async run({ path, body, caller, deps }) {
    return saveGridTemplate(contentPorts(deps), requireCaller(caller), path.id, body.content_id);
  },
});
