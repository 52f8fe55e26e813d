import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CognitoIdentityProviderClient,
  ConfirmSignUpCommand,
  InitiateAuthCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_ID, PASSWORD, USER_POOL_ID, startHarness, uniqueEmail, type Harness } from './helpers';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

describe('tokens', () => {
  it('issues RS256 tokens that verify against the published JWKS and carry Cognito claims', async () => {
    const email = uniqueEmail('Grace');
    const lower = email.toLowerCase();
    const signUp = await h.client.send(
      new SignUpCommand({
        ClientId: CLIENT_ID,
        Username: email,
        Password: PASSWORD,
        UserAttributes: [
          { Name: 'custom:name', Value: 'Grace' },
          { Name: 'custom:surname', Value: 'Hopper' },
          { Name: 'custom:company', Value: 'Navy' },
          { Name: 'custom:company_code', Value: 'USN' },
        ],
      }),
    );
    await h.client.send(
      new ConfirmSignUpCommand({ ClientId: CLIENT_ID, Username: email, ConfirmationCode: h.cognito.lastCode(email) }),
    );
    const before = Math.floor(Date.now() / 1000);
    const out = await h.client.send(
      new InitiateAuthCommand({
        ClientId: CLIENT_ID,
        AuthFlow: 'USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: email, PASSWORD },
      }),
    );
    const result = out.AuthenticationResult!;
    expect(result.ExpiresIn).toBe(3600);
    expect(result.TokenType).toBe('Bearer');

    expect(h.cognito.issuer).toBe(`${h.url}/${USER_POOL_ID}`);
    expect(h.cognito.jwksUri).toBe(`${h.url}/${USER_POOL_ID}/.well-known/jwks.json`);
    const jwks = createRemoteJWKSet(new URL(h.cognito.jwksUri));

    const jwksBody = (await (await fetch(h.cognito.jwksUri)).json()) as { keys: Array<Record<string, string>> };
    expect(jwksBody.keys).toHaveLength(1);
    expect(jwksBody.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', e: 'AQAB' });
    expect(jwksBody.keys[0]).not.toHaveProperty('d');
    for (const token of [result.AccessToken!, result.IdToken!]) {
      const header = decodeProtectedHeader(token);
      expect(header).toEqual({ alg: 'RS256', kid: jwksBody.keys[0].kid });
    }

    const { payload: access } = await jwtVerify(result.AccessToken!, jwks, { issuer: h.cognito.issuer, algorithms: ['RS256'] });
    expect(Object.keys(access).sort()).toEqual(
      ['auth_time', 'client_id', 'event_id', 'exp', 'iat', 'iss', 'jti', 'origin_jti', 'scope', 'sub', 'token_use', 'username'],
    );
    expect(access).toMatchObject({
      sub: signUp.UserSub,
      iss: h.cognito.issuer,
      client_id: CLIENT_ID,
      token_use: 'access',
      scope: 'aws.cognito.signin.user.admin',
      username: lower,
    });
    for (const claim of ['origin_jti', 'event_id', 'jti'] as const) expect(access[claim]).toMatch(/^[0-9a-f-]{36}$/);
    for (const claim of ['auth_time', 'exp', 'iat'] as const) expect(Number.isInteger(access[claim])).toBe(true);
    expect(access.iat).toBeGreaterThanOrEqual(before);
    expect(access.exp! - access.iat!).toBe(3600);
    expect(access.auth_time).toBe(access.iat);

    const { payload: id } = await jwtVerify(result.IdToken!, jwks, {
      issuer: h.cognito.issuer,
      audience: CLIENT_ID,
      algorithms: ['RS256'],
    });
    expect(id).toMatchObject({
      sub: signUp.UserSub,
      aud: CLIENT_ID,
      iss: h.cognito.issuer,
      email: lower,
      email_verified: true,
      'cognito:username': lower,
      'custom:name': 'Grace',
      'custom:surname': 'Hopper',
      'custom:company': 'Navy',
      'custom:company_code': 'USN',
      token_use: 'id',
      origin_jti: access.origin_jti,
      auth_time: access.auth_time,
    });
    expect(typeof id.jti).toBe('string');
    expect(id.exp! - id.iat!).toBe(3600);

    // refreshed tokens keep the session (origin_jti, auth_time) and get a new jti
    const refreshed = await h.client.send(
      new InitiateAuthCommand({
        ClientId: CLIENT_ID,
        AuthFlow: 'REFRESH_TOKEN_AUTH',
        AuthParameters: { REFRESH_TOKEN: result.RefreshToken! },
      }),
    );
    const { payload: access2 } = await jwtVerify(refreshed.AuthenticationResult!.AccessToken!, jwks, {
      issuer: h.cognito.issuer,
    });
    expect(access2.origin_jti).toBe(access.origin_jti);
    expect(access2.auth_time).toBe(access.auth_time);
    expect(access2.jti).not.toBe(access.jti);
  });

  it('serves the OpenID configuration under the pool path and the root', async () => {
    for (const path of [`/${USER_POOL_ID}/.well-known/openid-configuration`, '/.well-known/openid-configuration']) {
      const res = await fetch(`${h.url}${path}`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body.issuer).toBe(h.cognito.issuer);
      expect(body.jwks_uri).toBe(h.cognito.jwksUri);
      expect(body.id_token_signing_alg_values_supported).toEqual(['RS256']);
    }
    const missing = await fetch(`${h.url}/nothing-here`);
    expect(missing.status).toBe(404);
  });
});

describe('wire protocol', () => {
  it('answers CORS preflight for the headers Amplify sends', async () => {
    const res = await fetch(h.url, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'cache-control,content-type,x-amz-target,x-amz-user-agent',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    for (const name of ['cache-control', 'content-type', 'x-amz-target', 'x-amz-user-agent']) {
      expect(allowed).toContain(name);
    }
    // without a request list, the default list still covers Amplify's headers
    const bare = await fetch(h.url, { method: 'OPTIONS', headers: { origin: 'http://localhost:5173' } });
    const defaults = (bare.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    for (const name of ['cache-control', 'content-type', 'x-amz-target', 'x-amz-user-agent']) {
      expect(defaults).toContain(name);
    }
  });

  it('reports errors as HTTP 400 with __type, message and x-amzn-errortype (CORS-exposed)', async () => {
    const res = await fetch(h.url, {
      method: 'POST',
      headers: {
        origin: 'http://localhost:5173',
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth',
      },
      body: JSON.stringify({
        ClientId: CLIENT_ID,
        AuthFlow: 'USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: uniqueEmail('nobody'), PASSWORD },
      }),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('x-amzn-errortype')).toBe('NotAuthorizedException');
    expect(res.headers.get('content-type')).toBe('application/x-amz-json-1.1');
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(res.headers.get('access-control-expose-headers')).toContain('x-amzn-errortype');
    expect(await res.json()).toEqual({ __type: 'NotAuthorizedException', message: 'Incorrect username or password.' });
  });

  it('names unsupported operations and malformed bodies', async () => {
    const unknown = await fetch(h.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': 'AWSCognitoIdentityProviderService.AssociateSoftwareToken',
      },
      body: '{}',
    });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { __type: string }).__type).toBe('UnknownOperationException');

    const malformed = await fetch(h.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': 'AWSCognitoIdentityProviderService.SignUp',
      },
      body: '{not json',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.headers.get('x-amzn-errortype')).toBe('SerializationException');
  });

  it('works behind a mount that strips its prefix and a body parser that already read the stream', async () => {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        // what e.g. express.raw() leaves behind, after app.use('/cognito', ...) stripped the prefix
        Object.assign(req, { body: Buffer.concat(chunks), url: (req.url ?? '/').replace(/^\/cognito/, '') || '/' });
        h.cognito.handle(req, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const { port } = server.address() as AddressInfo;
    const client = new CognitoIdentityProviderClient({
      region: 'eu-west-1',
      endpoint: `http://127.0.0.1:${port}/cognito`,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      maxAttempts: 1,
    });
    try {
      const email = uniqueEmail('mounted');
      const out = await client.send(new SignUpCommand({ ClientId: CLIENT_ID, Username: email, Password: PASSWORD }));
      expect(out.UserConfirmed).toBe(false);
      const jwks = await fetch(`http://127.0.0.1:${port}/cognito/${USER_POOL_ID}/.well-known/jwks.json`);
      expect(((await jwks.json()) as { keys: unknown[] }).keys).toHaveLength(1);
    } finally {
      client.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
