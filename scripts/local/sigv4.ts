/**
 * Verifies AWS Signature Version 4 on requests to the local stand-ins, as the real services do:
 * the stand-in signs the request again with the one secret local mode knows (scripts/local/credentials.ts)
 * and compares. Header-signed requests (the SDK's normal calls) only; presigned URLs are S3's business.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { SignatureV4 } from '@smithy/signature-v4';

export interface LocalCredentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/** How far a request's X-Amz-Date may be from now, as in AWS (15 minutes). */
const MAX_SKEW_MS = 15 * 60 * 1000;

class Sha256 {
  private readonly hash;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', toBuffer(secret));
  }
  update(data: string | ArrayBuffer | ArrayBufferView): void {
    this.hash.update(toBuffer(data));
  }
  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.hash.digest()));
  }
}

function toBuffer(data: string | ArrayBuffer | ArrayBufferView): Buffer {
  if (typeof data === 'string') return Buffer.from(data, 'utf8');
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return Buffer.from(data);
}

export type SignatureVerdict = { ok: true } | { ok: false; error: 'MissingAuthenticationToken' | 'UnrecognizedClient' | 'InvalidSignature' | 'SignatureExpired'; message: string };

const PRESIGN_PARAMS = ['X-Amz-Algorithm', 'X-Amz-Credential', 'X-Amz-Date', 'X-Amz-Expires', 'X-Amz-SignedHeaders', 'X-Amz-Signature', 'X-Amz-Security-Token'];

function queryOf(url: URL, without: readonly string[] = []): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [k, v] of url.searchParams) {
    if (without.includes(k)) continue;
    const prev = query[k];
    query[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return query;
}

function parseAmzDate(value: string): number | undefined {
  const dm = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  return dm ? Date.UTC(+dm[1]!, +dm[2]! - 1, +dm[3]!, +dm[4]!, +dm[5]!, +dm[6]!) : undefined;
}

/**
 * Checks a presigned URL (query-string SigV4, as S3 presigned PUT/GET URLs carry it): credentials, expiry
 * and the signature over method, path, query and the signed headers, with an unsigned payload.
 */
export async function verifyPresignedUrl(req: IncomingMessage, credentials: LocalCredentials, nowMs = Date.now()): Promise<SignatureVerdict> {
  const url = new URL(req.url ?? '/', 'http://local');
  const p = (name: string) => url.searchParams.get(name) ?? '';
  if (p('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256') return { ok: false, error: 'InvalidSignature', message: 'Only AWS4-HMAC-SHA256 is supported' };
  const cred = /^([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request$/.exec(p('X-Amz-Credential'));
  if (!cred) return { ok: false, error: 'InvalidSignature', message: 'X-Amz-Credential is malformed' };
  const [, accessKeyId, , region, service] = cred;
  if (accessKeyId !== credentials.accessKeyId) return { ok: false, error: 'UnrecognizedClient', message: 'The AWS Access Key Id you provided does not exist in our records.' };
  const signedAt = parseAmzDate(p('X-Amz-Date'));
  const expires = Number(p('X-Amz-Expires'));
  if (signedAt === undefined || !Number.isInteger(expires) || expires < 1 || expires > 604_800) {
    return { ok: false, error: 'InvalidSignature', message: 'X-Amz-Date or X-Amz-Expires is malformed' };
  }
  if (nowMs > signedAt + expires * 1000 || signedAt - nowMs > MAX_SKEW_MS) return { ok: false, error: 'SignatureExpired', message: 'Request has expired' };
  const signed = p('X-Amz-SignedHeaders').split(';').filter(Boolean);
  const headers: Record<string, string> = { 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' };
  for (const name of signed) {
    const value = req.headers[name];
    if (value === undefined) return { ok: false, error: 'InvalidSignature', message: `Signed header ${name} is missing` };
    headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const signer = new SignatureV4({ credentials, region: region!, service: service!, sha256: Sha256, uriEscapePath: service !== 's3' });
  const again = await signer.presign(
    { method: (req.method ?? 'GET').toUpperCase(), protocol: 'http:', hostname: 'local', path: url.pathname, query: queryOf(url, PRESIGN_PARAMS), headers },
    {
      signingDate: new Date(signedAt),
      expiresIn: expires,
      signableHeaders: new Set(signed),
      unsignableHeaders: new Set(['x-amz-content-sha256'].filter((h) => !signed.includes(h))),
      unhoistableHeaders: new Set(Object.keys(headers)),
    },
  );
  const expected = String(again.query?.['X-Amz-Signature'] ?? '');
  const given = p('X-Amz-Signature');
  const same = expected.length === 64 && given.length === 64 && timingSafeEqual(Buffer.from(expected), Buffer.from(given));
  return same ? { ok: true } : { ok: false, error: 'InvalidSignature', message: 'The request signature we calculated does not match the signature you provided' };
}

/**
 * The URL a request was signed for, when a router took a prefix off `req.url` before handing it on (the local
 * server mounts the Cognito stand-in at `/cognito`): the signature covers the path the client sent.
 */
const signedUrls = new WeakMap<IncomingMessage, string>();
export function rememberSignedUrl(req: IncomingMessage): void {
  signedUrls.set(req, req.url ?? '/');
}

const AUTH = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/;

/** Checks the Authorization header of a request whose body has been read (`body`). */
export async function verifySigV4(req: IncomingMessage, body: string | Buffer | undefined, credentials: LocalCredentials, nowMs = Date.now()): Promise<SignatureVerdict> {
  const header = String(req.headers.authorization ?? '');
  if (!header) return { ok: false, error: 'MissingAuthenticationToken', message: 'Missing Authentication Token' };
  const m = AUTH.exec(header.trim());
  if (!m) return { ok: false, error: 'InvalidSignature', message: 'The request signature is malformed' };
  const [, accessKeyId, , region, service, signedHeaderList, signature] = m;
  if (accessKeyId !== credentials.accessKeyId) {
    return { ok: false, error: 'UnrecognizedClient', message: 'The security token included in the request is invalid' };
  }
  const signedAt = parseAmzDate(String(req.headers['x-amz-date'] ?? ''));
  if (signedAt === undefined) return { ok: false, error: 'InvalidSignature', message: 'X-Amz-Date is missing or malformed' };
  if (Math.abs(nowMs - signedAt) > MAX_SKEW_MS) return { ok: false, error: 'SignatureExpired', message: 'Signature expired' };

  const signed = signedHeaderList!.split(';');
  const headers: Record<string, string> = {};
  for (const name of signed) {
    const value = req.headers[name];
    if (value === undefined) return { ok: false, error: 'InvalidSignature', message: `Signed header ${name} is missing` };
    headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const url = new URL(signedUrls.get(req) ?? req.url ?? '/', 'http://local');
  const query = queryOf(url);
  const signer = new SignatureV4({ credentials, region: region!, service: service!, sha256: Sha256, uriEscapePath: service !== 's3' });
  const again = await signer.sign(
    { method: (req.method ?? 'GET').toUpperCase(), protocol: 'http:', hostname: 'local', path: url.pathname, query, headers, body: body?.length ? body : undefined },
    { signingDate: new Date(signedAt), signableHeaders: new Set(signed), unsignableHeaders: new Set() },
  );
  const expected = /Signature=([0-9a-f]{64})/.exec(String(again.headers.authorization ?? again.headers.Authorization ?? ''))?.[1] ?? '';
  const same = expected.length === 64 && timingSafeEqual(Buffer.from(expected), Buffer.from(signature!));
  return same
    ? { ok: true }
    : { ok: false, error: 'InvalidSignature', message: 'The request signature we calculated does not match the signature you provided' };
}
