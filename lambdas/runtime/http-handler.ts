import type { APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { ZodError, type ZodType } from 'zod';
import { AppError } from '../../shared/errors';
import { isTransactionConflict } from '../adapters/ddb/transaction-retry';
import { routes, type AuthLevel, type RouteDef } from '../../shared/routes';
import { DEFAULT_NEEDS } from '../../shared/needs';
import { resolveCaller, type Caller, type Claims } from './caller';
import { deps, type Deps } from './deps';
import { env } from './env';
import { createLogger, type Logger } from './logger';
import { fitResponse, LAMBDA_RESPONSE_MAX_BYTES } from './response-size';

export type HttpEvent = APIGatewayProxyEventV2WithJWTAuthorizer;
export type HttpResult = APIGatewayProxyStructuredResultV2;

export interface HandlerContext<B, Q, P> {
  body: B;
  query: Q;
  path: P;
  caller: Caller | undefined;
  deps: Deps;
  log: Logger;
  requestId: string;
}

/** A handler may answer with a plain value (200 JSON) or a full response (status, headers, raw body). */
export interface RawResponse {
  raw: true;
  statusCode: number;
  headers?: Record<string, string>;
  body: string;
}

/** OpenAPI: what a handler answers on success, when more is known than "a JSON value" (documentation only). */
export interface ResponseDoc {
  /** The JSON body's shape (a zod schema of shared/schemas). */
  schema?: ZodType;
  /** The media type of a raw answer (e.g. application/xml); default application/json. */
  contentType?: string;
  description?: string;
}

/** The inputs and answer a handler declares: read by the OpenAPI generator (scripts/openapi). */
export interface HandlerContract {
  body?: ZodType;
  query?: ZodType;
  path?: ZodType;
  successStatus: number;
  response?: ResponseDoc;
}

interface HandlerDefinition<B, Q, P> {
  /** The route-table key, e.g. 'GET /companies': the auth level comes from the table. */
  route: string;
  body?: ZodType<B>;
  query?: ZodType<Q>;
  path?: ZodType<P>;
  successStatus?: number;
  /** OpenAPI: the success answer (the handler's return value is not checked against it). */
  response?: ResponseDoc;
  run(ctx: HandlerContext<B, Q, P>): Promise<unknown>;
}

function routeOf(routeKey: string): RouteDef {
  const found = routes.find((r) => `${r.method} ${r.path}` === routeKey);
  if (!found) throw new Error(`Route ${routeKey} is not in shared/routes.ts`);
  return found;
}

function json(statusCode: number, body: unknown, requestId: string): HttpResult {
  return {
    statusCode,
    headers: { 'content-type': 'application/json', 'x-request-id': requestId },
    body: JSON.stringify(body),
  };
}

function zodDetails(error: ZodError) {
  return error.issues.map((issue) => ({ path: issue.path.map(String), message: issue.message }));
}

function parseBody(event: HttpEvent): unknown {
  if (!event.body) return {};
  const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('BadRequest', 'Malformed JSON body');
  }
}

function validate<T>(schema: ZodType<T> | undefined, value: unknown, where: string): T {
  if (!schema) return value as T;
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new AppError('ValidationFailed', `Invalid ${where}`, zodDetails(result.error));
  }
  return result.data;
}

/** Bounds every request parameter before any schema or store sees it (no id can overflow a table key). */
export const PARAMETER_LIMITS = { companyId: 128, path: 256, query: 2048 } as const;

function checkParameterLengths(event: HttpEvent): void {
  const companyId = event.queryStringParameters?.company_id;
  if (companyId !== undefined && companyId.length > PARAMETER_LIMITS.companyId) {
    throw new AppError('BadRequest', 'Invalid company_id');
  }
  for (const [name, value] of Object.entries(event.pathParameters ?? {})) {
    if ((value ?? '').length > PARAMETER_LIMITS.path) throw new AppError('BadRequest', `Invalid ${name}`);
  }
  for (const [name, value] of Object.entries(event.queryStringParameters ?? {})) {
    if ((value ?? '').length > PARAMETER_LIMITS.query) throw new AppError('BadRequest', `Invalid ${name.slice(0, 64)}`);
  }
}

export function errorResponse(error: unknown, requestId: string, log: Logger): HttpResult {
  if (error instanceof AppError) {
    if (error.statusCode >= 500) log.error('request failed', { error: error.message });
    return json(error.statusCode, error.toBody(), requestId);
  }
  if (error instanceof ZodError) {
    return json(422, { statusCode: 422, error: 'ValidationFailed', message: 'Invalid input', details: zodDetails(error) }, requestId);
  }
  // Concurrent transactions on the same items that still collide after the retries (transaction-retry.ts):
  // nothing was changed and nothing conflicts with the caller's data, so it is not the version-check 409.
  if (isTransactionConflict(error)) {
    log.warn('transaction conflict after retries');
    return json(503, { statusCode: 503, error: 'ServiceUnavailable', message: 'Too many changes at once. Try again.' }, requestId);
  }
  const name = (error as { name?: string })?.name;
  if (name === 'ConditionalCheckFailedException' || name === 'TransactionCanceledException') {
    return json(409, { statusCode: 409, error: 'Conflict', message: 'The item was changed by someone else' }, requestId);
  }
  const message = error instanceof Error ? error.message : String(error);
  log.error('unhandled error', { error: message, stack: error instanceof Error ? error.stack : undefined });
  const body: Record<string, unknown> = { statusCode: 500, error: 'InternalError', message: 'Something went wrong' };
  if (process.env.STAGE === 'local') body.details = message;
  return json(500, body, requestId);
}

export function httpHandler<B = unknown, Q = unknown, P = unknown>(definition: HandlerDefinition<B, Q, P>) {
  const routeDef = routeOf(definition.route);
  const auth: AuthLevel = routeDef.auth;
  // Least privilege: the adapters refuse what the route does not declare (shared/routes.ts `needs`).
  const needs = routeDef.needs ?? DEFAULT_NEEDS;
  const handler = async (event: HttpEvent): Promise<HttpResult> => {
    const requestId = event.requestContext?.requestId ?? 'unknown';
    const log = createLogger({ requestId, route: definition.route });
    const { result, overBytes } = fitResponse(await answer(event, requestId, log), event.headers?.['accept-encoding'], requestId);
    if (overBytes) log.error('answer over the response limit', { bytes: overBytes, limit: LAMBDA_RESPONSE_MAX_BYTES });
    return result;
  };
  const answer = async (event: HttpEvent, requestId: string, log: Logger): Promise<HttpResult> => {
    try {
      const d = deps(needs, definition.route);
      checkParameterLengths(event);
      const query = validate(definition.query, event.queryStringParameters ?? {}, 'query parameters');
      const path = validate(definition.path, event.pathParameters ?? {}, 'path parameters');
      const claims = event.requestContext?.authorizer?.jwt?.claims as Claims | undefined;
      const companyId = event.queryStringParameters?.company_id;
      // Who may call comes before what the body holds: a caller without the route's role gets 403, not the body's
      // field errors (which would describe the schema of what it may not do).
      const caller = await resolveCaller(d.store, auth, claims, companyId, d.globalAdminEmails);
      const body = validate(definition.body, definition.body ? parseBody(event) : {}, 'body');
      const result = await definition.run({ body, query, path, caller, deps: d, log, requestId });
      if (result && typeof result === 'object' && (result as RawResponse).raw === true) {
        const raw = result as RawResponse;
        return { statusCode: raw.statusCode, headers: { 'x-request-id': requestId, ...raw.headers }, body: raw.body };
      }
      log.debug('ok');
      return json(definition.successStatus ?? 200, result ?? {}, requestId);
    } catch (error) {
      return errorResponse(error, requestId, log);
    }
  };
  const contract: HandlerContract = {
    body: definition.body,
    query: definition.query,
    path: definition.path,
    successStatus: definition.successStatus ?? 200,
    response: definition.response,
  };
  // The schemas travel with the handler so that tests can generate input for every route (test/integration/fuzz.test.ts)
  // and the OpenAPI document describes it (scripts/openapi/).
  return Object.assign(handler, { route: definition.route, auth, contract, schemas: { body: definition.body, query: definition.query, path: definition.path } });
}

/** For handlers: the caller is always present on non-public routes. */
export function requireCaller(caller: Caller | undefined): Caller {
  if (!caller) throw new AppError('Unauthorized', 'Not signed in');
  return caller;
}

export function requireCompany(caller: Caller | undefined): Caller & { companyId: string } {
  const c = requireCaller(caller);
  if (!c.companyId) throw new AppError('BadRequest', 'company_id is required');
  return c as Caller & { companyId: string };
}

export const isLocalStage = () => env().STAGE === 'local';
