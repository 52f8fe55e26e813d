import { contentPathSchema, updateContentSchema } from '../../../shared/schemas/content';
import { updateContent } from '../../core/content/service';
import { httpHandler, requireCaller } from '../../runtime/http-handler';
import { contentPorts } from './content-ports';

/** PUT /receipts/{id}/content: changed values on top of `version`; 409 with the current version when stale. */
export const handler = httpHandler({
  route: 'PUT /receipts/{id}/content',
  path: contentPathSchema,
  body: updateContentSchema,
  async run({ path, body, caller, deps }) {
    return updateContent(contentPorts(deps), requireCaller(caller), path.id, body);
  },
});
