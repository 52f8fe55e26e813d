import { contentPathSchema, validateContentSchema } from '../../../shared/schemas/content';
import { validateReceiptContent } from '../../core/content/service';
import { httpHandler, requireCaller } from '../../runtime/http-handler';
import { contentPorts } from './content-ports';

/** POST /receipts/{id}/content/validate: errors [{id, message}] of the stored content with the sent values. */
export const handler = httpHandler({
  route: 'POST /receipts/{id}/content/validate',
  path: contentPathSchema,
  body: validateContentSchema,
  async run({ path, body, caller, deps }) {
    return validateReceiptContent(contentPorts(deps), requireCaller(caller), path.id, body);
  },
});
