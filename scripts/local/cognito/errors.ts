/**
 * Errors in the shape the Cognito Identity Provider JSON 1.1 protocol uses.
 * The AWS SDK v3 and Amplify v6 read the error name from the
 * `x-amzn-errortype` header (falling back to the body's `__type`), so the
 * name must be one of the real Cognito exception names.
 */
export class CognitoError extends Error {
  readonly type: string;
  readonly status: number;

  constructor(type: string, message: string, status = 400) {
    super(message);
    this.name = type;
    this.type = type;
    this.status = status;
  }
}

export const invalidParameter = (message: string): CognitoError =>
  new CognitoError('InvalidParameterException', message);

export const notAuthorized = (message: string): CognitoError =>
  new CognitoError('NotAuthorizedException', message);

export const userNotFound = (): CognitoError =>
  new CognitoError('UserNotFoundException', 'User does not exist.');

export const INCORRECT_CREDENTIALS = 'Incorrect username or password.';
