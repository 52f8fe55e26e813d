import type { PreSignUpTriggerEvent } from 'aws-lambda';
import { COGNITO_ATTRIBUTES, INVITATION_TOKEN_VALIDATION_KEY } from '../../shared/schemas/auth';
import { invitedSignUpProvesAddress } from '../core/team/invitations';
import { depsFor } from '../runtime/deps';
import { createLogger } from '../runtime/logger';

/**
 * Cognito PreSignUp trigger: an invited sign-up that carries its invitation link's token (validation data) has
 * proven its e-mail address by opening the mailed link, so it is confirmed and its address verified at once — the
 * PostConfirmation trigger then joins the company as after a confirmed code. Every other sign-up is left as it
 * is (a code to the address). It never refuses a sign-up. Locally the Cognito stand-in calls this same handler.
 */
export async function handler(event: PreSignUpTriggerEvent): Promise<PreSignUpTriggerEvent> {
  if (event.triggerSource !== 'PreSignUp_SignUp') return event;
  const log = createLogger({ trigger: event.triggerSource, userName: event.userName });
  const attributes = event.request.userAttributes;
  const invitationId = attributes[COGNITO_ATTRIBUTES.invitationId];
  if (!invitationId) return event;
  const proven = await invitedSignUpProvesAddress(depsFor('triggers/pre-sign-up'), {
    email: attributes.email ?? event.userName,
    invitationId,
    token: event.request.validationData?.[INVITATION_TOKEN_VALIDATION_KEY],
  });
  if (proven) {
    event.response.autoConfirmUser = true;
    event.response.autoVerifyEmail = true;
  }
  log.info('invited sign-up', { confirmedByInvitation: proven });
  return event;
}
