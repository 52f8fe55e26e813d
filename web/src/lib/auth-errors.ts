import { NETWORK_ERROR_MESSAGE } from './api-error';

export const SIGN_IN_FAILED = 'Incorrect email or password';
export const SIGN_UP_FAILED = 'The user already exists';
export const CONFIRM_FAILED = 'Invalid code!';
export const WRONG_PASSWORD = 'Wrong password';
export const RESET_FAILED = 'Something went wrong!';

export function errorName(err: unknown): string {
  if (typeof err === 'object' && err !== null) {
    const name = (err as { name?: unknown }).name;
    if (typeof name === 'string') return name;
  }
  return '';
}

export function isNetworkError(err: unknown): boolean {
  const name = errorName(err);
  if (name === 'NetworkError') return true;
  if (err instanceof TypeError && /fetch|network/i.test(err.message)) return true;
  return false;
}

/** Token-refresh failures that mean the session is over (Amplify clears the tokens for these). */
export const SESSION_OVER_ERRORS = [
  'NotAuthorizedException',
  'TokenRevokedException',
  'UserNotFoundException',
  'PasswordResetRequiredException',
  'UserNotConfirmedException',
  'RefreshTokenReuseException',
] as const;

/** The session cannot be renewed: signing in again is the only way on. Any other refresh failure keeps the tokens. */
export function isSessionOver(err: unknown): boolean {
  const name = errorName(err);
  return SESSION_OVER_ERRORS.some((n) => name.startsWith(n));
}

export function isNotConfirmed(err: unknown): boolean {
  return errorName(err) === 'UserNotConfirmedException';
}

/** The text under the password field for a failed sign-in (rules.md 8). */
export function signInErrorMessage(err: unknown, online = true): string {
  if (!online || isNetworkError(err)) return NETWORK_ERROR_MESSAGE;
  return SIGN_IN_FAILED;
}

/** Change password: a wrong current password is NotAuthorizedException from the identity provider. */
export function changePasswordErrorMessage(err: unknown, online = true): { field: 'current_password'; message: string } {
  if (!online || isNetworkError(err)) return { field: 'current_password', message: NETWORK_ERROR_MESSAGE };
  if (errorName(err) === 'NotAuthorizedException') return { field: 'current_password', message: WRONG_PASSWORD };
  const message = err instanceof Error && err.message ? err.message : RESET_FAILED;
  return { field: 'current_password', message };
}

/** Forgot-password steps show the returned text, or the spec's fallback. */
export function resetErrorMessage(err: unknown, online = true): string {
  if (!online || isNetworkError(err)) return NETWORK_ERROR_MESSAGE;
  return err instanceof Error && err.message ? err.message : RESET_FAILED;
}
