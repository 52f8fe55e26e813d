import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import type { HandlerContract } from '../../lambdas/runtime/http-handler';
import { loadContracts } from '../../scripts/openapi/load';
import type { OpenApiDocument } from '../../scripts/openapi/document';
import { routeKey, routes } from '../../shared/routes';
import { companiesResponseSchema } from '../../shared/schemas/company';
import { schemaResponseSchema } from '../../shared/schemas/content';
import { detailsResponseSchema, listReceiptsResponseSchema, totalDocumentsResponseSchema, uploadDocumentResponseSchema } from '../../shared/schemas/receipts';
import { registeredUser, startTestStack, type TestStack } from '../support/local-stack';

type Method = 'get' | 'post' | 'put' | 'delete';

/** The keys of an object schema's input (query parameters arrive as an object). */
function keysOf(schema: ZodType | undefined): string[] {
  const shape = (schema as unknown as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}

describe('OpenAPI document at GET /api/openapi.json (local mode)', () => {
  let t: TestStack;
  let doc: OpenApiDocument;
  let contracts: Map<string, HandlerContract>;

  beforeAll(async () => {
    t = await startTestStack();
    const res = await fetch(`${t.stack.url}/api/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    doc = (await res.json()) as OpenApiDocument;
    contracts = await loadContracts();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('is OpenAPI 3.1 with JSON Schema 2020-12, served without sign-in, with the local API as server', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(doc.servers).toEqual([{ url: t.stack.apiUrl }]);
    expect(doc.components.securitySchemes.cognito).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    expect(doc.components.schemas.Error).toMatchObject({ required: ['statusCode', 'error', 'message'] });
  });

  it('lists every route of shared/routes.ts, and nothing else', () => {
    const listed = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
    expect(listed.sort()).toEqual(routes.map(routeKey).sort());
    const operationIds = listed.map((key) => {
      const [method, p] = key.split(' ') as [string, string];
      return doc.paths[p]![method.toLowerCase() as Method]!.operationId;
    });
    expect(new Set(operationIds).size).toBe(routes.length);
  });

  it("gives every route its path and query parameters, body, auth and responses from its handler's schemas", () => {
    for (const route of routes) {
      const key = routeKey(route);
      const op = doc.paths[route.path]![route.method.toLowerCase() as Method]!;
      const contract = contracts.get(key)!;
      expect(contract, key).toBeDefined();
      const pathParams = op.parameters.filter((p) => p.in === 'path').map((p) => p.name);
      expect(pathParams, key).toEqual([...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]));
      expect(op.parameters.filter((p) => p.in === 'path').every((p) => p.required), key).toBe(true);
      const queryParams = op.parameters.filter((p) => p.in === 'query').map((p) => p.name);
      for (const name of keysOf(contract.query)) expect(queryParams, `${key} ?${name}`).toContain(name);
      if (route.auth !== 'public') expect(queryParams, key).toContain('company_id');
      expect(op['x-auth-level'], key).toBe(route.auth);
      expect(op.security, key).toEqual(route.auth === 'public' ? [] : [{ cognito: [] }]);
      expect(op.requestBody !== undefined, key).toBe(contract.body !== undefined);
      if (contract.body) {
        const body = op.requestBody!.content['application/json']!.schema;
        expect(['type', 'oneOf', 'anyOf', 'allOf'].some((k) => k in body), key).toBe(true);
      }
      const success = op.responses[String(contract.successStatus)];
      expect(success?.content, key).toBeDefined();
      expect(op.responses['400'], key).toEqual({ $ref: '#/components/responses/BadRequest' });
      expect(op.responses['500'], key).toEqual({ $ref: '#/components/responses/InternalError' });
      if (route.auth !== 'public') {
        expect(op.responses['401'], key).toEqual({ $ref: '#/components/responses/Unauthorized' });
        expect(op.responses['403'], key).toEqual({ $ref: '#/components/responses/Forbidden' });
      }
      if (contract.body || contract.query || contract.path) expect(op.responses['422'], key).toBeDefined();
    }
  });

  it('resolves every $ref of the document', () => {
    const text = JSON.stringify(doc);
    const refs = [...text.matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of new Set(refs)) {
      expect(ref.startsWith('#/components/'), ref).toBe(true);
      const target = ref
        .slice(2)
        .split('/')
        .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], doc);
      expect(target, ref).toBeDefined();
    }
  });

  it('documents the answers the handlers really give where a response schema is declared', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'openapi');
    const op = (p: string, m: Method = 'get') => doc.paths[p]![m]!;
    expect(op('/receipts').responses['200']!.content!['application/json']!.schema).toMatchObject({
      type: 'object',
      properties: { items: { type: 'array' }, next: expect.anything() },
    });
    const checks: [string, ZodType][] = [
      ['/companies', companiesResponseSchema],
      [`/receipts?company_id=${companyId}`, listReceiptsResponseSchema],
      [`/receipts/total-documents?company_id=${companyId}`, totalDocumentsResponseSchema],
      [`/schemas?company_id=${companyId}`, schemaResponseSchema],
      [`/upload/document?company_id=${companyId}&original_file_name=a.pdf&content_type=application/pdf&size=10`, uploadDocumentResponseSchema],
    ];
    for (const [p, schema] of checks) {
      const res = await api.get(p);
      expect(res.status, p).toBe(200);
      const parsed = schema.safeParse(res.body);
      expect(parsed.success, `${p}: ${JSON.stringify(parsed.error?.issues.slice(0, 3))}`).toBe(true);
    }
    expect(Object.keys(op('/receipts/export-xml', 'post').responses['200']!.content!)).toEqual(['application/xml']);
    // POST /receipts/details: the documents found, the ids not found, the ids to ask for again.
    expect(op('/receipts/details', 'post').responses['200']!.content!['application/json']!.schema).toMatchObject({
      type: 'object',
      properties: { items: { type: 'array' }, not_found: { type: 'array' }, remaining: { type: 'array' } },
    });
    const details = await api.post(`/receipts/details?company_id=${companyId}`, { receipt_ids: ['01MISSINGDOCUMENT000000000'] });
    expect(details.status).toBe(200);
    expect(detailsResponseSchema.safeParse(details.body).success).toBe(true);
  });

  it('answers only GET; other methods on the path are the API gateway\'s 404', async () => {
    const res = await fetch(`${t.stack.url}/api/openapi.json`, { method: 'POST' });
    expect(res.status).toBe(404);
  });
});
