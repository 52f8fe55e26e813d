import { emailIdPathSchema, emailQuerySchema } from '../../../shared/schemas/emails';
import { getEmail } from '../../core/email-in/view';
import { httpHandler, requireCaller } from '../../runtime/http-handler';

/** GET /emails/{id}: the email a document arrived with (members of the email's company only; 404 otherwise). */
export const handler = httpHandler({
  route: 'GET /emails/{id}',
  path: emailIdPathSchema,
  query: emailQuerySchema,
  async run({ path, caller, deps }) {
    return getEmail(deps, requireCaller(caller), path.id);
  },
});
