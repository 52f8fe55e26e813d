import { describe, expect, it } from 'vitest';
import { ApiError, detailsToFieldErrors, isResultUnknown, messageOf, parseApiError, RESULT_UNKNOWN_MESSAGE } from '../../../web/src/lib/api-error';
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

  it('shows the message of the API error shape only: a gateway body of its own gets the generic text', () => {
    // API Gateway answers with { message } bodies of its own: their English is not the product's
    expect(parseApiError(504, { message: 'Endpoint request timed out' }).message).toBe('Something went wrong');
    expect(parseApiError(502, { message: 'Internal server error' }).message).toBe('Something went wrong');
    expect(parseApiError(503, { message: 'Service Unavailable' }).message).toBe('Something went wrong');
    expect(parseApiError(429, { message: 'Too Many Requests' }).message).toBe('Something went wrong');
    expect(parseApiError(403, { message: 'Forbidden' }).message).toBe('Something went wrong');
    // the API's own shape keeps its text, whatever the status
    expect(parseApiError(503, { statusCode: 503, error: 'ServiceUnavailable', message: 'Service Unavailable' }).message).toBe('Service Unavailable');
    expect(parseApiError(429, { statusCode: 429, error: 'TooManyRequests', message: 'Monthly document limit reached' }, 'POST').message).toBe('Monthly document limit reached');
  });

  it('a write answered by the gateway with 502, 503 or 504 says its result is not known and that the data is read again', () => {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      for (const status of [502, 503, 504]) {
        const err = parseApiError(status, { message: 'Endpoint request timed out' }, method);
        expect(err.message).toBe(RESULT_UNKNOWN_MESSAGE);
        expect(isResultUnknown(err)).toBe(true);
      }
      expect(isResultUnknown(parseApiError(504, '<html>Gateway Timeout</html>', method))).toBe(true);
      expect(isResultUnknown(parseApiError(504, undefined, method))).toBe(true);
    }
    expect(RESULT_UNKNOWN_MESSAGE).toMatch(/not known/);
    expect(RESULT_UNKNOWN_MESSAGE).toMatch(/read again/);
    // a read, a 500 (the function itself failed: nothing gateway-lost), a 429 and the API's own 503 are known failures
    expect(isResultUnknown(parseApiError(504, { message: 'Endpoint request timed out' }, 'GET'))).toBe(false);
    expect(parseApiError(504, { message: 'Endpoint request timed out' }, 'GET').message).toBe('Something went wrong');
    expect(isResultUnknown(parseApiError(500, { message: 'Internal server error' }, 'POST'))).toBe(false);
    expect(isResultUnknown(parseApiError(429, { message: 'Too Many Requests' }, 'POST'))).toBe(false);
    expect(isResultUnknown(parseApiError(503, { statusCode: 503, error: 'ServiceUnavailable', message: 'Service Unavailable' }, 'PUT'))).toBe(false);
    expect(isResultUnknown(new ApiError(0, 'NetworkError', 'No connection to the internet'))).toBe(false);
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
