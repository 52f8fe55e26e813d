/**
 * Google's OAuth client secret in AWS Secrets Manager: read with GetSecretValue once per container, at the first
 * token exchange or refresh (never for the authorisation URL or a revoke), a failed read tried again, and the value
 * used by the real Google adapter (google-auth-library) against the local stand-in, which checks the secret.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { driveProviders } from '../../../lambdas/adapters/drive/index';
import { resetSecretValues, secretValue } from '../../../lambdas/adapters/secrets-manager/secret-value';
import { DriveCallError, type DriveTokens } from '../../../lambdas/core/drive-import/ports';
import { resetEnvCache } from '../../../lambdas/runtime/env';
import { guardedGoogleClientSecret, type NeedsCheck } from '../../../lambdas/runtime/lazy-adapters';
import type { AwsNeed } from '../../../shared/needs';
import { createGoogleDriveStandIn, GOOGLE_LOCAL_CLIENT, type GoogleDriveStandIn } from '../../../scripts/local/google-drive-server';

const SECRET_NAME = 'receipts/google-client-secret';
const sm = mockClient(SecretsManagerClient);
const reads = () => sm.commandCalls(GetSecretValueCommand);

const ENV_KEYS = ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET', 'GOOGLE_CLIENT_SECRET_ID', 'GOOGLE_OAUTH_URL', 'GOOGLE_API_URL'] as const;
const savedEnv = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
function setEnv(values: Partial<Record<(typeof ENV_KEYS)[number], string>>) {
  for (const k of ENV_KEYS) {
    if (values[k] === undefined) delete process.env[k];
    else process.env[k] = values[k];
  }
  // TABLE_NAME is required by the env schema.
  process.env.TABLE_NAME ??= 'receipts-test';
  resetEnvCache();
}

const check = (needs: AwsNeed[]): NeedsCheck => ({ needs: new Set(needs), who: 'POST /company/service/drive/authorize' });

beforeEach(() => {
  sm.reset();
  resetSecretValues();
});
afterEach(() => {
  sm.reset();
  resetSecretValues();
});
afterAll(() => {
  for (const k of ENV_KEYS) {
    if (savedEnv[k] === undefined) delete process.env[k];
    else process.env[k] = savedEnv[k];
  }
  resetEnvCache();
  sm.restore();
});

describe('secretValue (Secrets Manager adapter)', () => {
  it('reads a secret once per container, however many callers ask and when', async () => {
    sm.on(GetSecretValueCommand).resolves({ SecretString: 'the-secret\n' });
    const first = await Promise.all([secretValue(SECRET_NAME), secretValue(SECRET_NAME), secretValue(SECRET_NAME)]);
    expect(first).toEqual(['the-secret', 'the-secret', 'the-secret']);
    expect(await secretValue(SECRET_NAME)).toBe('the-secret');
    expect(reads()).toHaveLength(1);
    expect(reads()[0]!.args[0].input).toEqual({ SecretId: SECRET_NAME });
  });

  it('does not keep a failed read: the next call asks again', async () => {
    sm.on(GetSecretValueCommand).rejectsOnce(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' })).resolves({ SecretString: 'the-secret' });
    await expect(secretValue(SECRET_NAME)).rejects.toThrow('Rate exceeded');
    expect(await secretValue(SECRET_NAME)).toBe('the-secret');
    expect(await secretValue(SECRET_NAME)).toBe('the-secret');
    expect(reads()).toHaveLength(2);
  });

  it('refuses a secret without a string value, without caching that', async () => {
    sm.on(GetSecretValueCommand).resolvesOnce({ SecretBinary: new Uint8Array([1, 2]) }).resolves({ SecretString: 'the-secret' });
    await expect(secretValue(SECRET_NAME)).rejects.toThrow(`the secret ${SECRET_NAME} has no string value`);
    expect(await secretValue(SECRET_NAME)).toBe('the-secret');
  });
});

describe('guardedGoogleClientSecret (Deps.googleClientSecret)', () => {
  it('AWS: reads the secret GOOGLE_CLIENT_SECRET_ID names, for a handler that declares googleClientSecret', async () => {
    setEnv({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET_ID: SECRET_NAME });
    sm.on(GetSecretValueCommand).resolves({ SecretString: 'from-secrets-manager' });
    const secret = guardedGoogleClientSecret(check(['table', 'googleClientSecret']));
    expect(await secret()).toBe('from-secrets-manager');
    expect(await secret()).toBe('from-secrets-manager');
    expect(reads()).toHaveLength(1);
  });

  it('refuses a handler that does not declare googleClientSecret, without reading', async () => {
    setEnv({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET_ID: SECRET_NAME });
    sm.on(GetSecretValueCommand).resolves({ SecretString: 'from-secrets-manager' });
    await expect(guardedGoogleClientSecret(check(['table', 'secretsKey']))()).rejects.toThrow("without declaring the need 'googleClientSecret'");
    expect(reads()).toHaveLength(0);
  });

  it('local mode: GOOGLE_CLIENT_SECRET itself, no Secrets Manager; neither: not configured', async () => {
    setEnv({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'local-secret' });
    expect(await guardedGoogleClientSecret(check(['googleClientSecret']))()).toBe('local-secret');
    setEnv({ GOOGLE_CLIENT_ID: 'id' });
    expect(await guardedGoogleClientSecret(check(['googleClientSecret']))()).toBe('');
    expect(reads()).toHaveLength(0);
  });
});

describe('the Google Drive adapter with the secret from Secrets Manager', () => {
  let server: Server;
  let google: GoogleDriveStandIn;
  let base: string;
  const redirectUri = 'https://app.example.com/integration/google/authcallback';

  beforeAll(async () => {
    google = createGoogleDriveStandIn();
    server = createServer((req, res) => {
      google.handle(req, res, '').catch(() => {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    setEnv({ GOOGLE_CLIENT_ID: GOOGLE_LOCAL_CLIENT.clientId, GOOGLE_CLIENT_SECRET_ID: SECRET_NAME, GOOGLE_OAUTH_URL: base, GOOGLE_API_URL: `${base}/` });
  });

  const providers = () => driveProviders(guardedGoogleClientSecret(check(['table', 'secretsKey', 'webSocketManage', 'googleClientSecret']))).google;

  async function connect(provider = providers()): Promise<DriveTokens> {
    const { url, codeVerifier } = await provider.authorizationUrl({ redirectUri, state: 'state-1' });
    const code = new URL(google.oauth.approveUrl(url)).searchParams.get('code')!;
    return provider.exchangeCode({ code, redirectUri, codeVerifier });
  }

  it('exchanges the code and refreshes with the secret read once; the authorisation URL reads nothing', async () => {
    sm.on(GetSecretValueCommand).resolves({ SecretString: GOOGLE_LOCAL_CLIENT.clientSecret });
    const provider = providers();
    const { url } = await provider.authorizationUrl({ redirectUri, state: 'state-0' });
    expect(new URL(url).searchParams.get('client_id')).toBe(GOOGLE_LOCAL_CLIENT.clientId);
    expect(url).not.toContain(GOOGLE_LOCAL_CLIENT.clientSecret);
    expect(reads()).toHaveLength(0);

    // The stand-in answers the token exchange only with the right client secret.
    const tokens = await connect(provider);
    expect(tokens.access_token).toMatch(/^at-/);
    expect(tokens.refresh_token).toBeTruthy();
    expect(reads()).toHaveLength(1);
    expect(reads()[0]!.args[0].input).toEqual({ SecretId: SECRET_NAME });

    // An expired access token: the first Drive call refreshes it (client secret again), still the one read.
    google.addFolder('Scans');
    const refreshes = google.oauth.refreshes;
    const session = provider.session({ ...tokens, expires_at: new Date(Date.now() - 60_000).toISOString() });
    const folders = await session.listFolders();
    expect(folders.items.map((f) => f.name)).toContain('Scans');
    expect(google.oauth.refreshes).toBe(refreshes + 1);
    expect(session.tokens().access_token).not.toBe(tokens.access_token);
    expect(reads()).toHaveLength(1);
  });

  it('a wrong secret in Secrets Manager: Google (the stand-in) refuses the exchange', async () => {
    sm.on(GetSecretValueCommand).resolves({ SecretString: 'not-the-secret' });
    await expect(connect()).rejects.toThrow();
    expect(reads()).toHaveLength(1);
  });

  it('a failed read is a passing failure (DriveCallError, the secret not in it), and the next call reads again', async () => {
    sm.on(GetSecretValueCommand)
      .rejectsOnce(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }))
      .resolves({ SecretString: GOOGLE_LOCAL_CLIENT.clientSecret });
    const provider = providers();
    const { url, codeVerifier } = await provider.authorizationUrl({ redirectUri, state: 'state-2' });
    const code = new URL(google.oauth.approveUrl(url)).searchParams.get('code')!;
    const failure = await provider.exchangeCode({ code, redirectUri, codeVerifier }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(DriveCallError);
    expect((failure as Error).message).toMatch(/the Google client secret could not be read \(Rate exceeded\)/);
    expect((await connect(provider)).access_token).toMatch(/^at-/);
    expect(reads()).toHaveLength(2);
  });

  it('revoking a grant needs no secret: no read', async () => {
    sm.on(GetSecretValueCommand).resolves({ SecretString: GOOGLE_LOCAL_CLIENT.clientSecret });
    const tokens = await connect();
    resetSecretValues();
    sm.resetHistory();
    const session = providers().session(tokens);
    await session.revoke();
    expect(reads()).toHaveLength(0);
    // The grant is gone at the stand-in: its refresh token no longer works.
    await expect(providers().session({ ...tokens, expires_at: new Date(Date.now() - 60_000).toISOString() }).listFolders()).rejects.toThrow(/refused the grant/);
  });

  it('without GOOGLE_CLIENT_SECRET_ID (nor GOOGLE_CLIENT_SECRET) the exchange is "not configured", nothing read', async () => {
    setEnv({ GOOGLE_CLIENT_ID: GOOGLE_LOCAL_CLIENT.clientId, GOOGLE_OAUTH_URL: base, GOOGLE_API_URL: `${base}/` });
    await expect(connect()).rejects.toThrow(/Google Drive is not configured/);
    expect(reads()).toHaveLength(0);
  });
});
