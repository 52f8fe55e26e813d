import { companyIdQuerySchema, updateEmailInSendersSchema } from '../../../shared/schemas/company';
import { updateEmailInSenders } from '../../core/settings/email-in-senders';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

export const handler = httpHandler({
  route: 'PUT /company/email-in',
  query: companyIdQuerySchema,
  body: updateEmailInSendersSchema,
  async run({ body, caller, deps }) {
    const c = requireCompany(caller);
    return updateEmailInSenders(deps, { companyId: c.companyId, role: c.role ?? 'basic' }, body);
  },
});
