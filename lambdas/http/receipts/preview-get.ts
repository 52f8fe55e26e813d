import { contentPathSchema } from '../../../shared/schemas/content';
import { getPreview } from '../../core/content/preview';
import { httpHandler, requireCaller } from '../../runtime/http-handler';
import { contentPorts } from './content-ports';

/** GET /receipts/{id}/preview: page image URLs and the main captured values, for the list's preview. */
export const handler = httpHandler({
  route: 'GET /receipts/{id}/preview',
  path: contentPathSchema,
  async run({ path, caller, deps }) {
    return getPreview(contentPorts(deps), requireCaller(caller), path.id);
  },
});
