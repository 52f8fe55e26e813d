import type { PostConfirmationTriggerEvent } from 'aws-lambda';
import { COGNITO_ATTRIBUTES } from '../../shared/schemas/auth';
import { provisionConfirmedUser } from '../core/accounts/users';
import { provisionInvitedUser } from '../core/team/invitations';
import { depsFor } from '../runtime/deps';
import { createLogger } from '../runtime/logger';

/**
 * Cognito PostConfirmation trigger: creates the user's profile, first company (admin role)
 * and email-in address. An invited sign-up (custom:invitation_id) instead joins the inviting
 * company once the invitation is re-checked on the server. Locally the Cognito stand-in calls
 * this same handler.
 */
export async function handler(event: PostConfirmationTriggerEvent): Promise<PostConfirmationTriggerEvent> {
  const log = createLogger({ trigger: event.triggerSource, userName: event.userName });
  if (event.triggerSource !== 'PostConfirmation_ConfirmSignUp') return event;
  const a = event.request.userAttributes;
  const invitationId = a[COGNITO_ATTRIBUTES.invitationId];
  if (invitationId) {
    const invited = await provisionInvitedUser(depsFor('triggers/post-confirmation'), { userId: a.sub, email: a.email, invitationId });
    if (invited.outcome === 'invitation-invalid') log.warn('invitation no longer valid: profile created without a company', { userId: a.sub });
    else log.info('invited user provisioned', { outcome: invited.outcome, userId: a.sub });
    return event;
  }
  const result = await provisionConfirmedUser(depsFor('triggers/post-confirmation'), {
    userId: a.sub,
    email: a.email,
    name: a[COGNITO_ATTRIBUTES.name] ?? '',
    surname: a[COGNITO_ATTRIBUTES.surname] ?? '',
    company: a[COGNITO_ATTRIBUTES.company] ?? '',
    company_code: a[COGNITO_ATTRIBUTES.companyCode] ?? '',
    invitation_id: a[COGNITO_ATTRIBUTES.invitationId],
  });
  log.info('user provisioned', { created: result.created, userId: a.sub });
  return event;
}
