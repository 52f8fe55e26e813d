import { CognitoIdentityProviderClient, ListUsersCommand, SignUpCommand } from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_ID, PASSWORD, USER_POOL_ID, expectCognitoError, startHarness, type Harness } from './helpers';

/** Cognito authorises its admin operations with IAM: the stand-in requires the same signed requests. */
describe('IAM-authorised operations of the local Cognito', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ allowedOrigins: ['http://127.0.0.1:3000'] });
    await h.client.send(new SignUpCommand({ ClientId: CLIENT_ID, Username: 'iam@example.com', Password: PASSWORD, UserAttributes: [{ Name: 'email', Value: 'iam@example.com' }] }));
  });
  afterAll(async () => {
    await h.close();
  });

  const unsigned = (target: string, body: unknown, origin?: string) =>
    fetch(h.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': `AWSCognitoIdentityProviderService.${target}`,
        ...(origin ? { origin } : {}),
      },
      body: JSON.stringify(body),
    });

  it('answers admin calls signed with the local credentials', async () => {
    const res = await h.client.send(new ListUsersCommand({ UserPoolId: USER_POOL_ID }));
    expect(res.Users?.map((u) => u.Username)).toContain('iam@example.com');
  });

  it('refuses admin calls without a signature, whatever the origin', async () => {
    for (const [target, body] of [
      ['ListUsers', { UserPoolId: USER_POOL_ID }],
      ['AdminSetUserPassword', { UserPoolId: USER_POOL_ID, Username: 'iam@example.com', Password: 'Hijacked1x', Permanent: true }],
      ['AdminUpdateUserAttributes', { UserPoolId: USER_POOL_ID, Username: 'iam@example.com', UserAttributes: [{ Name: 'email', Value: 'evil@example.com' }] }],
      ['AdminDisableUser', { UserPoolId: USER_POOL_ID, Username: 'iam@example.com' }],
    ] as const) {
      const res = await unsigned(target, body, 'http://evil.example');
      expect(res.status, target).toBe(403);
      expect((await res.json()) as { __type: string }).toMatchObject({ __type: 'MissingAuthenticationTokenException' });
      expect(res.headers.get('access-control-allow-origin'), target).toBeNull();
    }
  });

  it('refuses admin calls signed with other credentials', async () => {
    const forger = new CognitoIdentityProviderClient({
      region: 'eu-west-1',
      endpoint: h.url,
      credentials: { accessKeyId: 'local', secretAccessKey: 'guessed' },
      maxAttempts: 1,
    });
    await expectCognitoError(forger.send(new ListUsersCommand({ UserPoolId: USER_POOL_ID })), 'InvalidSignatureException');
    const stranger = new CognitoIdentityProviderClient({
      region: 'eu-west-1',
      endpoint: h.url,
      credentials: { accessKeyId: 'someone', secretAccessKey: 'local' },
      maxAttempts: 1,
    });
    await expectCognitoError(stranger.send(new ListUsersCommand({ UserPoolId: USER_POOL_ID })), 'UnrecognizedClientException');
    forger.destroy();
    stranger.destroy();
  });

  it('allows CORS only for the app origin; public calls still work unsigned', async () => {
    const preflight = (origin: string) =>
      fetch(h.url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
    expect((await preflight('http://127.0.0.1:3000')).headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:3000');
    expect((await preflight('http://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
    const signIn = await unsigned('InitiateAuth', { AuthFlow: 'USER_PASSWORD_AUTH', ClientId: CLIENT_ID, AuthParameters: { USERNAME: 'nobody@example.com', PASSWORD } }, 'http://127.0.0.1:3000');
    expect(signIn.status).toBe(400);
    expect((await signIn.json()) as { __type: string }).toMatchObject({ __type: 'NotAuthorizedException' });
  });
});
