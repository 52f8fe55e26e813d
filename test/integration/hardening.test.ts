import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
});
