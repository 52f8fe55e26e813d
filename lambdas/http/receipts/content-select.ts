import { contentLinePathSchema, selectBoxSchema } from '../../../shared/schemas/content';
import { selectBox } from '../../core/content/service';
import { httpHandler, requireCaller } from '../../runtime/http-handler';
import { contentPorts } from './content-ports';

/** POST /receipts/{id}/content/{line}/select: fills field {line} from the words inside the picked box. */
export const handler = httpHandler({
  route: 'POST /receipts/{id}/content/{line}/select',
  path: contentLinePathSchema,
  body: selectBoxSchema,
  async run({ path, body, caller, deps }) {
    return selectBox(contentPorts(deps), requireCaller(caller), path.id, body.content_id ?? path.line, body);
  },
});
