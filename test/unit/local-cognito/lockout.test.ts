import { ConfirmSignUpCommand, InitiateAuthCommand, SignUpCommand } from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FREE_ATTEMPTS } from '../../../scripts/local/cognito/attempts';
import { CLIENT_ID, PASSWORD, expectCognitoError, startHarness, type Harness } from './helpers';

/** Brute-force limits mirror Cognito's: repeated failures lock the user name out for a growing time. */
describe('local Cognito lockouts', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  const signIn = (username: string, password: string) =>
    h.client.send(new InitiateAuthCommand({ ClientId: CLIENT_ID, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: username, PASSWORD: password } }));

  it('locks sign-in after repeated wrong passwords, even for the right one, until the lockout ends', async () => {
    const email = 'locked@example.com';
    await h.client.send(new SignUpCommand({ ClientId: CLIENT_ID, Username: email, Password: PASSWORD, UserAttributes: [{ Name: 'email', Value: email }] }));
    const code = h.codes.find((c) => c.email === email)!.code;
    await h.client.send(new ConfirmSignUpCommand({ ClientId: CLIENT_ID, Username: email, ConfirmationCode: code }));
    for (let i = 0; i < FREE_ATTEMPTS; i++) await expectCognitoError(signIn(email, 'Wrong0000x'), 'NotAuthorizedException', 'Incorrect username or password.');
    await expectCognitoError(signIn(email, PASSWORD), 'NotAuthorizedException', 'Password attempts exceeded');
    h.advance(1500);
    const ok = await signIn(email, PASSWORD);
    expect(ok.AuthenticationResult?.AccessToken).toBeTruthy();
    // A success clears the count: one more wrong password is an ordinary failure.
    await expectCognitoError(signIn(email, 'Wrong0000x'), 'NotAuthorizedException', 'Incorrect username or password.');
  });

  it('locks confirmation codes after repeated wrong codes, for unknown user names alike', async () => {
    const email = 'codes@example.com';
    await h.client.send(new SignUpCommand({ ClientId: CLIENT_ID, Username: email, Password: PASSWORD, UserAttributes: [{ Name: 'email', Value: email }] }));
    const code = h.codes.find((c) => c.email === email)!.code;
    const wrong = code === '000000' ? '111111' : '000000';
    const confirm = (username: string, c: string) => h.client.send(new ConfirmSignUpCommand({ ClientId: CLIENT_ID, Username: username, ConfirmationCode: c }));
    for (let i = 0; i < FREE_ATTEMPTS; i++) await expectCognitoError(confirm(email, wrong), 'CodeMismatchException');
    await expectCognitoError(confirm(email, code), 'LimitExceededException');
    for (let i = 0; i < FREE_ATTEMPTS; i++) await expectCognitoError(confirm('nobody@example.com', wrong), 'CodeMismatchException');
    await expectCognitoError(confirm('nobody@example.com', wrong), 'LimitExceededException');
    h.advance(2000);
    await confirm(email, code);
  });
});
