import { ConfirmSignUpCommand } from '@aws-sdk/client-cognito-identity-provider';
import { Amplify } from 'aws-amplify';
import { confirmSignUp, resendSignUpCode, signUp } from 'aws-amplify/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NETWORK_ERROR_MESSAGE } from '../../../web/src/lib/api-error';
import { CONFIRM_FAILED } from '../../../web/src/lib/auth-errors';
import { MSG } from '../../../shared/schemas/messages';
import {
  ALREADY_CONFIRMED,
  CODE_EXPIRED,
  TOO_MANY_TRIES,
  confirmFailure,
  resendFailure,
} from '../../../web/src/features/auth/lib/confirm-errors';
import { CLIENT_ID, PASSWORD, USER_POOL_ID, startHarness, uniqueEmail, type Harness } from './helpers';

/** What Amplify throws for a call (the error the confirmation screen is handed). */
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e,
  );

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  Amplify.configure({ Auth: { Cognito: { userPoolId: USER_POOL_ID, userPoolClientId: CLIENT_ID, userPoolEndpoint: h.url, loginWith: { email: true } } } });
});
afterAll(async () => {
  await h.close();
});

async function newAccount(): Promise<string> {
  const email = uniqueEmail('confirm');
  await signUp({ username: email, password: PASSWORD, options: { userAttributes: { email } } });
  return email;
}

/**
 * The confirmation screen's answer to each failure of the identity provider, driven through Amplify against local
 * mode's Cognito stand-in (which answers these cases with Cognito's own error names and messages).
 */
describe('the confirmation screen reads the identity provider failures', () => {
  it('says an account confirmed meanwhile is ready and sends the user to log in, for CONFIRM and for Send the code again', async () => {
    const email = await newAccount();
    const code = h.cognito.lastCode(email)!;
    await confirmSignUp({ username: email, confirmationCode: code });

    const again = await failureOf(confirmSignUp({ username: email, confirmationCode: code }));
    expect(again).toMatchObject({ name: 'NotAuthorizedException', message: 'User cannot be confirmed. Current status is CONFIRMED' });
    expect(confirmFailure(again)).toEqual({ kind: 'confirmed', message: ALREADY_CONFIRMED });

    const resent = await failureOf(resendSignUpCode({ username: email }));
    expect(resent).toMatchObject({ name: 'InvalidParameterException', message: 'User is already confirmed.' });
    expect(resendFailure(resent)).toEqual({ kind: 'confirmed', message: ALREADY_CONFIRMED });
  });

  it('keeps Invalid code! for a wrong code, and says an expired one needs a new code', async () => {
    const email = await newAccount();
    const code = h.cognito.lastCode(email)!;
    const wrong = await failureOf(confirmSignUp({ username: email, confirmationCode: code === '000000' ? '111111' : '000000' }));
    expect(wrong).toMatchObject({ name: 'CodeMismatchException' });
    expect(confirmFailure(wrong)).toEqual({ kind: 'code', message: CONFIRM_FAILED });

    const day = 24 * 60 * 60 * 1000 + 1000;
    h.advance(day);
    try {
      const expired = await failureOf(confirmSignUp({ username: email, confirmationCode: code }));
      expect(expired).toMatchObject({ name: 'ExpiredCodeException', message: 'Invalid code provided, please request a code again.' });
      expect(confirmFailure(expired)).toEqual({ kind: 'code', message: CODE_EXPIRED });
      expect(CODE_EXPIRED.startsWith(CONFIRM_FAILED)).toBe(true);
    } finally {
      h.advance(-day);
    }
  });

  it('tells the user to wait after too many wrong codes', async () => {
    const email = await newAccount();
    const code = h.cognito.lastCode(email)!;
    const wrong = code === '000000' ? '111111' : '000000';
    // the SDK without retries: Amplify retries LimitExceededException (a throttling name) until the lockout ends
    const confirm = () => failureOf(h.client.send(new ConfirmSignUpCommand({ ClientId: CLIENT_ID, Username: email, ConfirmationCode: wrong })));
    let last: unknown;
    for (let i = 0; i < 6; i++) last = await confirm();
    expect(last).toMatchObject({ name: 'LimitExceededException', message: 'Attempt limit exceeded, please try after some time.' });
    expect(confirmFailure(last)).toEqual({ kind: 'code', message: TOO_MANY_TRIES });
    expect(resendFailure(last)).toEqual({ kind: 'popup', message: TOO_MANY_TRIES });
  });

  it('says a lost connection is one, not a wrong code', () => {
    const network = Object.assign(new Error('A network error has occurred.'), { name: 'NetworkError' });
    expect(confirmFailure(network)).toEqual({ kind: 'code', message: NETWORK_ERROR_MESSAGE });
    expect(resendFailure(network)).toEqual({ kind: 'popup', message: NETWORK_ERROR_MESSAGE });
    expect(confirmFailure(new Error('whatever'), false)).toEqual({ kind: 'code', message: NETWORK_ERROR_MESSAGE });
    // anything else keeps the spec catalogue texts
    expect(confirmFailure(Object.assign(new Error('x'), { name: 'InternalErrorException' }))).toEqual({ kind: 'code', message: CONFIRM_FAILED });
    expect(resendFailure(Object.assign(new Error('x'), { name: 'InternalErrorException' }))).toEqual({ kind: 'popup', message: MSG.somethingWrong });
  });
});
