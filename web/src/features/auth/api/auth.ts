import {
  confirmResetPassword,
  confirmSignUp,
  resendSignUpCode,
  resetPassword,
  signIn,
  signOut,
  signUp,
  updatePassword,
} from 'aws-amplify/auth';
import { COGNITO_ATTRIBUTES, INVITATION_TOKEN_VALIDATION_KEY, type SignUpInput } from '../../../../../shared/schemas/auth';
import { errorName } from '../../../lib/auth-errors';

export type SignInOutcome = 'signedIn' | 'notConfirmed';

async function signInOnce(email: string, password: string): Promise<SignInOutcome> {
  const result = await signIn({ username: email, password, options: { authFlowType: 'USER_PASSWORD_AUTH' } });
  if (result.isSignedIn) return 'signedIn';
  if (result.nextStep.signInStep === 'CONFIRM_SIGN_UP') return 'notConfirmed';
  throw Object.assign(new Error(`Unsupported sign-in step ${result.nextStep.signInStep}`), { name: 'UnsupportedStep' });
}

/** USER_PASSWORD_AUTH works against Cognito and the local stand-in alike. */
export async function signInWithEmail(email: string, password: string): Promise<SignInOutcome> {
  try {
    return await signInOnce(email, password);
  } catch (err) {
    if (errorName(err) === 'UserNotConfirmedException') return 'notConfirmed';
    if (errorName(err) === 'UserAlreadyAuthenticatedException') {
      await signOut();
      return signInOnce(email, password);
    }
    throw err;
  }
}

export interface RegisterInput {
  name: string;
  surname: string;
  company: string;
  company_code: string;
  email: string;
  password: string;
}

export async function register(input: RegisterInput | SignUpInput): Promise<{ confirmed: boolean }> {
  const result = await signUp({
    username: input.email,
    password: input.password,
    options: {
      userAttributes: {
        email: input.email,
        [COGNITO_ATTRIBUTES.name]: input.name,
        [COGNITO_ATTRIBUTES.surname]: input.surname,
        [COGNITO_ATTRIBUTES.company]: input.company,
        [COGNITO_ATTRIBUTES.companyCode]: input.company_code,
      },
    },
  });
  return { confirmed: result.isSignUpComplete };
}

/**
 * Sign-up of an invited user: username equals the email, the invitation id travels as an attribute and the link's
 * token as validation data — with it the account is confirmed at once (the mailed link proved the address).
 */
export async function registerInvited(email: string, password: string, invitation: { id: string; token: string }): Promise<{ confirmed: boolean }> {
  const result = await signUp({
    username: email,
    password,
    options: {
      userAttributes: { email, [COGNITO_ATTRIBUTES.invitationId]: invitation.id },
      validationData: { [INVITATION_TOKEN_VALIDATION_KEY]: invitation.token },
    },
  });
  return { confirmed: result.isSignUpComplete };
}

export async function confirmRegistration(email: string, code: string): Promise<void> {
  await confirmSignUp({ username: email, confirmationCode: code });
}

export async function resendCode(email: string): Promise<void> {
  await resendSignUpCode({ username: email });
}

export async function startPasswordReset(email: string): Promise<void> {
  await resetPassword({ username: email });
}

export async function finishPasswordReset(email: string, code: string, newPassword: string): Promise<void> {
  await confirmResetPassword({ username: email, confirmationCode: code, newPassword });
}

export async function changePassword(oldPassword: string, newPassword: string): Promise<void> {
  await updatePassword({ oldPassword, newPassword });
}
