import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { routes, type RouteDef } from '../../shared/routes';
import { verifyAccessToken } from '../../lambdas/adapters/cognito/verify-token';
import type { HttpEvent, HttpResult } from '../../lambdas/runtime/http-handler';
import { LAMBDA_RESPONSE_MAX_BYTES, serialisedSize } from '../../lambdas/runtime/response-size';

const ROOT = path.resolve(import.meta.dirname, '../..');

interface CompiledRoute {
  route: RouteDef;
  pattern: RegExp;
  params: string[];
}

function compile(route: RouteDef): CompiledRoute {
  const params: string[] = [];
  const source = route.path
    .split('/')
    .map((part) => {
      const m = /^\{(\w+)\+?\}$/.exec(part);
      if (!m) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      params.push(m[1]!);
      return '([^/]+)';
    })
    .join('/');
  return { route, pattern: new RegExp(`^${source}/?$`), params };
}

/** Static paths win over parameterised ones, as in API Gateway. */
const compiled = routes
  .map(compile)
  .sort((a, b) => a.params.length - b.params.length || b.route.path.length - a.route.path.length);

export function matchRoute(method: string, pathname: string) {
  for (const c of compiled) {
    if (c.route.method !== method) continue;
    const m = c.pattern.exec(pathname);
    if (!m) continue;
    const pathParameters: Record<string, string> = {};
    for (const [i, p] of c.params.entries()) {
      const value = decodePathSegment(m[i + 1]!);
      if (value === undefined) return { route: c.route, pathParameters, badEncoding: true as const };
      pathParameters[p] = value;
    }
    return { route: c.route, pathParameters };
  }
  return undefined;
}

type LambdaHandler = (event: HttpEvent) => Promise<HttpResult>;
const loaded = new Map<string, Promise<LambdaHandler>>();
export function loadHandler<T = LambdaHandler>(handlerPath: string): Promise<T> {
  let p = loaded.get(handlerPath);
  if (!p) {
    const file = pathToFileURL(path.join(ROOT, 'lambdas', `${handlerPath}.ts`)).href;
    p = import(file).then((m: { handler: LambdaHandler }) => m.handler);
    loaded.set(handlerPath, p);
  }
  return p as Promise<T>;
}

/** A path segment as API Gateway decodes it; undefined for a malformed percent-encoding (answered 400). */
function decodePathSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** API Gateway's HTTP API refuses request bodies over 10 MB with 413; the local gateway does the same. */
export const MAX_REQUEST_BODY_BYTES = 10 * 1024 * 1024;

class BodyTooLarge extends Error {}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_REQUEST_BODY_BYTES) throw new BodyTooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_REQUEST_BODY_BYTES) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const TEXT_TYPES = /^(application\/(json|xml|x-www-form-urlencoded)|text\/)/;

/**
 * The local API Gateway: turns an HTTP request under /api into the HTTP API (payload v2) event,
 * with claims verified like the JWT authorizer does, calls the real handler and writes its answer.
 */
export async function handleApiRequest(req: IncomingMessage, res: ServerResponse, apiPrefix: string): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://local');
  const pathname = url.pathname.slice(apiPrefix.length) || '/';
  const method = (req.method ?? 'GET').toUpperCase();
  const match = matchRoute(method, pathname);
  if (!match) return send(res, 404, { statusCode: 404, error: 'NotFound', message: 'Not Found' });
  if (match.badEncoding) return send(res, 400, { statusCode: 400, error: 'BadRequest', message: 'Malformed path' });

  let claims: Record<string, unknown> | undefined;
  if (match.route.auth !== 'public') {
    const header = req.headers.authorization ?? '';
    const token = header.replace(/^Bearer\s+/i, '');
    if (!token) return send(res, 401, { statusCode: 401, error: 'Unauthorized', message: 'Unauthorized' });
    try {
      claims = await verifyAccessToken(token);
    } catch {
      return send(res, 401, { statusCode: 401, error: 'Unauthorized', message: 'Unauthorized' });
    }
  }

  let raw: Buffer;
  try {
    raw = await readBody(req);
  } catch (error) {
    if (!(error instanceof BodyTooLarge)) throw error;
    res.setHeader('connection', 'close');
    return send(res, 413, { statusCode: 413, error: 'PayloadTooLarge', message: 'Request Entity Too Large' });
  }
  const contentType = String(req.headers['content-type'] ?? '');
  const isText = raw.length === 0 || TEXT_TYPES.test(contentType);
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) query[k] = k in query ? `${query[k]},${v}` : v;
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(',') : v;
  const routeKey = `${match.route.method} ${match.route.path}`;
  const stringClaims = claims
    ? Object.fromEntries(Object.entries(claims).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]))
    : undefined;

  const event = {
    version: '2.0',
    routeKey,
    rawPath: pathname,
    rawQueryString: url.search.slice(1),
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: Object.keys(match.pathParameters).length ? match.pathParameters : undefined,
    body: raw.length ? (isText ? raw.toString('utf8') : raw.toString('base64')) : undefined,
    isBase64Encoded: raw.length > 0 && !isText,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: String(req.headers.host ?? 'localhost'),
      domainPrefix: 'local',
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: new Date().toISOString(),
      timeEpoch: Date.now(),
      http: {
        method,
        path: pathname,
        protocol: 'HTTP/1.1',
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: String(req.headers['user-agent'] ?? ''),
      },
      authorizer: stringClaims ? { principalId: '', integrationLatency: 0, jwt: { claims: stringClaims, scopes: [] } } : undefined,
    },
  } as unknown as HttpEvent;

  const handler = await loadHandler(match.route.handler);
  const result = await handler(event);
  if (serialisedSize(result) > LAMBDA_RESPONSE_MAX_BYTES) {
    // Lambda refuses to return a synchronous response over 6 MB, and API Gateway answers its bare 500.
    console.error(`[api] ${routeKey}: response over Lambda's ${LAMBDA_RESPONSE_MAX_BYTES} bytes`);
    return send(res, 500, { message: 'Internal Server Error' });
  }
  const status = result.statusCode ?? 200;
  const outHeaders: Record<string, string> = {};
  for (const [k, v] of Object.entries(result.headers ?? {})) outHeaders[k] = String(v);
  const body = result.body ?? '';
  res.writeHead(status, outHeaders);
  res.end(result.isBase64Encoded ? Buffer.from(body, 'base64') : body);
}
