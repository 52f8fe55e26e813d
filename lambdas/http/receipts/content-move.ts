import { contentPathSchema, moveContentSchema } from '../../../shared/schemas/content';
import { moveLine } from '../../core/content/service';
import { httpHandler, requireCaller } from '../../runtime/http-handler';
import { contentPorts } from './content-ports';

/** PUT /receipts/{id}/content/move: moves a row to another place of its table. */
export const handler = httpHandler({
  route: 'PUT /receipts/{id}/content/move',
  path: contentPathSchema,
  body: moveContentSchema,
  async run({ path, body, caller, deps }) {
    return moveLine(contentPorts(deps), requireCaller(caller), path.id, body);
  },
});
