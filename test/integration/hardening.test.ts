import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiGatewayManagementApiClient, GetConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import { resetEnvCache } from '../../lambdas/runtime/env';
import { SigningKeys } from '../../scripts/local/cognito/tokens';
import { apiClient, registeredUser, startTestStack, subOf, type TestStack } from '../support/local-stack';

/** Request-level limits of the API: every route, whatever its schemas say. */
describe('hardening of the API gateway and the handler wrapper', () => {
  let t: TestStack;
  beforeAll(async () => {
    t = await startTestStack();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('refuses a correctly signed access token without an expiry', async () => {
    const { token } = await registeredUser(t.stack, 'noexp');
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
    const keys = await SigningKeys.open(path.join(t.dataDir, 'cognito'));
    const { exp: _dropped, ...withoutExp } = claims;
    const forged = await keys.sign(withoutExp);
    // The same claims with their expiry are accepted: only the missing exp is refused.
    expect((await apiClient(t.stack.apiUrl, await keys.sign(claims)).get('/companies')).status).toBe(200);
    expect((await apiClient(t.stack.apiUrl, forged).get('/companies')).status).toBe(401);
    const { client_id: _client, ...withoutClient } = claims;
    expect((await apiClient(t.stack.apiUrl, await keys.sign(withoutClient)).get('/companies')).status).toBe(401);
    expect(subOf(forged)).toBe(claims.sub);
  });

  it('answers 400, not 500, to an over-long company_id, path id or query value', async () => {
    const { api } = await registeredUser(t.stack, 'longid');
    const longId = 'x'.repeat(2000);
    for (const p of [`/companies?company_id=${longId}`, `/receipts?company_id=${longId}`, `/receipts/total-documents?company_id=${longId}`]) {
      const res = await api.get(p);
      expect(res.status, p).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'BadRequest' });
    }
    const byPath = await api.get(`/receipts/${'y'.repeat(2000)}`);
    expect(byPath.status).toBe(400);
    const byQuery = await api.get(`/receipts?search_value=${'z'.repeat(5000)}`);
    expect(byQuery.status).toBe(400);
  });

  it('answers 400 to a malformed percent-encoding in the path, signed in or not', async () => {
    const anonymous = await fetch(`${t.stack.apiUrl}/receipts/%E0%A4%A`);
    expect(anonymous.status).toBe(400);
    const { token } = await registeredUser(t.stack, 'encoding');
    const signedIn = await fetch(`${t.stack.apiUrl}/receipts/%E0%A4%A`, { headers: { authorization: `Bearer ${token}` } });
    expect(signedIn.status).toBe(400);
    expect(await signedIn.json()).toMatchObject({ statusCode: 400, message: 'Malformed path' });
  });

  it('refuses a request body over 10 MB with 413, as API Gateway does', async () => {
    const { token } = await registeredUser(t.stack, 'bigbody');
    const body = JSON.stringify({ company_name: 'x'.repeat(11 * 1024 * 1024), code: '1' });
    const res = await fetch(`${t.stack.apiUrl}/company`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });
    expect(res.status).toBe(413);
    const small = await apiClient(t.stack.apiUrl, token).post('/company', { company_name: 'Fits UAB', code: '1' });
    expect(small.status).toBe(201);
  });

  it('serves the WebSocket @connections API only to signed requests', async () => {
    const push = await fetch(`${t.stack.url}/_ws/@connections/some-connection`, { method: 'POST', body: '{"event":"receipt","payload":{}}' });
    expect(push.status).toBe(403);
    const signed = new ApiGatewayManagementApiClient({ endpoint: `${t.stack.url}/_ws`, region: 'eu-west-1', maxAttempts: 1 });
    // Signed with local mode's credentials: accepted, and an unknown connection is gone as in AWS.
    const gone = await signed.send(new GetConnectionCommand({ ConnectionId: 'some-connection' })).catch((e: Error) => e.name);
    expect(gone).toBe('GoneException');
    const forged = new ApiGatewayManagementApiClient({
      endpoint: `${t.stack.url}/_ws`,
      region: 'eu-west-1',
      maxAttempts: 1,
      credentials: { accessKeyId: process.env.AWS_ACCESS_KEY_ID!, secretAccessKey: 'local' },
    });
    expect(await forged.send(new GetConnectionCommand({ ConnectionId: 'some-connection' })).catch((e: Error) => e.name)).toBe('ForbiddenException');
    signed.destroy();
    forged.destroy();
  });

  it('limits the companies one user creates (configurable), atomically even under concurrent requests', async () => {
    process.env.MAX_COMPANIES_PER_USER = '3';
    resetEnvCache();
    try {
      const { api } = await registeredUser(t.stack, 'founder');
      // The first company came with the sign-up; five concurrent creates may add only two more.
      const results = await Promise.all(Array.from({ length: 5 }, (_, i) => api.post('/company', { company_name: `Branch ${i} UAB`, code: `${i}` })));
      expect(results.map((r) => r.status).sort()).toEqual([201, 201, 429, 429, 429]);
      const refused = results.find((r) => r.status === 429)!;
      expect(refused.body).toMatchObject({ statusCode: 429, message: 'You can create at most 3 companies. Ask the platform administrator if you need more.' });
      expect(((await api.get('/companies')).body as { items: unknown[] }).items).toHaveLength(3);
    } finally {
      delete process.env.MAX_COMPANIES_PER_USER;
      resetEnvCache();
    }
  });

  it('serves the local S3 store only to signed requests and unexpired, unaltered presigned URLs', async () => {
    const { api, companyId } = await registeredUser(t.stack, 's3sig');
    const s3 = t.stack.s3.endpoint;
    // No signature at all: nothing can be listed, read or written.
    expect((await fetch(`${s3}/${process.env.DOCUMENTS_BUCKET}?list-type=2`)).status).toBe(403);
    expect((await fetch(`${s3}/${process.env.DOCUMENTS_BUCKET}/uploads/x.pdf`, { method: 'PUT', body: 'x' })).status).toBe(403);
    const asked = await api.get(`/upload/document?company_id=${companyId}&original_file_name=a.pdf&size=5`);
    expect(asked.status).toBe(200);
    const upload = asked.body as { uploadURL: string; key: string; headers: Record<string, string> };
    // The URL edited to another key (another company's folder, an existing file) no longer matches its signature.
    const edited = upload.uploadURL.replace(upload.key, upload.key.replace(/[^/]+$/, 'elsewhere.pdf'));
    const refused = await fetch(edited, { method: 'PUT', headers: upload.headers, body: '%PDF-' });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('SignatureDoesNotMatch');
    // An expired URL is refused; the URL as given works.
    const url = new URL(upload.uploadURL);
    const expired = new URL(url);
    expired.searchParams.set('X-Amz-Date', '20200101T000000Z');
    expect((await fetch(expired, { method: 'PUT', headers: upload.headers, body: '%PDF-' })).status).toBe(403);
    expect((await fetch(upload.uploadURL, { method: 'PUT', headers: upload.headers, body: '%PDF-' })).status).toBe(200);
  });
});
