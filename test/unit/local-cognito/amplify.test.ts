import { GetUserCommand, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { Amplify } from 'aws-amplify';
import {
  autoSignIn,
  confirmResetPassword,
  confirmSignUp,
  fetchAuthSession,
  fetchUserAttributes,
  getCurrentUser,
  resendSignUpCode,
  resetPassword,
  signIn,
  signOut,
  signUp,
  updatePassword,
} from 'aws-amplify/auth';
import { cognitoUserPoolsTokenProvider } from 'aws-amplify/auth/cognito';
import type { KeyValueStorageInterface } from 'aws-amplify/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_ID, PASSWORD, USER_POOL_ID, expectCognitoError, startHarness, type Harness } from './helpers';

/** Stand-in for the browser's localStorage (Amplify keeps its tokens here). */
class MemoryStorage implements KeyValueStorageInterface {
  readonly items = new Map<string, string>();
  setItem(key: string, value: string) {
    this.items.set(key, value);
    return Promise.resolve();
  }
  getItem(key: string) {
    return Promise.resolve(this.items.get(key) ?? null);
  }
  removeItem(key: string) {
    this.items.delete(key);
    return Promise.resolve();
  }
  clear() {
    this.items.clear();
    return Promise.resolve();
  }
}

let h: Harness;
const storage = new MemoryStorage();

beforeAll(async () => {
  h = await startHarness();
  Amplify.configure({
    Auth: {
      Cognito: {
        userPoolId: USER_POOL_ID,
        userPoolClientId: CLIENT_ID,
        userPoolEndpoint: h.url,
        loginWith: { email: true },
      },
    },
  });
  cognitoUserPoolsTokenProvider.setKeyValueStorage(storage);
});
afterAll(async () => {
  await h.close();
});

describe('Amplify v6 against the stand-in', () => {
  it('runs the SPA flows: sign-up, resend, confirm, sign-in, session, attributes, password change, sign-out, reset', async () => {
    const email = `amplify.${process.pid}@example.com`;
    h.operations.length = 0;

    const up = await signUp({
      username: email,
      password: PASSWORD,
      options: {
        userAttributes: {
          email,
          'custom:name': 'Alan',
          'custom:surname': 'Turing',
          'custom:company': 'Bletchley',
          'custom:company_code': 'BP',
        },
      },
    });
    expect(up.isSignUpComplete).toBe(false);
    expect(up.nextStep).toMatchObject({
      signUpStep: 'CONFIRM_SIGN_UP',
      codeDeliveryDetails: { deliveryMedium: 'EMAIL', attributeName: 'email' },
    });
    const firstCode = h.cognito.lastCode(email);

    const resent = await resendSignUpCode({ username: email });
    expect(resent).toMatchObject({ deliveryMedium: 'EMAIL', attributeName: 'email' });
    expect(h.codes.at(-1)?.kind).toBe('resend');
    const code = h.cognito.lastCode(email)!;
    expect(code).toMatch(/^\d{6}$/);
    if (code !== firstCode) {
      await expectCognitoError(confirmSignUp({ username: email, confirmationCode: firstCode! }), 'CodeMismatchException');
    }

    const confirmed = await confirmSignUp({ username: email, confirmationCode: code });
    expect(confirmed).toEqual({ isSignUpComplete: true, nextStep: { signUpStep: 'DONE' } });
    expect(h.hookEvents.at(-1)).toMatchObject({ userName: email, triggerSource: 'PostConfirmation_ConfirmSignUp' });

    // wrong password is reported with Cognito's exception name
    await expectCognitoError(
      signIn({ username: email, password: 'Wrong0Password', options: { authFlowType: 'USER_PASSWORD_AUTH' } }),
      'NotAuthorizedException',
    );

    const signedIn = await signIn({ username: email, password: PASSWORD, options: { authFlowType: 'USER_PASSWORD_AUTH' } });
    expect(signedIn).toEqual({ isSignedIn: true, nextStep: { signInStep: 'DONE' } });
    expect([...storage.items.keys()].some((k) => k.startsWith(`CognitoIdentityServiceProvider.${CLIENT_ID}.`))).toBe(true);

    const current = await getCurrentUser();
    expect(current.username).toBe(email);
    expect(current.userId).toBe(up.userId);

    const session = await fetchAuthSession();
    expect(session.userSub).toBe(up.userId);
    const accessToken = session.tokens?.accessToken;
    expect(accessToken?.payload).toMatchObject({ token_use: 'access', client_id: CLIENT_ID, username: email });
    expect(session.tokens?.idToken?.payload).toMatchObject({ email, 'custom:company': 'Bletchley', aud: CLIENT_ID });

    const attributes = await fetchUserAttributes();
    expect(attributes).toMatchObject({
      sub: up.userId,
      email,
      email_verified: 'true',
      'custom:name': 'Alan',
      'custom:company_code': 'BP',
    });

    const forced = await fetchAuthSession({ forceRefresh: true });
    expect(forced.tokens?.accessToken.toString()).toBeTruthy();
    expect(forced.tokens?.accessToken.toString()).not.toBe(accessToken!.toString());
    expect(forced.tokens?.accessToken.payload.origin_jti).toBe(accessToken!.payload.origin_jti);

    await updatePassword({ oldPassword: PASSWORD, newPassword: 'Upd4tedPass' });

    await signOut();
    expect((await fetchAuthSession()).tokens).toBeUndefined();
    // signOut revoked the refresh token, which also invalidates the session's access tokens
    await expectCognitoError(
      h.client.send(new GetUserCommand({ AccessToken: forced.tokens!.accessToken.toString() })),
      'NotAuthorizedException',
    );

    const reset = await resetPassword({ username: email });
    expect(reset.nextStep.resetPasswordStep).toBe('CONFIRM_RESET_PASSWORD_WITH_CODE');
    await confirmResetPassword({ username: email, confirmationCode: h.cognito.lastCode(email)!, newPassword: 'Res3tPassword' });

    // the reset password is the one that works now (checked with the SDK, Amplify has no session)
    await expectCognitoError(
      h.client.send(
        new InitiateAuthCommand({
          ClientId: CLIENT_ID,
          AuthFlow: 'USER_PASSWORD_AUTH',
          AuthParameters: { USERNAME: email, PASSWORD: 'Upd4tedPass' },
        }),
      ),
      'NotAuthorizedException',
    );
    const again = await signIn({ username: email, password: 'Res3tPassword', options: { authFlowType: 'USER_PASSWORD_AUTH' } });
    expect(again.isSignedIn).toBe(true);
    await signOut({ global: true });
    expect((await fetchAuthSession()).tokens).toBeUndefined();

    // exactly the operations Amplify sends for these calls (no device tracking, no SRP)
    expect(h.operations).toEqual([
      'SignUp',
      'ResendConfirmationCode',
      ...(code !== firstCode ? ['ConfirmSignUp'] : []),
      'ConfirmSignUp',
      'InitiateAuth', // wrong password
      'InitiateAuth',
      'GetUser', // fetchUserAttributes
      'GetTokensFromRefreshToken', // fetchAuthSession({ forceRefresh: true })
      'ChangePassword',
      'RevokeToken', // signOut()
      'GetUser', // SDK check
      'ForgotPassword',
      'ConfirmForgotPassword',
      'InitiateAuth', // SDK check, old password
      'InitiateAuth',
      'GlobalSignOut', // signOut({ global: true })
    ]);
  });

  it('supports sign-up with autoSignIn (USER_PASSWORD_AUTH) as the sign-up form may use it', async () => {
    const email = `amplify.auto.${process.pid}@example.com`;
    const up = await signUp({
      username: email,
      password: PASSWORD,
      options: { userAttributes: { email }, autoSignIn: { authFlowType: 'USER_PASSWORD_AUTH' } },
    });
    expect(up.nextStep.signUpStep).toBe('CONFIRM_SIGN_UP');
    const confirmed = await confirmSignUp({ username: email, confirmationCode: h.cognito.lastCode(email)! });
    expect(confirmed.nextStep.signUpStep).toBe('COMPLETE_AUTO_SIGN_IN');
    const signedIn = await autoSignIn();
    expect(signedIn.isSignedIn).toBe(true);
    expect((await getCurrentUser()).username).toBe(email);
    await signOut();
  });
});
