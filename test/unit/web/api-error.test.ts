import { describe, expect, it } from 'vitest';
import { ApiError, detailsToFieldErrors, messageOf, parseApiError } from '../../../web/src/lib/api-error';
import {
  changePasswordErrorMessage,
  isNetworkError,
  resetErrorMessage,
  signInErrorMessage,
} from '../../../web/src/lib/auth-errors';

describe('parseApiError', () => {
  it('reads the API error shape', () => {
    const err = parseApiError(409, { statusCode: 409, error: 'Conflict', message: 'Code already used' });
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(409);
    expect(err.error).toBe('Conflict');
    expect(err.message).toBe('Code already used');
    expect(err.fieldErrors).toEqual({});
  });

  it('maps validation details to the first message per field path', () => {
    const err = parseApiError(422, {
      statusCode: 422,
      error: 'ValidationFailed',
      message: 'Validation failed',
      details: [
        { path: ['company_name'], message: 'Required field' },
        { path: ['company_name'], message: 'second message' },
        { path: ['address', 'city'], message: 'Too long' },
        { path: [], message: 'form level' },
      ],
    });
    expect(err.fieldErrors).toEqual({ company_name: 'Required field', 'address.city': 'Too long', '': 'form level' });
  });

  it("falls back to 'Something went wrong' for bodies that are not JSON errors", () => {
    expect(parseApiError(502, '<html>Bad gateway</html>').message).toBe('Something went wrong');
    expect(parseApiError(500, undefined).message).toBe('Something went wrong');
  });

  it('keeps a plain { message } body', () => {
    expect(parseApiError(403, { message: 'Forbidden' }).message).toBe('Forbidden');
  });

  it('ignores malformed details', () => {
    expect(detailsToFieldErrors('nope')).toEqual({});
    expect(detailsToFieldErrors([null, { path: ['a'] }, { path: ['b'], message: 'x' }])).toEqual({ b: 'x' });
  });

  it('messageOf prefers the error text, else the fallback', () => {
    expect(messageOf(new ApiError(400, 'BadRequest', 'Nope'))).toBe('Nope');
    expect(messageOf('weird')).toBe('Something went wrong');
  });
});

describe('identity-provider error messages', () => {
  const named = (name: string, message = '') => Object.assign(new Error(message), { name });

  it('sign-in: network failures and everything else', () => {
    expect(signInErrorMessage(named('NetworkError'))).toBe('No connection to the internet');
    expect(signInErrorMessage(new TypeError('Failed to fetch'))).toBe('No connection to the internet');
    expect(signInErrorMessage(named('NotAuthorizedException'), false)).toBe('No connection to the internet');
    expect(signInErrorMessage(named('NotAuthorizedException'))).toBe('Incorrect email or password');
    expect(signInErrorMessage(named('UserNotFoundException'))).toBe('Incorrect email or password');
    expect(isNetworkError(named('NotAuthorizedException'))).toBe(false);
  });

  it("change password: a wrong current password is 'Wrong password'", () => {
    expect(changePasswordErrorMessage(named('NotAuthorizedException', 'Incorrect username or password.'))).toEqual({
      field: 'current_password',
      message: 'Wrong password',
    });
    expect(changePasswordErrorMessage(named('LimitExceededException', 'Attempt limit exceeded')).message).toBe(
      'Attempt limit exceeded',
    );
  });

  it("password reset: the returned text, else 'Something went wrong!'", () => {
    expect(resetErrorMessage(named('CodeMismatchException', 'Invalid verification code provided'))).toBe(
      'Invalid verification code provided',
    );
    expect(resetErrorMessage({})).toBe('Something went wrong!');
  });
});
