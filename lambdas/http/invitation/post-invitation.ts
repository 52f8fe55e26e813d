import { inviteSchema } from '../../../shared/schemas/team';
import { sesMailer } from '../../adapters/mail/ses-mailer';
import { inviteColleague } from '../../core/team/invitations';
import { httpHandler, requireCompany } from '../../runtime/http-handler';

export const handler = httpHandler({
  route: 'POST /invitation',
  body: inviteSchema,
  successStatus: 201,
  async run({ body, caller, deps, log }) {
    const c = requireCompany(caller);
    return inviteColleague({ ...deps, mailer: sesMailer, log }, { userId: c.userId, companyId: c.companyId }, body);
  },
});
