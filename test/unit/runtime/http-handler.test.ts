import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../../../shared/errors';
import { resetDdbClient } from '../../../lambdas/adapters/ddb/client';
import { resetEnvCache } from '../../../lambdas/runtime/env';
import { httpHandler, type HttpEvent } from '../../../lambdas/runtime/http-handler';

const ddbMock = mockClient(DynamoDBDocumentClient);

function event(partial: { body?: string; query?: Record<string, string>; sub?: string; routeKey?: string }): HttpEvent {
  return {
    version: '2.0',
    routeKey: partial.routeKey ?? 'POST /company',
    rawPath: '/company',
    rawQueryString: '',
    headers: {},
    queryStringParameters: partial.query,
    body: partial.body,
    isBase64Encoded: false,
    requestContext: {
      requestId: 'req-1',
      authorizer: partial.sub ? { jwt: { claims: { sub: partial.sub }, scopes: [] } } : undefined,
    },
  } as unknown as HttpEvent;
}

const parse = (r: { body?: string }) => JSON.parse(r.body ?? '{}');

describe('httpHandler', () => {
  beforeEach(() => {
    process.env.TABLE_NAME = 'unit-table';
    process.env.LOG_LEVEL = 'error';
    resetEnvCache();
    resetDdbClient();
    ddbMock.reset();
  });
  afterEach(() => ddbMock.reset());

  const create = httpHandler({
    route: 'POST /company',
    body: z.object({ company_name: z.string().min(1, 'Required field') }),
    async run({ body, caller }) {
      if (body.company_name === 'boom') throw new Error('database on fire');
      if (body.company_name === 'taken') throw new AppError('Conflict', 'This company already exists');
      if (body.company_name === 'race') throw Object.assign(new Error('x'), { name: 'ConditionalCheckFailedException' });
      return { name: body.company_name, by: caller?.userId };
    },
  });
  const adminOnly = httpHandler({ route: 'DELETE /company', async run({ caller }) { return { role: caller?.role }; } });

  it.each([
    ['no token', event({ body: '{"company_name":"A"}' }), 401, 'Not signed in'],
    ['malformed JSON', event({ body: '{"company_name":', sub: 'u1' }), 400, 'Malformed JSON body'],
    ['thrown AppError', event({ body: '{"company_name":"taken"}', sub: 'u1' }), 409, 'This company already exists'],
    ['conditional write failure', event({ body: '{"company_name":"race"}', sub: 'u1' }), 409, 'The item was changed by someone else'],
    ['unexpected error', event({ body: '{"company_name":"boom"}', sub: 'u1' }), 500, 'Something went wrong'],
  ])('maps %s to the one error shape', async (_name, e, status, message) => {
    const res = await create(e);
    expect(res.statusCode).toBe(status);
    expect(parse(res)).toMatchObject({ statusCode: status, message });
    expect(parse(res).details).toBeUndefined();
  });

  it('returns zod issues with path and the literal message as 422', async () => {
    const res = await create(event({ body: '{"company_name":""}', sub: 'u1' }));
    expect(res.statusCode).toBe(422);
    expect(parse(res)).toEqual({
      statusCode: 422,
      error: 'ValidationFailed',
      message: 'Invalid body',
      details: [{ path: ['company_name'], message: 'Required field' }],
    });
  });

  it('passes the caller to the core function and answers with the success status', async () => {
    const res = await create(event({ body: '{"company_name":"Acme"}', sub: 'u1' }));
    expect(res.statusCode).toBe(200);
    expect(parse(res)).toEqual({ name: 'Acme', by: 'u1' });
    expect(res.headers).toMatchObject({ 'content-type': 'application/json', 'x-request-id': 'req-1' });
  });

  it('refuses a company the caller is not a member of with 403', async () => {
    ddbMock.on(GetCommand).resolves({});
    const res = await adminOnly(event({ routeKey: 'DELETE /company', query: { company_id: 'c1' }, sub: 'u1' }));
    expect(res.statusCode).toBe(403);
    expect(ddbMock.commandCalls(GetCommand)[0]!.args[0].input.Key).toEqual({ pk: 'USER#u1', sk: 'MEMBER#c1' });
  });

  it('refuses a basic member on a company-admin route and lets an admin through', async () => {
    ddbMock.on(GetCommand).resolvesOnce({ Item: { user_id: 'u1', company_id: 'c1', role: 'basic' } });
    const basic = await adminOnly(event({ routeKey: 'DELETE /company', query: { company_id: 'c1' }, sub: 'u1' }));
    expect(basic.statusCode).toBe(403);
    expect(parse(basic).message).toBe('Only a company administrator can do this');

    ddbMock.reset();
    ddbMock.on(GetCommand).resolves({ Item: { user_id: 'u1', company_id: 'c1', role: 'admin' } });
    const admin = await adminOnly(event({ routeKey: 'DELETE /company', query: { company_id: 'c1' }, sub: 'u1' }));
    expect(admin.statusCode).toBe(200);
    expect(parse(admin)).toEqual({ role: 'admin' });
  });

  it('answers a basic member on a company-admin route 403 before looking at the body', async () => {
    const update = httpHandler({ route: 'PUT /company', body: z.object({ name: z.string().min(1, 'Required field') }), async run() { return {}; } });
    ddbMock.on(GetCommand).resolves({ Item: { user_id: 'u1', company_id: 'c1', role: 'basic' } });
    for (const body of ['{"name":""}', '{"name":', '{}']) {
      const res = await update(event({ routeKey: 'PUT /company', query: { company_id: 'c1' }, sub: 'u1', body }));
      expect(res.statusCode, body).toBe(403);
      expect(parse(res)).toMatchObject({ message: 'Only a company administrator can do this' });
      expect(parse(res).details).toBeUndefined();
    }
    ddbMock.reset();
    ddbMock.on(GetCommand).resolves({ Item: { user_id: 'u1', company_id: 'c1', role: 'admin' } });
    expect((await update(event({ routeKey: 'PUT /company', query: { company_id: 'c1' }, sub: 'u1', body: '{"name":""}' }))).statusCode).toBe(422);
  });

  it('refuses to build a handler for a route missing from the route table', () => {
    expect(() => httpHandler({ route: 'GET /nowhere', run: async () => ({}) })).toThrow(/not in shared\/routes.ts/);
  });
});
