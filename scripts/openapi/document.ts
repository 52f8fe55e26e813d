/**
 * OpenAPI 3.1 of the HTTP API, built from the route table (shared/routes.ts) and the zod schemas each handler
 * declares to httpHandler (its `contract`: path, query, body, success status and answer). Zod 4 converts the
 * schemas to JSON Schema 2020-12, the dialect of OpenAPI 3.1. Nothing here is written by hand per route:
 * a route added to the table with its handler appears in the document.
 */
import { z, type ZodType } from 'zod';
import type { AuthLevel, RouteDef } from '../../shared/routes';
import type { HandlerContract } from '../../lambdas/runtime/http-handler';

type JsonSchema = Record<string, unknown>;

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  tags: string[];
  security: Record<string, string[]>[];
  parameters: OpenApiParameter[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: JsonSchema }> }>;
  'x-auth-level': AuthLevel;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  jsonSchemaDialect: string;
  servers: { url: string; description?: string }[];
  paths: Record<string, Partial<Record<'get' | 'post' | 'put' | 'delete', OpenApiOperation>>>;
  components: {
    securitySchemes: Record<string, unknown>;
    schemas: Record<string, JsonSchema>;
    responses: Record<string, { description: string; content: Record<string, { schema: JsonSchema }> }>;
  };
}

/** The one error shape of every failure (shared/errors.ts ApiErrorBody). */
const errorSchema: JsonSchema = {
  type: 'object',
  required: ['statusCode', 'error', 'message'],
  properties: {
    statusCode: { type: 'integer' },
    error: { type: 'string', enum: ['BadRequest', 'Unauthorized', 'Forbidden', 'NotFound', 'Conflict', 'ValidationFailed', 'QuotaExceeded', 'InternalError'] },
    message: { type: 'string' },
    details: { description: 'Validation issues ({path, message}[]) or other details of the failure' },
  },
};

const ERROR_RESPONSES: Record<string, string> = {
  BadRequest: 'Malformed JSON or parameters (400)',
  Unauthorized: 'Not signed in or the token is not valid (401)',
  Forbidden: 'Not a member of the company, or the role is too low (403)',
  NotFound: 'Not found; also for an object of another company (404)',
  Conflict: 'Changed by someone else (stale version) or not allowed in its current state (409)',
  ValidationFailed: 'Input failed validation; details lists the issues (422)',
  InternalError: 'Something went wrong (500)',
};

const COMPANY_ID_DESCRIPTION =
  'The company the call is about; the caller must be a member (403 otherwise). `NONE` where the route accepts unassigned documents.';

/** 'GET /receipts/{id}/content' → 'getReceiptsIdContent'. */
export function operationIdOf(route: Pick<RouteDef, 'method' | 'path'>): string {
  const words = [route.method.toLowerCase(), ...route.path.split(/[^A-Za-z0-9]+/).filter(Boolean)];
  return words.map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join('');
}

export function pathParamsOf(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
}

/**
 * A zod schema as a JSON Schema usable inside the OpenAPI document: `$defs` (recursive or reused parts) are
 * moved to components.schemas under a prefix, with their `$ref`s rewritten, because a `#/$defs/…` reference
 * inside an OpenAPI document would resolve against the document's root.
 */
export function toSchema(schema: ZodType, io: 'input' | 'output', prefix: string, components: Record<string, JsonSchema>): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete json.$schema;
  const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
  delete json.$defs;
  const names = new Map(Object.keys(defs).map((name) => [name, `${prefix}_${name}`.replace(/[^A-Za-z0-9._-]/g, '_')]));
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        if (k === '$ref' && typeof v === 'string') {
          if (v === '#') out[k] = `#/components/schemas/${prefix}`;
          else if (v.startsWith('#/$defs/')) out[k] = `#/components/schemas/${names.get(v.slice('#/$defs/'.length)) ?? v}`;
          else out[k] = v;
        } else {
          out[k] = rewrite(v);
        }
      }
      return out;
    }
    return value;
  };
  for (const [name, def] of Object.entries(defs)) components[names.get(name)!] = rewrite(def) as JsonSchema;
  const result = rewrite(json) as JsonSchema;
  // A schema that refers to itself (`#`) is kept whole under its prefix too.
  if (JSON.stringify(result).includes(`"#/components/schemas/${prefix}"`)) components[prefix] = result;
  return result;
}

function parametersOf(
  route: RouteDef,
  contract: HandlerContract | undefined,
  prefix: string,
  components: Record<string, JsonSchema>,
): OpenApiParameter[] {
  const params: OpenApiParameter[] = [];
  const pathSchema = contract?.path ? toSchema(contract.path, 'input', `${prefix}_path`, components) : undefined;
  const pathProps = (pathSchema?.properties ?? {}) as Record<string, JsonSchema>;
  for (const name of pathParamsOf(route.path)) {
    params.push({ name, in: 'path', required: true, schema: pathProps[name] ?? { type: 'string' } });
  }
  const querySchema = contract?.query ? toSchema(contract.query, 'input', `${prefix}_query`, components) : undefined;
  const queryProps = (querySchema?.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((querySchema?.required ?? []) as string[]);
  for (const [name, schema] of Object.entries(queryProps)) {
    const { description, ...rest } = schema as { description?: string } & JsonSchema;
    params.push({
      name,
      in: 'query',
      required: required.has(name),
      ...(description ? { description } : name === 'company_id' ? { description: COMPANY_ID_DESCRIPTION } : {}),
      schema: rest,
    });
  }
  // Every signed-in route reads company_id (runtime/caller.ts), declared by its schema or not.
  if (route.auth !== 'public' && !queryProps.company_id) {
    params.push({
      name: 'company_id',
      in: 'query',
      required: route.auth === 'company-admin',
      description: COMPANY_ID_DESCRIPTION,
      schema: { type: 'string', maxLength: 128 },
    });
  }
  return params;
}

function errorRef(kind: string) {
  return { $ref: `#/components/responses/${kind}` } as unknown as { description: string };
}

function responsesOf(route: RouteDef, contract: HandlerContract | undefined, prefix: string, components: Record<string, JsonSchema>): OpenApiOperation['responses'] {
  const success = String(contract?.successStatus ?? 200);
  const doc = contract?.response;
  const contentType = doc?.contentType ?? 'application/json';
  const schema: JsonSchema = doc?.schema
    ? toSchema(doc.schema, 'output', `${prefix}_response`, components)
    : contentType === 'application/json'
      ? { description: 'The answer (JSON)' }
      : { type: 'string' };
  const responses: OpenApiOperation['responses'] = {
    [success]: { description: doc?.description ?? (success === '201' ? 'Created' : 'OK'), content: { [contentType]: { schema } } },
  };
  responses['400'] = errorRef('BadRequest');
  if (route.auth !== 'public') {
    responses['401'] = errorRef('Unauthorized');
    responses['403'] = errorRef('Forbidden');
  }
  if (pathParamsOf(route.path).length > 0 || route.method !== 'GET') responses['404'] = errorRef('NotFound');
  if (route.method !== 'GET') responses['409'] = errorRef('Conflict');
  if (contract?.body || contract?.query || contract?.path) responses['422'] = errorRef('ValidationFailed');
  responses['500'] = errorRef('InternalError');
  return responses;
}

export interface DocumentOptions {
  /** The API's base URL (local mode: http://host:port/api; AWS: the HTTP API's endpoint). */
  serverUrl: string;
  version?: string;
}

/**
 * The document for every route of `routes`; `contracts` maps a route key ('GET /companies') to what its handler
 * declares. A route without a contract is a build error: the document must not silently omit an input.
 */
export function buildOpenApiDocument(routes: readonly RouteDef[], contracts: ReadonlyMap<string, HandlerContract>, options: DocumentOptions): OpenApiDocument {
  const schemas: Record<string, JsonSchema> = { Error: errorSchema };
  const paths: OpenApiDocument['paths'] = {};
  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    const contract = contracts.get(key);
    if (!contract) throw new Error(`OpenAPI: the handler of ${key} (lambdas/${route.handler}.ts) declares no contract (use httpHandler)`);
    const operationId = operationIdOf(route);
    const operation: OpenApiOperation = {
      operationId,
      summary: key,
      tags: [route.path.split('/').filter(Boolean)[0] ?? 'root'],
      security: route.auth === 'public' ? [] : [{ cognito: [] }],
      parameters: parametersOf(route, contract, operationId, schemas),
      ...(contract.body
        ? { requestBody: { required: true, content: { 'application/json': { schema: toSchema(contract.body, 'input', `${operationId}_body`, schemas) } } } }
        : {}),
      responses: responsesOf(route, contract, operationId, schemas),
      'x-auth-level': route.auth,
    };
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    (paths[route.path] ??= {})[method] = operation;
  }
  const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Receipts API',
      version: options.version ?? '0.1.0',
      description:
        'The HTTP API of Receipts, generated from shared/routes.ts and the handlers\' zod schemas. Signed-in routes take a ' +
        'Cognito access token (Authorization: Bearer …); company-scoped routes take company_id. Every failure answers ' +
        'the one error shape (components.schemas.Error).',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: options.serverUrl }],
    paths,
    components: {
      securitySchemes: {
        cognito: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Cognito user pool access token' },
      },
      schemas,
      responses: Object.fromEntries(Object.entries(ERROR_RESPONSES).map(([kind, description]) => [kind, { description, content: errorContent }])),
    },
  };
}
