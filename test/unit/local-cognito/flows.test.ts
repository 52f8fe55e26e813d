import {
  AdminGetUserCommand,
  AdminUpdateUserAttributesCommand,
  ChangePasswordCommand,
  ConfirmForgotPasswordCommand,
  ConfirmSignUpCommand,
  DeleteUserCommand,
  ForgotPasswordCommand,
  GetTokensFromRefreshTokenCommand,
  GetUserCommand,
  GlobalSignOutCommand,
  InitiateAuthCommand,
  ResendConfirmationCodeCommand,
  RevokeTokenCommand,
  SignUpCommand,
  UpdateUserAttributesCommand,
  type AttributeType,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CLIENT_ID, PASSWORD, USER_POOL_ID, attrMap, expectCognitoError, startHarness, uniqueEmail, type Harness } from './helpers';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const attrs = (email: string): AttributeType[] => [
  { Name: 'email', Value: email },
  { Name: 'custom:name', Value: 'Ada' },
  { Name: 'custom:surname', Value: 'Lovelace' },
  { Name: 'custom:company', Value: 'Analytical Engines Ltd' },
  { Name: 'custom:company_code', Value: 'AEL' },
  { Name: 'custom:invitation_id', Value: 'inv-123' },
];

async function signUp(email: string, password = PASSWORD) {
  return h.client.send(
    new SignUpCommand({ ClientId: CLIENT_ID, Username: email, Password: password, UserAttributes: attrs(email) }),
  );
}

async function signUpConfirmed(email: string, password = PASSWORD) {
  const out = await signUp(email, password);
  const code = h.cognito.lastCode(email);
  await h.client.send(new ConfirmSignUpCommand({ ClientId: CLIENT_ID, Username: email, ConfirmationCode: code }));
  return out.UserSub!;
}

async function signIn(email: string, password = PASSWORD) {
  const out = await h.client.send(
    new InitiateAuthCommand({
      ClientId: CLIENT_ID,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: email, PASSWORD: password },
    }),
  );
  const result = out.AuthenticationResult;
  expect(result?.AccessToken).toBeTruthy();
  expect(result?.IdToken).toBeTruthy();
  expect(result?.RefreshToken).toBeTruthy();
  return { accessToken: result!.AccessToken!, idToken: result!.IdToken!, refreshToken: result!.RefreshToken! };
}

describe('sign-up, confirmation and sign-in', () => {
  it('signs up, confirms with the mailed code (running the PostConfirmation trigger), signs in and reads the user', async () => {
    const email = uniqueEmail('Ada');
    const lower = email.toLowerCase();
    const hooksBefore = h.hookEvents.length;

    const out = await signUp(email);
    expect(out.UserConfirmed).toBe(false);
    expect(out.UserSub).toMatch(/^[0-9a-f-]{36}$/);
    expect(out.CodeDeliveryDetails).toEqual({ Destination: 'a***@e***', DeliveryMedium: 'EMAIL', AttributeName: 'email' });
    const code = h.cognito.lastCode(email);
    expect(code).toMatch(/^\d{6}$/);
    expect(h.codes.at(-1)).toEqual({ email: lower, kind: 'signup', code });

    // not confirmed yet: correct password gives UserNotConfirmedException
    await expectCognitoError(
      h.client.send(
        new InitiateAuthCommand({
          ClientId: CLIENT_ID,
          AuthFlow: 'USER_PASSWORD_AUTH',
          AuthParameters: { USERNAME: email, PASSWORD: PASSWORD },
        }),
      ),
      'UserNotConfirmedException',
    );

    await h.client.send(
      new ConfirmSignUpCommand({
        ClientId: CLIENT_ID,
        Username: email,
        ConfirmationCode: code,
        ClientMetadata: { source: 'test' },
      }),
    );
    expect(h.hookEvents.length).toBe(hooksBefore + 1);
    expect(h.hookEvents.at(-1)).toEqual({
      version: '1',
      region: 'eu-west-1',
      userPoolId: USER_POOL_ID,
      userName: lower,
      callerContext: { awsSdkVersion: 'aws-sdk-unknown-unknown', clientId: CLIENT_ID },
      triggerSource: 'PostConfirmation_ConfirmSignUp',
      request: {
        userAttributes: {
          sub: out.UserSub,
          email: lower,
          email_verified: 'true',
          'cognito:user_status': 'CONFIRMED',
          'custom:name': 'Ada',
          'custom:surname': 'Lovelace',
          'custom:company': 'Analytical Engines Ltd',
          'custom:company_code': 'AEL',
          'custom:invitation_id': 'inv-123',
        },
        clientMetadata: { source: 'test' },
      },
      response: {},
    });

    // a second confirmation is refused
    await expectCognitoError(
      h.client.send(new ConfirmSignUpCommand({ ClientId: CLIENT_ID, Username: email, ConfirmationCode: code })),
      'NotAuthorizedException',
      'User cannot be confirmed. Current status is CONFIRMED',
    );

    // username look-up is case-insensitive
    const tokens = await signIn(lower.toUpperCase());
    const user = await h.client.send(new GetUserCommand({ AccessToken: tokens.accessToken }));
    expect(user.Username).toBe(lower);
    expect(attrMap(user.UserAttributes)).toEqual({
      sub: out.UserSub,
      email: lower,
      email_verified: 'true',
      'custom:name': 'Ada',
      'custom:surname': 'Lovelace',
      'custom:company': 'Analytical Engines Ltd',
      'custom:company_code': 'AEL',
      'custom:invitation_id': 'inv-123',
    });
  });

  it('rejects a duplicate sign-up, a weak password and unknown attributes', async () => {
    const email = uniqueEmail();
    await signUp(email);
    await expectCognitoError(signUp(email.toUpperCase()), 'UsernameExistsException');
    await expectCognitoError(signUp(uniqueEmail(), 'short1A'), 'InvalidPasswordException', /not long enough/);
    await expectCognitoError(signUp(uniqueEmail(), 'alllowercase1'), 'InvalidPasswordException', /uppercase/);
    await expectCognitoError(signUp(uniqueEmail(), 'ALLUPPERCASE1'), 'InvalidPasswordException', /lowercase/);
    await expectCognitoError(signUp(uniqueEmail(), 'NoDigitsHere'), 'InvalidPasswordException', /numeric/);
    await expectCognitoError(
      h.client.send(
        new SignUpCommand({
          ClientId: CLIENT_ID,
          Username: uniqueEmail(),
          Password: PASSWORD,
          UserAttributes: [{ Name: 'custom:unknown', Value: 'x' }],
        }),
      ),
      'InvalidParameterException',
    );
    await expectCognitoError(
      h.client.send(new SignUpCommand({ ClientId: 'other-client', Username: uniqueEmail(), Password: PASSWORD })),
      'ResourceNotFoundException',
    );
  });

  it('refuses a wrong code and an expired one (after 24 h)', async () => {
    const email = uniqueEmail();
    await signUp(email);
    const code = h.cognito.lastCode(email)!;
    const wrong = code === '000000' ? '111111' : '000000';
    await expectCognitoError(
      h.client.send(new ConfirmSignUpCommand({ ClientId: CLIENT_ID, Username: email, ConfirmationCode: wrong })),
      'CodeMismatchException',
    );
    h.advance(24 * 60 * 60 * 1000 + 1000);
    try {
      await expectCognitoError(
        h.client.send(new ConfirmSignUpCommand({ ClientId: CLIENT_ID, Username: email, ConfirmationCode: code })),
        'ExpiredCodeException',
      );
    } finally {
      h.advance(-(24 * 60 * 60 * 1000 + 1000));
    }
  });

  it('resends a new code; the old one stops working, the new one confirms', async () => {
    const email = uniqueEmail();
    await signUp(email);
    const first = h.cognito.lastCode(email)!;
    let second = first;
    // codes are random; resend until it differs (a repeat has probability 1e-6)
    for (let i = 0; i < 3 && second === first; i++) {
      const out = await h.client.send(new ResendConfirmationCodeCommand({ ClientId: CLIENT_ID, Username: email }));
      expect(out.CodeDeliveryDetails?.DeliveryMedium).toBe('EMAIL');
      second = h.cognito.lastCode(email)!;
    }
    expect(second).not.toBe(first);
    expect(h.codes.at(-1)).toMatchObject({ kind: 'resend', code: second });
    await expectCognitoError(
      h.client.send(new ConfirmSignUpCommand({ ClientId: CLIENT_ID, Username: email, ConfirmationCode: first })),
      'CodeMismatchException',
    );
    await h.client.send(new ConfirmSignUpCommand({ ClientId: CLIENT_ID, Username: email, ConfirmationCode: second }));
    await expectCognitoError(
      h.client.send(new ResendConfirmationCodeCommand({ ClientId: CLIENT_ID, Username: email })),
      'InvalidParameterException',
      'User is already confirmed.',
    );
  });

  it('answers wrong passwords and unknown users alike', async () => {
    const email = uniqueEmail();
    await signUpConfirmed(email);
    for (const [username, password] of [
      [email, 'Wrong0Password'],
      [uniqueEmail('nobody'), PASSWORD],
    ] as const) {
      await expectCognitoError(
        h.client.send(
          new InitiateAuthCommand({
            ClientId: CLIENT_ID,
            AuthFlow: 'USER_PASSWORD_AUTH',
            AuthParameters: { USERNAME: username, PASSWORD: password },
          }),
        ),
        'NotAuthorizedException',
        'Incorrect username or password.',
      );
    }
    await expectCognitoError(
      h.client.send(
        new InitiateAuthCommand({
          ClientId: CLIENT_ID,
          AuthFlow: 'USER_SRP_AUTH',
          AuthParameters: { USERNAME: email, SRP_A: 'abc' },
        }),
      ),
      'InvalidParameterException',
      /USER_PASSWORD_AUTH/,
    );
  });
});

describe('PostConfirmation trigger', () => {
  it('answers UnexpectedLambdaException, keeps the user unconfirmed, and lets them retry', async () => {
    let fail = true;
    const calls: string[] = [];
    const errorLog = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const local = await startHarness({
      postConfirmation: (event) => {
        calls.push(event.userName);
        return fail ? Promise.reject(new Error('database is down')) : Promise.resolve(event);
      },
    });
    try {
      const email = uniqueEmail();
      await local.client.send(
        new SignUpCommand({ ClientId: CLIENT_ID, Username: email, Password: PASSWORD, UserAttributes: attrs(email) }),
      );
      const code = local.cognito.lastCode(email);
      await expectCognitoError(
        local.client.send(new ConfirmSignUpCommand({ ClientId: CLIENT_ID, Username: email, ConfirmationCode: code })),
        'UnexpectedLambdaException',
        /database is down/,
      );
      expect(errorLog).toHaveBeenCalledTimes(1);
      expect(String(errorLog.mock.calls[0]?.[0])).toContain('PostConfirmation');
      await expectCognitoError(
        local.client.send(
          new InitiateAuthCommand({
            ClientId: CLIENT_ID,
            AuthFlow: 'USER_PASSWORD_AUTH',
            AuthParameters: { USERNAME: email, PASSWORD },
          }),
        ),
        'UserNotConfirmedException',
      );
      fail = false;
      await local.client.send(new ConfirmSignUpCommand({ ClientId: CLIENT_ID, Username: email, ConfirmationCode: code }));
      expect(calls).toEqual([email.toLowerCase(), email.toLowerCase()]);
      const out = await local.client.send(
        new InitiateAuthCommand({
          ClientId: CLIENT_ID,
          AuthFlow: 'USER_PASSWORD_AUTH',
          AuthParameters: { USERNAME: email, PASSWORD },
        }),
      );
      expect(out.AuthenticationResult?.AccessToken).toBeTruthy();
    } finally {
      errorLog.mockRestore();
      await local.close();
    }
  });
});

describe('PreSignUp trigger', () => {
  it('hands the sign-up its validation data; autoConfirmUser confirms at once, runs PostConfirmation then, and mails no code', async () => {
    const seen: Array<{ source: string; validationData: unknown; email: string | undefined }> = [];
    const confirmed: string[] = [];
    const local = await startHarness({
      preSignUp: (event) => {
        seen.push({ source: event.triggerSource, validationData: event.request.validationData, email: event.request.userAttributes.email });
        const confirm = event.request.validationData?.proof === 'yes';
        return Promise.resolve({ ...event, response: { autoConfirmUser: confirm, autoVerifyEmail: confirm, autoVerifyPhone: false } });
      },
      postConfirmation: (event) => {
        confirmed.push(`${event.triggerSource} ${event.userName} ${event.request.userAttributes.email_verified}`);
        return Promise.resolve(event);
      },
    });
    try {
      const proven = uniqueEmail();
      const out = await local.client.send(
        new SignUpCommand({
          ClientId: CLIENT_ID,
          Username: proven,
          Password: PASSWORD,
          UserAttributes: attrs(proven),
          ValidationData: [{ Name: 'proof', Value: 'yes' }],
        }),
      );
      expect(out.UserConfirmed).toBe(true);
      expect(out.CodeDeliveryDetails).toBeUndefined();
      expect(local.codes.filter((c) => c.email === proven.toLowerCase())).toEqual([]);
      expect(confirmed).toEqual([`PostConfirmation_ConfirmSignUp ${proven.toLowerCase()} true`]);
      const got = await local.client.send(new AdminGetUserCommand({ UserPoolId: USER_POOL_ID, Username: proven }));
      expect(got.UserStatus).toBe('CONFIRMED');
      expect(attrMap(got.UserAttributes)).toMatchObject({ email_verified: 'true' });
      const signedIn = await local.client.send(
        new InitiateAuthCommand({ ClientId: CLIENT_ID, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: proven, PASSWORD } }),
      );
      expect(signedIn.AuthenticationResult?.AccessToken).toBeTruthy();

      // Without the proof: the ordinary way, a code to the address and no PostConfirmation yet
      const other = uniqueEmail();
      const plain = await local.client.send(
        new SignUpCommand({ ClientId: CLIENT_ID, Username: other, Password: PASSWORD, UserAttributes: attrs(other) }),
      );
      expect(plain.UserConfirmed).toBe(false);
      expect(local.cognito.lastCode(other)).toMatch(/^\d{6}$/);
      expect(confirmed).toHaveLength(1);
      expect(seen).toEqual([
        { source: 'PreSignUp_SignUp', validationData: { proof: 'yes' }, email: proven.toLowerCase() },
        { source: 'PreSignUp_SignUp', validationData: null, email: other.toLowerCase() },
      ]);
    } finally {
      await local.close();
    }
  });

  it('refuses the sign-up when the trigger fails (UserLambdaValidationException) and creates no user', async () => {
    const errorLog = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const local = await startHarness({ preSignUp: () => Promise.reject(new Error('table unreachable')) });
    try {
      const email = uniqueEmail();
      await expectCognitoError(
        local.client.send(new SignUpCommand({ ClientId: CLIENT_ID, Username: email, Password: PASSWORD, UserAttributes: attrs(email) })),
        'UserLambdaValidationException',
        /PreSignUp failed with error table unreachable/,
      );
      await expectCognitoError(local.client.send(new AdminGetUserCommand({ UserPoolId: USER_POOL_ID, Username: email })), 'UserNotFoundException');
    } finally {
      errorLog.mockRestore();
      await local.close();
    }
  });
});

describe('PostConfirmation trigger calling back into the pool', () => {
  it('lets the trigger update the user (AdminUpdateUserAttributes) while the confirmation waits for it', async () => {
    const ref: { harness?: Harness } = {};
    const local = await startHarness({
      postConfirmation: async (event) => {
        const harness = ref.harness!;
        await harness.client.send(
          new AdminUpdateUserAttributesCommand({
            UserPoolId: event.userPoolId,
            Username: event.userName,
            UserAttributes: [{ Name: 'custom:company_code', Value: 'FROM-TRIGGER' }],
          }),
        );
        return event;
      },
    });
    ref.harness = local;
    try {
      const email = uniqueEmail();
      await local.client.send(
        new SignUpCommand({ ClientId: CLIENT_ID, Username: email, Password: PASSWORD, UserAttributes: attrs(email) }),
      );
      await local.client.send(
        new ConfirmSignUpCommand({ ClientId: CLIENT_ID, Username: email, ConfirmationCode: local.cognito.lastCode(email) }),
      );
      const got = await local.client.send(new AdminGetUserCommand({ UserPoolId: USER_POOL_ID, Username: email }));
      expect(got.UserStatus).toBe('CONFIRMED');
      expect(attrMap(got.UserAttributes)).toMatchObject({ 'custom:company_code': 'FROM-TRIGGER', email_verified: 'true' });
    } finally {
      await local.close();
    }
  });
});

describe('passwords', () => {
  it('resets a forgotten password with the mailed code', async () => {
    const email = uniqueEmail();
    const sub = await signUpConfirmed(email);
    const hooksBefore = h.hookEvents.length;
    const out = await h.client.send(new ForgotPasswordCommand({ ClientId: CLIENT_ID, Username: email }));
    expect(out.CodeDeliveryDetails).toMatchObject({ DeliveryMedium: 'EMAIL', AttributeName: 'email' });
    const code = h.cognito.lastCode(email)!;
    expect(h.codes.at(-1)).toEqual({ email: email.toLowerCase(), kind: 'forgot', code });
    const wrong = code === '000000' ? '111111' : '000000';

    await expectCognitoError(
      h.client.send(
        new ConfirmForgotPasswordCommand({ ClientId: CLIENT_ID, Username: email, ConfirmationCode: wrong, Password: 'N3wPassword' }),
      ),
      'CodeMismatchException',
    );
    await expectCognitoError(
      h.client.send(
        new ConfirmForgotPasswordCommand({ ClientId: CLIENT_ID, Username: email, ConfirmationCode: code, Password: 'weak' }),
      ),
      'InvalidPasswordException',
    );
    await h.client.send(
      new ConfirmForgotPasswordCommand({ ClientId: CLIENT_ID, Username: email, ConfirmationCode: code, Password: 'N3wPassword' }),
    );
    expect(h.hookEvents.length).toBe(hooksBefore + 1);
    expect(h.hookEvents.at(-1)).toMatchObject({
      triggerSource: 'PostConfirmation_ConfirmForgotPassword',
      request: { userAttributes: { sub, email: email.toLowerCase(), 'cognito:user_status': 'CONFIRMED' } },
    });
    await expectCognitoError(signIn(email), 'NotAuthorizedException');
    await signIn(email, 'N3wPassword');
    // the code is single-use
    await expectCognitoError(
      h.client.send(
        new ConfirmForgotPasswordCommand({ ClientId: CLIENT_ID, Username: email, ConfirmationCode: code, Password: 'An0therOne' }),
      ),
      'CodeMismatchException',
    );
  });

  it('does not disclose unknown users on ForgotPassword, refuses unverified ones', async () => {
    const out = await h.client.send(new ForgotPasswordCommand({ ClientId: CLIENT_ID, Username: uniqueEmail('ghost') }));
    expect(out.CodeDeliveryDetails?.DeliveryMedium).toBe('EMAIL');
    const email = uniqueEmail();
    await signUp(email);
    await expectCognitoError(
      h.client.send(new ForgotPasswordCommand({ ClientId: CLIENT_ID, Username: email })),
      'InvalidParameterException',
    );
  });

  it('changes the password given the previous one', async () => {
    const email = uniqueEmail();
    await signUpConfirmed(email);
    const { accessToken } = await signIn(email);
    await expectCognitoError(
      h.client.send(
        new ChangePasswordCommand({ AccessToken: accessToken, PreviousPassword: 'Wrong0Password', ProposedPassword: 'Chang3dPass' }),
      ),
      'NotAuthorizedException',
      'Incorrect username or password.',
    );
    await expectCognitoError(
      h.client.send(new ChangePasswordCommand({ AccessToken: accessToken, PreviousPassword: PASSWORD, ProposedPassword: 'weak' })),
      'InvalidPasswordException',
    );
    await h.client.send(
      new ChangePasswordCommand({ AccessToken: accessToken, PreviousPassword: PASSWORD, ProposedPassword: 'Chang3dPass' }),
    );
    await expectCognitoError(signIn(email), 'NotAuthorizedException');
    await signIn(email, 'Chang3dPass');
  });
});

describe('sessions', () => {
  it('refreshes tokens with REFRESH_TOKEN_AUTH, REFRESH_TOKEN and GetTokensFromRefreshToken', async () => {
    const email = uniqueEmail();
    await signUpConfirmed(email);
    const first = await signIn(email);
    for (const flow of ['REFRESH_TOKEN_AUTH', 'REFRESH_TOKEN'] as const) {
      const out = await h.client.send(
        new InitiateAuthCommand({ ClientId: CLIENT_ID, AuthFlow: flow, AuthParameters: { REFRESH_TOKEN: first.refreshToken } }),
      );
      expect(out.AuthenticationResult?.AccessToken).toBeTruthy();
      expect(out.AuthenticationResult?.AccessToken).not.toBe(first.accessToken);
      expect(out.AuthenticationResult?.IdToken).toBeTruthy();
      expect(out.AuthenticationResult?.RefreshToken).toBeUndefined();
      const user = await h.client.send(new GetUserCommand({ AccessToken: out.AuthenticationResult!.AccessToken }));
      expect(user.Username).toBe(email.toLowerCase());
    }
    const out = await h.client.send(
      new GetTokensFromRefreshTokenCommand({ ClientId: CLIENT_ID, RefreshToken: first.refreshToken }),
    );
    expect(out.AuthenticationResult?.AccessToken).toBeTruthy();
    await expectCognitoError(
      h.client.send(
        new InitiateAuthCommand({
          ClientId: CLIENT_ID,
          AuthFlow: 'REFRESH_TOKEN_AUTH',
          AuthParameters: { REFRESH_TOKEN: 'not-a-refresh-token' },
        }),
      ),
      'NotAuthorizedException',
    );
  });

  it('GlobalSignOut invalidates every refresh token and every earlier access token of the user', async () => {
    const email = uniqueEmail();
    await signUpConfirmed(email);
    const a = await signIn(email);
    const b = await signIn(email);
    const refreshed = await h.client.send(
      new InitiateAuthCommand({
        ClientId: CLIENT_ID,
        AuthFlow: 'REFRESH_TOKEN_AUTH',
        AuthParameters: { REFRESH_TOKEN: b.refreshToken },
      }),
    );
    // another user is not affected
    const other = uniqueEmail();
    await signUpConfirmed(other);
    const o = await signIn(other);

    await h.client.send(new GlobalSignOutCommand({ AccessToken: a.accessToken }));

    for (const token of [a.accessToken, b.accessToken, refreshed.AuthenticationResult!.AccessToken!]) {
      await expectCognitoError(h.client.send(new GetUserCommand({ AccessToken: token })), 'NotAuthorizedException', /revoked/);
    }
    for (const refreshToken of [a.refreshToken, b.refreshToken]) {
      await expectCognitoError(
        h.client.send(
          new InitiateAuthCommand({ ClientId: CLIENT_ID, AuthFlow: 'REFRESH_TOKEN_AUTH', AuthParameters: { REFRESH_TOKEN: refreshToken } }),
        ),
        'NotAuthorizedException',
      );
    }
    expect((await h.client.send(new GetUserCommand({ AccessToken: o.accessToken }))).Username).toBe(other.toLowerCase());

    // signing in again works and the new tokens are valid
    const c = await signIn(email);
    expect((await h.client.send(new GetUserCommand({ AccessToken: c.accessToken }))).Username).toBe(email.toLowerCase());
  });

  it('RevokeToken invalidates that refresh token and its access tokens only', async () => {
    const email = uniqueEmail();
    await signUpConfirmed(email);
    const a = await signIn(email);
    const b = await signIn(email);
    await h.client.send(new RevokeTokenCommand({ ClientId: CLIENT_ID, Token: a.refreshToken }));
    await expectCognitoError(h.client.send(new GetUserCommand({ AccessToken: a.accessToken })), 'NotAuthorizedException');
    await expectCognitoError(
      h.client.send(
        new InitiateAuthCommand({ ClientId: CLIENT_ID, AuthFlow: 'REFRESH_TOKEN_AUTH', AuthParameters: { REFRESH_TOKEN: a.refreshToken } }),
      ),
      'NotAuthorizedException',
      'Refresh Token has been revoked',
    );
    expect((await h.client.send(new GetUserCommand({ AccessToken: b.accessToken }))).Username).toBe(email.toLowerCase());
    await expectCognitoError(
      h.client.send(new RevokeTokenCommand({ ClientId: CLIENT_ID, Token: b.accessToken })),
      'UnsupportedTokenTypeException',
    );
  });

  it('rejects expired and forged access tokens', async () => {
    const email = uniqueEmail();
    await signUpConfirmed(email);
    const { accessToken, idToken } = await signIn(email);
    await expectCognitoError(h.client.send(new GetUserCommand({ AccessToken: idToken })), 'NotAuthorizedException');
    const [header, payload, signature] = accessToken.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as Record<string, unknown>;
    const forged = [header, Buffer.from(JSON.stringify({ ...claims, username: 'x' })).toString('base64url'), signature].join('.');
    await expectCognitoError(
      h.client.send(new GetUserCommand({ AccessToken: forged })),
      'NotAuthorizedException',
      'Invalid Access Token',
    );
    h.advance(60 * 60 * 1000 + 5000);
    try {
      await expectCognitoError(
        h.client.send(new GetUserCommand({ AccessToken: accessToken })),
        'NotAuthorizedException',
        'Access Token has expired',
      );
    } finally {
      h.advance(-(60 * 60 * 1000 + 5000));
    }
  });
});

describe('profile', () => {
  it('updates custom attributes and refuses read-only / unknown ones', async () => {
    const email = uniqueEmail();
    await signUpConfirmed(email);
    const { accessToken } = await signIn(email);
    const out = await h.client.send(
      new UpdateUserAttributesCommand({
        AccessToken: accessToken,
        UserAttributes: [
          { Name: 'custom:company', Value: 'Difference Engines plc' },
          { Name: 'name', Value: 'Ada L.' },
        ],
      }),
    );
    expect(out.CodeDeliveryDetailsList).toEqual([]);
    const user = await h.client.send(new GetUserCommand({ AccessToken: accessToken }));
    const map = attrMap(user.UserAttributes);
    expect(map['custom:company']).toBe('Difference Engines plc');
    expect(map.name).toBe('Ada L.');
    await expectCognitoError(
      h.client.send(
        new UpdateUserAttributesCommand({ AccessToken: accessToken, UserAttributes: [{ Name: 'email_verified', Value: 'false' }] }),
      ),
      'NotAuthorizedException',
    );
    await expectCognitoError(
      h.client.send(new UpdateUserAttributesCommand({ AccessToken: accessToken, UserAttributes: [{ Name: 'sub', Value: 'x' }] })),
      'InvalidParameterException',
    );
  });

  it('deletes the signed-in user', async () => {
    const email = uniqueEmail();
    await signUpConfirmed(email);
    const { accessToken } = await signIn(email);
    await h.client.send(new DeleteUserCommand({ AccessToken: accessToken }));
    await expectCognitoError(h.client.send(new GetUserCommand({ AccessToken: accessToken })), 'NotAuthorizedException');
    await expectCognitoError(signIn(email), 'NotAuthorizedException', 'Incorrect username or password.');
    // the address can be used again
    const again = await signUp(email);
    expect(again.UserConfirmed).toBe(false);
  });
});
