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

const AUTH = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/;

/** Checks the Authorization header of a request whose body has been read (`body`). */
export async function verifySigV4(req: IncomingMessage, body: string | Buffer, credentials: LocalCredentials, nowMs = Date.now()): Promise<SignatureVerdict> {
  const header = String(req.headers.authorization ?? '');
  if (!header) return { ok: false, error: 'MissingAuthenticationToken', message: 'Missing Authentication Token' };
  const m = AUTH.exec(header.trim());
  if (!m) return { ok: false, error: 'InvalidSignature', message: 'The request signature is malformed' };
  const [, accessKeyId, , region, service, signedHeaderList, signature] = m;
  if (accessKeyId !== credentials.accessKeyId) {
    return { ok: false, error: 'UnrecognizedClient', message: 'The security token included in the request is invalid' };
  }
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  const dm = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (!dm) return { ok: false, error: 'InvalidSignature', message: 'X-Amz-Date is missing or malformed' };
  const signedAt = Date.UTC(+dm[1]!, +dm[2]! - 1, +dm[3]!, +dm[4]!, +dm[5]!, +dm[6]!);
  if (Math.abs(nowMs - signedAt) > MAX_SKEW_MS) return { ok: false, error: 'SignatureExpired', message: 'Signature expired' };

  const signed = signedHeaderList!.split(';');
  const headers: Record<string, string> = {};
  for (const name of signed) {
    const value = req.headers[name];
    if (value === undefined) return { ok: false, error: 'InvalidSignature', message: `Signed header ${name} is missing` };
    headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const url = new URL(req.url ?? '/', 'http://local');
  const query: Record<string, string | string[]> = {};
  for (const [k, v] of url.searchParams) {
    const prev = query[k];
    query[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  const signer = new SignatureV4({ credentials, region: region!, service: service!, sha256: Sha256, uriEscapePath: service !== 's3' });
  const again = await signer.sign(
    { method: (req.method ?? 'GET').toUpperCase(), protocol: 'http:', hostname: 'local', path: url.pathname, query, headers, body: body.length ? body : undefined },
    { signingDate: new Date(signedAt), signableHeaders: new Set(signed), unsignableHeaders: new Set() },
  );
  const expected = /Signature=([0-9a-f]{64})/.exec(String(again.headers.authorization ?? again.headers.Authorization ?? ''))?.[1] ?? '';
  const same = expected.length === 64 && timingSafeEqual(Buffer.from(expected), Buffer.from(signature!));
  return same
    ? { ok: true }
    : { ok: false, error: 'InvalidSignature', message: 'The request signature we calculated does not match the signature you provided' };
}
