import { contentPathSchema } from '../../../shared/schemas/content';
import { getBoxes } from '../../core/content/service';
import { httpHandler, requireCaller } from '../../runtime/http-handler';
import { contentPorts } from './content-ports';

/** GET /receipts/{id}/bboxes: the OCR word and line boxes of every page. */
export const handler = httpHandler({
  route: 'GET /receipts/{id}/bboxes',
  path: contentPathSchema,
  async run({ path, caller, deps }) {
    return getBoxes(contentPorts(deps), requireCaller(caller), path.id);
  },
});
