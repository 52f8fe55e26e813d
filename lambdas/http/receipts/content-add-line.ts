import { addLineSchema, contentLinePathSchema } from '../../../shared/schemas/content';
import { addLine } from '../../core/content/service';
import { httpHandler, requireCaller } from '../../runtime/http-handler';
import { contentPorts } from './content-ports';

/** POST /receipts/{id}/content/{line}: a new empty row in multivalue {line}. */
export const handler = httpHandler({
  route: 'POST /receipts/{id}/content/{line}',
  path: contentLinePathSchema,
  body: addLineSchema,
  successStatus: 201,
  async run({ path, body, caller, deps }) {
    return addLine(contentPorts(deps), requireCaller(caller), path.id, path.line, body);
  },
});
