import { describe, expect, it, vi } from 'vitest';
import { buildUrl, createApiClient } from '../../../web/src/lib/api-client';
import { ApiError, NETWORK_ERROR_MESSAGE, RESULT_UNKNOWN_MESSAGE } from '../../../web/src/lib/api-error';

describe('buildUrl', () => {
  it('joins the base and the path with one slash', () => {
    expect(buildUrl('https://api.example.com/prod/', '/companies', { companyScoped: false })).toBe(
      'https://api.example.com/prod/companies',
    );
    expect(buildUrl('https://api.example.com', 'user', { companyScoped: false })).toBe('https://api.example.com/user');
  });

  it('appends the active company_id to company-scoped calls', () => {
    expect(buildUrl('https://api', '/receipts', { companyId: 'c1', query: { limit: 50 } })).toBe(
      'https://api/receipts?limit=50&company_id=c1',
    );
  });

  it('scopes calls by default', () => {
    expect(buildUrl('https://api', '/categories', { companyId: 'c1' })).toBe('https://api/categories?company_id=c1');
  });

  it('does not append company_id when opted out', () => {
    expect(buildUrl('https://api', '/companies', { companyId: 'c1', companyScoped: false })).toBe('https://api/companies');
  });

  it('never overrides an explicit company_id, in the query or in the path', () => {
    expect(buildUrl('https://api', '/company', { companyId: 'c1', query: { company_id: 'c2' } })).toBe(
      'https://api/company?company_id=c2',
    );
    expect(buildUrl('https://api', '/edit?company_id=c3', { companyId: 'c1' })).toBe('https://api/edit?company_id=c3');
  });

  it('skips null and undefined values, repeats arrays, stringifies booleans, encodes values', () => {
    const url = buildUrl('https://api', '/receipts', {
      companyId: null,
      query: { a: undefined, b: null, ids: ['x', 'y'], dup: true, search_value: 'a&b c' },
    });
    expect(url).toBe('https://api/receipts?ids=x&ids=y&dup=true&search_value=a%26b+c');
  });

  it('works with a relative API base', () => {
    expect(buildUrl('/api', '/user', { companyScoped: false })).toBe('/api/user');
  });
});

function jsonResponse(status: number, body: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

function setup(responder: (url: string, init: RequestInit) => Response | Promise<Response>, companyId: string | null = 'c1') {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const onUnauthorized = vi.fn();
  const getAccessToken = vi.fn(async () => 'token-1' as string | undefined);
  const client = createApiClient({
    apiUrl: 'https://api.test',
    getAccessToken,
    getCompanyId: () => companyId,
    onUnauthorized,
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      calls.push({ url: String(input), init: init ?? {} });
      return responder(String(input), init ?? {});
    }) as typeof fetch,
  });
  return { client, calls, onUnauthorized, getAccessToken };
}

describe('createApiClient', () => {
  it('sends the bearer token and the active company, and returns the JSON body', async () => {
    const { client, calls } = setup(() => jsonResponse(200, { items: [1] }));
    const result = await client.get<{ items: number[] }>('/receipts', { query: { limit: 50 } });
    expect(result).toEqual({ items: [1] });
    expect(calls[0]?.url).toBe('https://api.test/receipts?limit=50&company_id=c1');
    expect((calls[0]?.init.headers as Record<string, string>).Authorization).toBe('Bearer token-1');
    expect(calls[0]?.init.method).toBe('GET');
  });

  it('serialises a JSON body for POST', async () => {
    const { client, calls } = setup(() => jsonResponse(200, { ok: true }));
    await client.post('/company', { company_name: 'A', code: 'B' }, { companyScoped: false });
    expect(calls[0]?.url).toBe('https://api.test/company');
    expect(calls[0]?.init.body).toBe('{"company_name":"A","code":"B"}');
    expect((calls[0]?.init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });

  it('sends neither token nor company_id on public calls', async () => {
    const { client, calls, getAccessToken } = setup(() => jsonResponse(200, { id: 'i1' }));
    await client.get('/invitation/tok', { auth: false });
    expect(calls[0]?.url).toBe('https://api.test/invitation/tok');
    expect((calls[0]?.init.headers as Record<string, string>).Authorization).toBeUndefined();
    expect(getAccessToken).not.toHaveBeenCalled();
  });

  it('turns an error body into an ApiError with field errors', async () => {
    const { client } = setup(() =>
      jsonResponse(422, {
        statusCode: 422,
        error: 'ValidationFailed',
        message: 'Validation failed',
        details: [{ path: ['company_name'], message: 'Required field' }],
      }),
    );
    const err = await client.post('/company', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(422);
    expect((err as ApiError).fieldErrors).toEqual({ company_name: 'Required field' });
  });

  it('a write whose answer is the gateway timeout is of unknown result; a read of the same answer is a plain failure', async () => {
    const { client } = setup(() => jsonResponse(504, { message: 'Endpoint request timed out' }));
    const write = (await client.post('/receipts/bulk', { action: 'status' }).catch((e: unknown) => e)) as ApiError;
    expect(write.isResultUnknown).toBe(true);
    expect(write.message).toBe(RESULT_UNKNOWN_MESSAGE);
    const read = (await client.get('/receipts').catch((e: unknown) => e)) as ApiError;
    expect(read.isResultUnknown).toBe(false);
    expect(read.message).toBe('Something went wrong');
  });

  it('reports a 401 once and throws', async () => {
    const { client, onUnauthorized } = setup(() =>
      jsonResponse(401, { statusCode: 401, error: 'Unauthorized', message: 'Unauthorized' }),
    );
    const err = await client.get('/companies', { companyScoped: false }).catch((e: unknown) => e);
    expect((err as ApiError).isUnauthorized).toBe(true);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('treats a missing session token as an expired session without calling the API', async () => {
    const { client, calls, onUnauthorized, getAccessToken } = setup(() => jsonResponse(200, {}));
    getAccessToken.mockResolvedValueOnce(undefined);
    const err = await client.get('/user').catch((e: unknown) => e);
    expect((err as ApiError).status).toBe(401);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(calls).toHaveLength(0);
  });

  it('a token renewal that cannot reach the server is a network error, not an expired session', async () => {
    const { client, calls, onUnauthorized, getAccessToken } = setup(() => jsonResponse(200, {}));
    getAccessToken.mockRejectedValueOnce(Object.assign(new Error('A network error has occurred.'), { name: 'NetworkError' }));
    const err = await client.put('/receipts/r1/content', { version: 1 }).catch((e: unknown) => e);
    expect((err as ApiError).isNetwork).toBe(true);
    expect((err as ApiError).message).toBe(NETWORK_ERROR_MESSAGE);
    expect(onUnauthorized).not.toHaveBeenCalled();
    expect(calls).toHaveLength(0);
    // Back online the next call renews and goes through
    expect(await client.get('/user')).toEqual({});
  });

  it('a renewal that meets a passing service error keeps the session; a refused refresh token ends it', async () => {
    const { client, onUnauthorized, getAccessToken } = setup(() => jsonResponse(200, {}));
    getAccessToken.mockRejectedValueOnce(Object.assign(new Error('Rate exceeded'), { name: 'TooManyRequestsException' }));
    const busy = await client.get('/user').catch((e: unknown) => e);
    expect((busy as ApiError).status).toBe(503);
    expect(onUnauthorized).not.toHaveBeenCalled();
    getAccessToken.mockRejectedValueOnce(Object.assign(new Error('Refresh Token has been revoked'), { name: 'NotAuthorizedException' }));
    const over = await client.get('/user').catch((e: unknown) => e);
    expect((over as ApiError).status).toBe(401);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('maps a fetch failure to the network error', async () => {
    const { client, onUnauthorized } = setup(() => {
      throw new TypeError('Failed to fetch');
    });
    const err = await client.get('/user').catch((e: unknown) => e);
    expect((err as ApiError).isNetwork).toBe(true);
    expect((err as ApiError).message).toBe(NETWORK_ERROR_MESSAGE);
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('returns undefined for an empty success body', async () => {
    const { client } = setup(() => new Response(null, { status: 204 }));
    await expect(client.del('/company', { query: { company_id: 'c2' } })).resolves.toBeUndefined();
  });

  it('uses the company active at call time', async () => {
    let active: string | null = 'c1';
    const calls: string[] = [];
    const client = createApiClient({
      apiUrl: 'https://api.test',
      getAccessToken: async () => 't',
      getCompanyId: () => active,
      onUnauthorized: () => undefined,
      fetch: (async (input: RequestInfo | URL) => {
        calls.push(String(input));
        return jsonResponse(200, {});
      }) as typeof fetch,
    });
    await client.get('/items');
    active = 'c2';
    await client.get('/items');
    expect(calls).toEqual(['https://api.test/items?company_id=c1', 'https://api.test/items?company_id=c2']);
  });
});
