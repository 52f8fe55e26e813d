/**
 * Local stand-in for an Amazon Cognito user pool (Identity Provider API).
 *
 * Speaks the real JSON 1.1 wire protocol (`POST /` + `X-Amz-Target:
 * AWSCognitoIdentityProviderService.<Operation>`), so the AWS SDK v3 Cognito
 * client and Amplify v6 (`aws-amplify/auth`) work against it by pointing their
 * endpoint at it (SDK: `endpoint`; Amplify: `Auth.Cognito.userPoolEndpoint`).
 * Tokens are RS256 JWTs whose keys are published at `jwksUri`.
 *
 * See docs/decisions.md, "Local Cognito stand-in", for scope and limitations.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PostConfirmationTriggerEvent, PreSignUpTriggerEvent } from 'aws-lambda';
import { CognitoError } from './errors';
import { CognitoService, type CodeKind } from './service';
import { PoolStore } from './store';
import { SigningKeys } from './tokens';
import { verifySigV4, type LocalCredentials } from '../sigv4';

export type { CodeKind } from './service';

export interface LocalCognitoOptions {
  /** undefined = in memory; otherwise users, sessions and the signing key are persisted there as JSON (atomic writes). */
  dataDir?: string;
  /** e.g. 'eu-west-1_LocalPool1' (Amplify derives the region from the part before '_'). */
  userPoolId: string;
  clientId: string;
  /** Tokens' `iss` is `${issuerBaseUrl}/${userPoolId}`; should be the URL this handler is reachable at. */
  issuerBaseUrl: string;
  /** The PostConfirmation Lambda trigger (ConfirmSignUp, AdminConfirmSignUp, ConfirmForgotPassword). */
  postConfirmation?: (event: PostConfirmationTriggerEvent) => Promise<unknown>;
  /** The PreSignUp Lambda trigger (SignUp): autoConfirmUser confirms at once, running PostConfirmation then. */
  preSignUp?: (event: PreSignUpTriggerEvent) => Promise<unknown>;
  /** Where "e-mails" go; default: one clear console line per code. */
  onCode?: (info: { email: string; kind: CodeKind; code: string }) => void;
  /** custom:* attributes in the pool schema (default: name, surname, company, company_code, invitation_id). */
  customAttributes?: readonly string[];
  /** Clock in epoch ms (tests use it to expire codes and tokens). Default Date.now. */
  now?: () => number;
  /**
   * The credentials IAM-authorised operations (Admin*, ListUsers…) must be signed with (SigV4), as Cognito
   * requires IAM credentials for them. Unsigned or wrongly signed calls are refused.
   */
  iamCredentials: LocalCredentials;
  /** Browser origins allowed by CORS (the app's own); other origins get no CORS headers. */
  allowedOrigins?: readonly string[];
}

export interface LocalCognito {
  /** node http handler; the caller strips its mount prefix (the product mounts it at /cognito) */
  handle(req: IncomingMessage, res: ServerResponse): void;
  issuer: string;
  /** `${issuer}/.well-known/jwks.json` */
  jwksUri: string;
  /** Latest code sent to this address: sign-up/resend/reset code, or the temporary password of an invitation. */
  lastCode(email: string): string | undefined;
  /** Waits for pending writes; afterwards requests are answered with 503. */
  close(): Promise<void>;
}

export const DEFAULT_CUSTOM_ATTRIBUTES = [
  'custom:name',
  'custom:surname',
  'custom:company',
  'custom:company_code',
  'custom:invitation_id',
] as const;

const TARGET_PREFIX = 'AWSCognitoIdentityProviderService.';
const JSON_CONTENT_TYPE = 'application/x-amz-json-1.1';
const MAX_BODY_BYTES = 1024 * 1024;
const DEFAULT_ALLOWED_HEADERS = [
  'content-type',
  'x-amz-target',
  'x-amz-user-agent',
  'cache-control',
  'authorization',
  'x-amz-date',
  'x-amz-security-token',
  'x-amz-content-sha256',
  'amz-sdk-invocation-id',
  'amz-sdk-request',
].join(', ');

const CODE_LABELS: Record<CodeKind, string> = {
  signup: 'confirmation code',
  resend: 'confirmation code',
  forgot: 'password reset code',
  invite: 'temporary password',
};

function defaultOnCode(info: { email: string; kind: CodeKind; code: string }): void {
  console.log(`[cognito] ${CODE_LABELS[info.kind]} for ${info.email}: ${info.code}`);
}

/** Operations that Cognito authorises with IAM credentials (everything else is a public, client-side call). */
export function requiresIam(operation: string): boolean {
  return operation.startsWith('Admin') || /^(List|Describe|Create|Delete|Update)(Users|UsersInGroup|Groups|Group|UserPool|UserPoolClient)$/.test(operation) || operation === 'GetGroup';
}

function setCors(req: IncomingMessage, res: ServerResponse, allowedOrigins: readonly string[] | undefined): void {
  const origin = req.headers.origin;
  res.setHeader('Vary', 'Origin');
  if (!origin) return;
  if (allowedOrigins && !allowedOrigins.includes(origin)) return;
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Access-Control-Allow-Credentials', 'true');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
  const requested = req.headers['access-control-request-headers'];
  res.setHeader('Access-Control-Allow-Headers', requested ? String(requested) : DEFAULT_ALLOWED_HEADERS);
  res.setHeader('Access-Control-Expose-Headers', 'x-amzn-errortype, x-amzn-requestid, x-amzn-errormessage, date');
  res.setHeader('Access-Control-Max-Age', '600');
}

function sendJson(res: ServerResponse, status: number, body: unknown, contentType = JSON_CONTENT_TYPE): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': contentType,
    'content-length': Buffer.byteLength(payload),
    'x-amzn-requestid': randomUUID(),
  });
  res.end(payload);
}

function sendError(res: ServerResponse, err: CognitoError): void {
  res.setHeader('x-amzn-errortype', err.type);
  sendJson(res, err.status, { __type: err.type, message: err.message });
}

function readBody(req: IncomingMessage): Promise<string> {
  // A framework in front of the handler may already have consumed the stream
  // (e.g. a raw/json body parser); then use what it left on `req.body`.
  if (req.readableEnded) {
    const parsed = (req as IncomingMessage & { body?: unknown }).body;
    if (Buffer.isBuffer(parsed)) return Promise.resolve(parsed.toString('utf8'));
    if (typeof parsed === 'string') return Promise.resolve(parsed);
    if (parsed !== null && typeof parsed === 'object') return Promise.resolve(JSON.stringify(parsed));
    return Promise.resolve('');
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new CognitoError('SerializationException', 'Request body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function createLocalCognito(opts: LocalCognitoOptions): Promise<LocalCognito> {
  const region = opts.userPoolId.split('_')[0];
  if (!region || !opts.userPoolId.includes('_')) {
    throw new Error(`userPoolId must look like '<region>_<id>' (got '${opts.userPoolId}')`);
  }
  if (!opts.clientId) throw new Error('clientId is required');
  const issuer = `${opts.issuerBaseUrl.replace(/\/+$/, '')}/${opts.userPoolId}`;
  const jwksUri = `${issuer}/.well-known/jwks.json`;

  const store = await PoolStore.open(opts.dataDir);
  const keys = await SigningKeys.open(opts.dataDir);
  const service = new CognitoService(
    {
      userPoolId: opts.userPoolId,
      clientId: opts.clientId,
      region,
      issuer,
      customAttributes: new Set(opts.customAttributes ?? DEFAULT_CUSTOM_ATTRIBUTES),
      now: opts.now ?? Date.now,
      postConfirmation: opts.postConfirmation,
      preSignUp: opts.preSignUp,
      onCode: opts.onCode ?? defaultOnCode,
    },
    store,
    keys,
  );

  const openIdConfiguration = {
    issuer,
    jwks_uri: jwksUri,
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    response_types_supported: ['code', 'token'],
    scopes_supported: ['openid', 'email', 'profile', 'aws.cognito.signin.user.admin'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
  };
  const poolPrefix = `/${opts.userPoolId}`;
  let closed = false;

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    setCors(req, res, opts.allowedOrigins);
    const method = (req.method ?? 'GET').toUpperCase();
    if (method === 'OPTIONS') {
      res.writeHead(204, { 'content-length': 0 });
      res.end();
      return;
    }
    if (closed) {
      sendError(res, new CognitoError('ServiceUnavailableException', 'The local Cognito stand-in is closed', 503));
      return;
    }
    const pathname = new URL(req.url ?? '/', 'http://local').pathname.replace(/\/+$/, '') || '/';
    if (method === 'GET' || method === 'HEAD') {
      const wellKnown = pathname.startsWith(`${poolPrefix}/`) ? pathname.slice(poolPrefix.length) : pathname;
      if (wellKnown === '/.well-known/jwks.json') return sendJson(res, 200, keys.jwks(), 'application/json');
      if (wellKnown === '/.well-known/openid-configuration') {
        return sendJson(res, 200, openIdConfiguration, 'application/json');
      }
      return sendJson(res, 404, { message: `Not found: ${pathname}` }, 'application/json');
    }
    if (method !== 'POST') {
      return sendJson(res, 405, { message: `Method ${method} not allowed` }, 'application/json');
    }
    const target = String(req.headers['x-amz-target'] ?? '');
    if (!target.startsWith(TARGET_PREFIX)) {
      throw new CognitoError(
        'UnknownOperationException',
        `Missing or unknown X-Amz-Target header '${target}' (expected ${TARGET_PREFIX}<Operation>)`,
      );
    }
    const body = await readBody(req);
    const operation = target.slice(TARGET_PREFIX.length);
    if (requiresIam(operation)) {
      const verdict = await verifySigV4(req, body, opts.iamCredentials, (opts.now ?? Date.now)());
      if (!verdict.ok) {
        const type = verdict.error === 'MissingAuthenticationToken' ? 'MissingAuthenticationTokenException' : verdict.error === 'UnrecognizedClient' ? 'UnrecognizedClientException' : 'InvalidSignatureException';
        throw new CognitoError(type, verdict.message, 403);
      }
    }
    let input: unknown;
    try {
      input = body.trim() ? JSON.parse(body) : {};
    } catch {
      throw new CognitoError('SerializationException', 'Request body is not valid JSON');
    }
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      throw new CognitoError('SerializationException', 'Request body must be a JSON object');
    }
    const output = await service.dispatch(operation, input as Record<string, unknown>);
    sendJson(res, 200, output);
  }

  return {
    issuer,
    jwksUri,
    handle(req, res) {
      serve(req, res).catch((err: unknown) => {
        if (res.headersSent) {
          res.destroy();
          return;
        }
        if (err instanceof CognitoError) {
          sendError(res, err);
          return;
        }
        console.error('[cognito] internal error:', err);
        const message = err instanceof Error ? err.message : String(err);
        sendError(res, new CognitoError('InternalErrorException', message, 500));
      });
    },
    lastCode: (email) => service.lastCode(email),
    async close() {
      closed = true;
      await store.flush();
    },
  };
}
