import { mkdirSync } from 'node:fs';
import { createServer, request as httpRequest, type Server, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import S3rver from 's3rver';
import { verifyPresignedUrl, verifySigV4, type LocalCredentials } from './sigv4';

/** Records of an S3 object-created notification (the shape S3 sends to SQS/Lambda). */
export interface S3EventRecord {
  eventName: string;
  s3: { bucket: { name: string }; object: { key: string; size: number; eTag?: string } };
}

export interface LocalS3 {
  endpoint: string;
  onObjectCreated(listener: (record: S3EventRecord) => void): void;
  close(): Promise<void>;
}

const CORS_XML = `<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>*</AllowedOrigin>
    <AllowedMethod>PUT</AllowedMethod>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedMethod>HEAD</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <ExposeHeader>ETag</ExposeHeader>
    <MaxAgeSeconds>3000</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;

function s3Error(res: ServerResponse, status: number, code: string, message: string): void {
  res.writeHead(status, { 'content-type': 'application/xml' });
  res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`);
}

const S3_ERROR_CODES = {
  MissingAuthenticationToken: 'AccessDenied',
  UnrecognizedClient: 'InvalidAccessKeyId',
  InvalidSignature: 'SignatureDoesNotMatch',
  SignatureExpired: 'AccessDenied',
} as const;

/**
 * The local S3 endpoint: verifies every request's SigV4 signature (Authorization header or presigned URL,
 * with its expiry) like S3 does, then hands it to s3rver, which listens on a port of its own. s3rver itself
 * checks no V4 signatures, so it is never reached directly. CORS preflights pass unsigned, as in S3.
 */
function signatureGateway(credentials: LocalCredentials, inner: { host: string; port: number }): Server {
  /** Keys with a conditional PUT in flight: S3 lets one of two concurrent conditional writes through. */
  const writing = new Set<string>();
  const exists = (path: string) =>
    new Promise<boolean>((resolve, reject) => {
      const head = httpRequest({ host: inner.host, port: inner.port, method: 'HEAD', path, agent: false, headers: { host: `${inner.host}:${inner.port}` } }, (answer) => {
        answer.resume();
        resolve(answer.statusCode === 200);
      });
      head.on('error', reject);
      head.end();
    });
  return createServer((req, res) => {
    const forward = () => {
      const upstream = httpRequest({ host: inner.host, port: inner.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      // A client that stops reading (a capped or aborted download) ends the upstream request too, so no
      // half-read answer keeps a connection to s3rver open.
      res.on('close', () => {
        if (!res.writableFinished) upstream.destroy();
      });
      upstream.on('error', () => (res.headersSent ? res.destroy() : s3Error(res, 502, 'InternalError', 'The local S3 store is not reachable')));
      req.pipe(upstream);
    };
    if (req.method === 'OPTIONS') return forward();
    const presigned = new URL(req.url ?? '/', 'http://local').searchParams.has('X-Amz-Signature');
    // S3 clients send the payload hash in x-amz-content-sha256, which the signature covers: the body is not needed.
    const verdict = presigned ? verifyPresignedUrl(req, credentials) : verifySigV4(req, undefined, credentials);
    // A PUT with If-None-Match: * writes only where no object is (S3's conditional write): 412 otherwise.
    const writeOnce = async () => {
      const path = new URL(req.url ?? '/', 'http://local').pathname;
      if (writing.has(path)) {
        req.resume();
        return s3Error(res, 409, 'ConditionalRequestConflict', 'A conflicting conditional operation is currently in progress against this resource.');
      }
      writing.add(path);
      res.on('close', () => writing.delete(path));
      if (await exists(path)) {
        req.resume();
        return s3Error(res, 412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold');
      }
      forward();
    };
    const conditional = req.method === 'PUT' && String(req.headers['if-none-match'] ?? '').trim() === '*';
    verdict.then(
      (v) => {
        if (!v.ok) return (req.resume(), s3Error(res, 403, S3_ERROR_CODES[v.error], v.message));
        if (!conditional) return forward();
        writeOnce().catch(() => (res.headersSent ? res.destroy() : s3Error(res, 502, 'InternalError', 'The local S3 store is not reachable')));
      },
      () => s3Error(res, 500, 'InternalError', 'Signature check failed'),
    );
  });
}

/** s3rver on loopback behind the signature gateway: presigned PUT/GET from the browser, CORS, and object-created events. */
export async function startLocalS3(opts: { dataDir: string; bucket: string; port?: number; credentials: LocalCredentials }): Promise<LocalS3> {
  mkdirSync(opts.dataDir, { recursive: true });
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory: opts.dataDir,
    silent: true,
    vhostBuckets: false,
    configureBuckets: [{ name: opts.bucket, configs: [CORS_XML] }],
  });
  const { port: innerPort } = (await server.run()) as AddressInfo;
  const gateway = signatureGateway(opts.credentials, { host: '127.0.0.1', port: innerPort });
  await new Promise<void>((resolve) => gateway.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const { port } = gateway.address() as AddressInfo;
  // s3rver only knows its own S3RVER key; local mode signs with its own key (scripts/local/credentials.ts), presigned URLs too.
  const { DUMMY_ACCOUNT } = createRequire(import.meta.url)('s3rver/lib/models/account') as {
    DUMMY_ACCOUNT: { createKeyPair(id: string, secret: string): void };
  };
  DUMMY_ACCOUNT.createKeyPair(opts.credentials.accessKeyId, opts.credentials.secretAccessKey);
  const listeners: ((r: S3EventRecord) => void)[] = [];
  server.on('event', (event: { Records: S3EventRecord[] }) => {
    for (const record of event.Records ?? []) {
      if (record.eventName.startsWith('ObjectCreated')) for (const l of listeners) l(record);
    }
  });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    onObjectCreated: (listener) => listeners.push(listener),
    close: async () => {
      gateway.closeAllConnections();
      await new Promise<void>((resolve) => gateway.close(() => resolve()));
      await server.close();
    },
  };
}
