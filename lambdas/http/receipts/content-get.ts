import { contentPathSchema } from '../../../shared/schemas/content';
import { getContent } from '../../core/content/service';
import { httpHandler, requireCaller } from '../../runtime/http-handler';
import { contentPorts } from './content-ports';

/** GET /receipts/{id}/content: the content tree with its version and validation errors. */
export const handler = httpHandler({
  route: 'GET /receipts/{id}/content',
  path: contentPathSchema,
  async run({ path, caller, deps }) {
    return getContent(contentPorts(deps), requireCaller(caller), path.id);
  },
});
