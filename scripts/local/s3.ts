import { mkdirSync } from 'node:fs';
import type { LocalCredentials } from './sigv4';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import S3rver from 's3rver';

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

/** s3rver on loopback: presigned PUT/GET from the browser, CORS, and object-created events. */
export async function startLocalS3(opts: { dataDir: string; bucket: string; port?: number; credentials: LocalCredentials }): Promise<LocalS3> {
  mkdirSync(opts.dataDir, { recursive: true });
  const server = new S3rver({
    address: '127.0.0.1',
    port: opts.port ?? 0,
    directory: opts.dataDir,
    silent: true,
    vhostBuckets: false,
    configureBuckets: [{ name: opts.bucket, configs: [CORS_XML] }],
  });
  const { port } = (await server.run()) as AddressInfo;
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
    close: () => server.close(),
  };
}
