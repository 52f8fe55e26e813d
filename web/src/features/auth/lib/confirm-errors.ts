import { MSG } from '../../../../../shared/schemas/messages';
import { NETWORK_ERROR_MESSAGE } from '../../../lib/api-error';
import { CONFIRM_FAILED, errorName, isNetworkError } from '../../../lib/auth-errors';

/** The account was confirmed before (on another device or tab): there is nothing left to do but log in. */
export const ALREADY_CONFIRMED = 'Your account is already confirmed. Please log in.';
/** The spec's 'Invalid code!' (rules.md 8), with what to do about a code past its 24 hours. */
export const CODE_EXPIRED = `${CONFIRM_FAILED} The code has expired: press Send the code again for a new one.`;
/** Cognito's LimitExceededException: too many wrong codes, or codes asked for too often. */
export const TOO_MANY_TRIES = 'Too many tries. Please wait a few minutes, then try again.';

/**
 * Where the confirmation screen says why a call failed: under the code field, in the info pop-up, or (the account
 * is confirmed already) on the log-in screen with `message` in the pop-up.
 */
export type ConfirmFailure = { kind: 'code'; message: string } | { kind: 'popup'; message: string } | { kind: 'confirmed'; message: string };

/** Cognito's answers to ConfirmSignUp and ResendConfirmationCode for an account that is confirmed already. */
function isAlreadyConfirmed(err: unknown): boolean {
  const name = errorName(err);
  const message = err instanceof Error ? err.message : '';
  if (name === 'NotAuthorizedException') return /current status is confirmed/i.test(message);
  if (name === 'InvalidParameterException') return /already confirmed/i.test(message);
  return false;
}

const isLimit = (err: unknown) => ['LimitExceededException', 'TooManyRequestsException', 'TooManyFailedAttemptsException'].includes(errorName(err));

/** CONFIRM failed: a wrong code keeps the spec's 'Invalid code!'; the other causes say what to do. */
export function confirmFailure(err: unknown, online = true): ConfirmFailure {
  if (!online || isNetworkError(err)) return { kind: 'code', message: NETWORK_ERROR_MESSAGE };
  if (isAlreadyConfirmed(err)) return { kind: 'confirmed', message: ALREADY_CONFIRMED };
  if (errorName(err) === 'ExpiredCodeException') return { kind: 'code', message: CODE_EXPIRED };
  if (isLimit(err)) return { kind: 'code', message: TOO_MANY_TRIES };
  return { kind: 'code', message: CONFIRM_FAILED };
}

/** "Send the code again" failed: the pop-up says why, or the account needs no code any more. */
export function resendFailure(err: unknown, online = true): ConfirmFailure {
  if (!online || isNetworkError(err)) return { kind: 'popup', message: NETWORK_ERROR_MESSAGE };
  if (isAlreadyConfirmed(err)) return { kind: 'confirmed', message: ALREADY_CONFIRMED };
  if (isLimit(err)) return { kind: 'popup', message: TOO_MANY_TRIES };
  return { kind: 'popup', message: MSG.somethingWrong };
}
