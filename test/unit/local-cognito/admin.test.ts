import {
  AdminConfirmSignUpCommand,
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  AdminUpdateUserAttributesCommand,
  GetUserCommand,
  InitiateAuthCommand,
  ListUsersCommand,
  RespondToAuthChallengeCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_ID, PASSWORD, USER_POOL_ID, attrMap, expectCognitoError, startHarness, uniqueEmail, type Harness } from './helpers';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const passwordAuth = (username: string, password: string) =>
  h.client.send(
    new InitiateAuthCommand({
      ClientId: CLIENT_ID,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: username, PASSWORD: password },
    }),
  );

describe('admin operations', () => {
  it('creates an invited user with a temporary password who must choose a new one', async () => {
    const email = uniqueEmail('Invitee');
    const lower = email.toLowerCase();
    const out = await h.client.send(
      new AdminCreateUserCommand({
        UserPoolId: USER_POOL_ID,
        Username: email,
        TemporaryPassword: 'Temp0rary!',
        UserAttributes: [
          { Name: 'email', Value: email },
          { Name: 'email_verified', Value: 'true' },
          { Name: 'custom:company', Value: 'Acme' },
        ],
      }),
    );
    expect(out.User).toMatchObject({ Username: lower, Enabled: true, UserStatus: 'FORCE_CHANGE_PASSWORD' });
    expect(out.User?.UserCreateDate).toBeInstanceOf(Date);
    expect(h.codes.at(-1)).toEqual({ email: lower, kind: 'invite', code: 'Temp0rary!' });
    expect(h.cognito.lastCode(email)).toBe('Temp0rary!');

    await expectCognitoError(
      h.client.send(new AdminCreateUserCommand({ UserPoolId: USER_POOL_ID, Username: email })),
      'UsernameExistsException',
    );

    const challenge = await passwordAuth(email, 'Temp0rary!');
    expect(challenge.AuthenticationResult).toBeUndefined();
    expect(challenge.ChallengeName).toBe('NEW_PASSWORD_REQUIRED');
    expect(challenge.Session).toBeTruthy();
    expect(JSON.parse(challenge.ChallengeParameters?.requiredAttributes ?? 'null')).toEqual([]);

    const done = await h.client.send(
      new RespondToAuthChallengeCommand({
        ClientId: CLIENT_ID,
        ChallengeName: 'NEW_PASSWORD_REQUIRED',
        Session: challenge.Session,
        ChallengeResponses: { USERNAME: lower, NEW_PASSWORD: 'Perman3ntPass', 'userAttributes.custom:name': 'Ivy' },
      }),
    );
    const user = await h.client.send(new GetUserCommand({ AccessToken: done.AuthenticationResult!.AccessToken }));
    expect(attrMap(user.UserAttributes)).toMatchObject({ 'custom:name': 'Ivy', 'custom:company': 'Acme' });
    const got = await h.client.send(new AdminGetUserCommand({ UserPoolId: USER_POOL_ID, Username: email }));
    expect(got.UserStatus).toBe('CONFIRMED');
    await passwordAuth(email, 'Perman3ntPass');
  });

  it('MessageAction SUPPRESS sends nothing; AdminSetUserPassword Permanent makes the user usable', async () => {
    const email = uniqueEmail();
    const codesBefore = h.codes.length;
    await h.client.send(
      new AdminCreateUserCommand({ UserPoolId: USER_POOL_ID, Username: email, MessageAction: 'SUPPRESS' }),
    );
    expect(h.codes.length).toBe(codesBefore);
    await h.client.send(
      new AdminSetUserPasswordCommand({ UserPoolId: USER_POOL_ID, Username: email, Password: PASSWORD, Permanent: true }),
    );
    const got = await h.client.send(new AdminGetUserCommand({ UserPoolId: USER_POOL_ID, Username: email }));
    expect(got.UserStatus).toBe('CONFIRMED');
    expect(got.Enabled).toBe(true);
    expect(attrMap(got.UserAttributes)).toMatchObject({ email: email.toLowerCase(), email_verified: 'false' });
    const out = await passwordAuth(email, PASSWORD);
    expect(out.AuthenticationResult?.AccessToken).toBeTruthy();
  });

  it('confirms a sign-up administratively (running the trigger), updates attributes, disables and deletes', async () => {
    const email = uniqueEmail();
    const lower = email.toLowerCase();
    const signUp = await h.client.send(
      new SignUpCommand({ ClientId: CLIENT_ID, Username: email, Password: PASSWORD }),
    );
    await h.client.send(new AdminConfirmSignUpCommand({ UserPoolId: USER_POOL_ID, Username: email }));
    expect(h.hookEvents.at(-1)).toMatchObject({
      triggerSource: 'PostConfirmation_ConfirmSignUp',
      userName: lower,
      callerContext: { clientId: 'CLIENT_ID_NOT_APPLICABLE' },
      request: { userAttributes: { sub: signUp.UserSub, 'cognito:user_status': 'CONFIRMED' } },
    });
    await expectCognitoError(
      h.client.send(new AdminConfirmSignUpCommand({ UserPoolId: USER_POOL_ID, Username: email })),
      'NotAuthorizedException',
    );

    await h.client.send(
      new AdminUpdateUserAttributesCommand({
        UserPoolId: USER_POOL_ID,
        Username: email,
        UserAttributes: [
          { Name: 'custom:company_code', Value: 'C-42' },
          { Name: 'email_verified', Value: 'true' },
        ],
      }),
    );
    // look-up by sub works too (the real pool's username is the sub when e-mail is the sign-in alias)
    const got = await h.client.send(new AdminGetUserCommand({ UserPoolId: USER_POOL_ID, Username: signUp.UserSub }));
    expect(got.Username).toBe(lower);
    expect(attrMap(got.UserAttributes)).toMatchObject({
      sub: signUp.UserSub,
      email: lower,
      email_verified: 'true',
      'custom:company_code': 'C-42',
    });

    const { AuthenticationResult } = await passwordAuth(email, PASSWORD);
    await h.client.send(new AdminDisableUserCommand({ UserPoolId: USER_POOL_ID, Username: email }));
    await expectCognitoError(passwordAuth(email, PASSWORD), 'NotAuthorizedException', 'User is disabled.');
    await expectCognitoError(
      h.client.send(new GetUserCommand({ AccessToken: AuthenticationResult!.AccessToken })),
      'NotAuthorizedException',
    );
    await h.client.send(new AdminEnableUserCommand({ UserPoolId: USER_POOL_ID, Username: email }));
    await passwordAuth(email, PASSWORD);

    await h.client.send(new AdminDeleteUserCommand({ UserPoolId: USER_POOL_ID, Username: email }));
    await expectCognitoError(
      h.client.send(new AdminGetUserCommand({ UserPoolId: USER_POOL_ID, Username: email })),
      'UserNotFoundException',
    );
    await expectCognitoError(
      h.client.send(new AdminGetUserCommand({ UserPoolId: 'eu-west-1_Other', Username: email })),
      'ResourceNotFoundException',
    );
  });

  it('ListUsers filters by e-mail (case-insensitively) and paginates', async () => {
    const emails = [uniqueEmail('List'), uniqueEmail('List'), uniqueEmail('List')];
    for (const email of emails) {
      await h.client.send(new SignUpCommand({ ClientId: CLIENT_ID, Username: email, Password: PASSWORD }));
    }
    const one = await h.client.send(
      new ListUsersCommand({ UserPoolId: USER_POOL_ID, Filter: `email = "${emails[1].toUpperCase()}"` }),
    );
    expect(one.Users).toHaveLength(1);
    expect(one.Users![0]).toMatchObject({ Username: emails[1].toLowerCase(), UserStatus: 'UNCONFIRMED', Enabled: true });
    expect(attrMap(one.Users?.[0]?.Attributes).email).toBe(emails[1].toLowerCase());

    const none = await h.client.send(new ListUsersCommand({ UserPoolId: USER_POOL_ID, Filter: 'email = "none@example.com"' }));
    expect(none.Users).toEqual([]);

    const prefix = emails[0].toLowerCase().split('.').slice(0, 2).join('.'); // "list.<pid>"
    const seen: string[] = [];
    let token: string | undefined;
    do {
      const page = await h.client.send(
        new ListUsersCommand({ UserPoolId: USER_POOL_ID, Filter: `email ^= "${prefix}"`, Limit: 2, PaginationToken: token }),
      );
      expect(page.Users!.length).toBeLessThanOrEqual(2);
      seen.push(...page.Users!.map((u) => u.Username!));
      token = page.PaginationToken;
    } while (token);
    expect(seen).toEqual(emails.map((e) => e.toLowerCase()));

    await expectCognitoError(
      h.client.send(new ListUsersCommand({ UserPoolId: USER_POOL_ID, Filter: 'email contains x' })),
      'InvalidParameterException',
    );
  });
});
