import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { HandlerContract } from '../../../lambdas/runtime/http-handler';
import { buildOpenApiDocument, operationIdOf, pathParamsOf, toSchema } from '../../../scripts/openapi/document';
import type { RouteDef } from '../../../shared/routes';

const routes: RouteDef[] = [
  { method: 'GET', path: '/things/{id}', handler: 'http/things/get-thing', auth: 'user' },
  { method: 'POST', path: '/thing', handler: 'http/things/post-thing', auth: 'company-admin' },
  { method: 'GET', path: '/invitation/{token}', handler: 'http/invitation/get-invitation', auth: 'public' },
];

const contracts = new Map<string, HandlerContract>([
  [
    'GET /things/{id}',
    {
      path: z.object({ id: z.string().min(1).max(64) }),
      query: z.object({ company_id: z.string().optional(), limit: z.coerce.number().int().default(50), flag: z.string().optional().transform((v) => v === 'true') }),
      successStatus: 200,
      response: { schema: z.object({ id: z.string(), name: z.string() }) },
    },
  ],
  ['POST /thing', { body: z.object({ name: z.string().max(10) }).strict(), successStatus: 201 }],
  ['GET /invitation/{token}', { path: z.object({ token: z.string() }), successStatus: 200 }],
]);

describe('OpenAPI document builder', () => {
  it('names operations and path parameters from the route', () => {
    // Prepare / Act / Assess
    expect(operationIdOf({ method: 'GET', path: '/receipts/{id}/content/{line}' })).toBe('getReceiptsIdContentLine');
    expect(pathParamsOf('/receipts/{id}/content/{line}')).toEqual(['id', 'line']);
  });

  it('turns path, query and body schemas into parameters and a request body', () => {
    const doc = buildOpenApiDocument(routes, contracts, { serverUrl: 'https://api.example.com' });
    const get = doc.paths['/things/{id}']!.get!;
    expect(get.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string', minLength: 1, maxLength: 64 } },
      { name: 'company_id', in: 'query', required: false, description: expect.stringContaining('member'), schema: { type: 'string' } },
      { name: 'limit', in: 'query', required: false, schema: expect.objectContaining({ default: 50 }) },
      { name: 'flag', in: 'query', required: false, schema: { type: 'string' } },
    ]);
    expect(get.responses['200']!.content!['application/json']!.schema).toMatchObject({ type: 'object', required: ['id', 'name'] });
    expect(Object.keys(get.responses)).toEqual(['200', '400', '401', '403', '404', '422', '500']);
    const post = doc.paths['/thing']!.post!;
    expect(post.requestBody).toEqual({
      required: true,
      content: { 'application/json': { schema: expect.objectContaining({ type: 'object', additionalProperties: false, required: ['name'] }) } },
    });
    // company-admin routes need the company: company_id is added and required even when no schema names it.
    expect(post.parameters).toEqual([expect.objectContaining({ name: 'company_id', in: 'query', required: true })]);
    expect(Object.keys(post.responses)).toEqual(['201', '400', '401', '403', '404', '409', '422', '500']);
    expect(post.security).toEqual([{ cognito: [] }]);
  });

  it('leaves sign-in and company out of public routes', () => {
    const doc = buildOpenApiDocument(routes, contracts, { serverUrl: '/api' });
    const op = doc.paths['/invitation/{token}']!.get!;
    expect(op.security).toEqual([]);
    expect(op.parameters.map((p) => p.name)).toEqual(['token']);
    expect(op.responses['401']).toBeUndefined();
    expect(doc.servers).toEqual([{ url: '/api' }]);
  });

  it('refuses a route whose handler declares no contract', () => {
    expect(() => buildOpenApiDocument([...routes, { method: 'GET', path: '/x', handler: 'http/x', auth: 'user' }], contracts, { serverUrl: '/api' })).toThrow(
      /GET \/x .*declares no contract/,
    );
  });

  it('moves the $defs of recursive schemas to components, with their references rewritten', () => {
    interface Node {
      name: string;
      children: Node[];
    }
    const node: z.ZodType<Node> = z.lazy(() => z.object({ name: z.string(), children: z.array(node) }));
    const components: Record<string, Record<string, unknown>> = {};
    const schema = toSchema(z.object({ root: node }), 'output', 'op_response', components);
    const text = JSON.stringify({ schema, components });
    expect(text).not.toContain('#/$defs/');
    const refs = [...text.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(0);
    for (const name of refs) expect(components[name], name).toBeDefined();
    expect(schema.$schema).toBeUndefined();
  });
});
