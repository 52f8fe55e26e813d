import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../web/src/lib/api-error';
import { shouldRetry } from '../../../web/src/lib/query-client';
import { appConfigSchema, loadConfig } from '../../../web/src/lib/config';
import { clearCredentials, holdCredentials, peekCredentials } from '../../../web/src/lib/pending-credentials';

describe('shouldRetry', () => {
  it('retries network failures and server errors at most twice', () => {
    expect(shouldRetry(0, new ApiError(0, 'NetworkError', 'x'))).toBe(true);
    expect(shouldRetry(1, new ApiError(503, 'Error', 'x'))).toBe(true);
    expect(shouldRetry(2, new ApiError(503, 'Error', 'x'))).toBe(false);
  });

  it('never retries client errors or unknown errors', () => {
    expect(shouldRetry(0, new ApiError(401, 'Unauthorized', 'x'))).toBe(false);
    expect(shouldRetry(0, new ApiError(422, 'ValidationFailed', 'x'))).toBe(false);
    expect(shouldRetry(0, new Error('boom'))).toBe(false);
  });
});

describe('runtime config', () => {
  const valid = {
    apiUrl: 'http://localhost:3000/api',
    wsUrl: 'ws://localhost:3001',
    region: 'eu-west-1',
    userPoolId: 'eu-west-1_x',
    userPoolClientId: 'client',
  };

  it('accepts the AWS shape and the local shape with userPoolEndpoint', () => {
    expect(appConfigSchema.parse(valid).userPoolEndpoint).toBeUndefined();
    expect(appConfigSchema.parse({ ...valid, userPoolEndpoint: 'http://localhost:9229' }).userPoolEndpoint).toBe(
      'http://localhost:9229',
    );
    expect(appConfigSchema.parse({ ...valid, userPoolEndpoint: null }).userPoolEndpoint).toBeUndefined();
  });

  it('loads /config.json and reports missing fields', async () => {
    const ok = (body: unknown) => (async () => new Response(JSON.stringify(body), { status: 200 })) as typeof fetch;
    await expect(loadConfig(ok(valid))).resolves.toMatchObject({ apiUrl: valid.apiUrl });
    await expect(loadConfig(ok({ apiUrl: 'x' }))).rejects.toThrow(/incomplete/);
    await expect(loadConfig((async () => new Response('nope', { status: 404 })) as typeof fetch)).rejects.toThrow(/HTTP 404/);
  });
});

describe('pending credentials', () => {
  it('are held in memory and cleared', () => {
    holdCredentials({ email: 'a@b.lt', password: 'Secret123' });
    expect(peekCredentials()).toEqual({ email: 'a@b.lt', password: 'Secret123' });
    clearCredentials();
    expect(peekCredentials()).toBeNull();
  });
});
