import { emailListQuerySchema } from '../../../shared/schemas/emails';
import { listEmails } from '../../core/email-in/view';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

/** GET /emails: the mail the company received, newest first (members of the company; company_id required). */
export const handler = httpHandler({
  route: 'GET /emails',
  query: emailListQuerySchema,
  async run({ query, caller, deps }) {
    const c = requireCompany(caller);
    return listEmails(deps, c.companyId, { after: query.next, limit: query.limit });
  },
});
