/**
 * The documents bucket: presigned PUT/GET URLs, object reads and writes. The endpoint comes from the
 * SDK's configuration (AWS_ENDPOINT_URL_S3 in local mode, where path-style addressing is used).
 */
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { ObjectChanged, ObjectTooLarge, type FileStore } from '../../core/documents/ports';
import { env } from '../../runtime/env';

let client: S3Client | undefined;
export function s3(): S3Client {
  // Checksums only where S3 requires them: a presigned PUT must not carry the checksum of an empty body.
  client ??= new S3Client({ forcePathStyle: env().STAGE === 'local', requestChecksumCalculation: 'WHEN_REQUIRED' });
  return client;
}
/** Local mode and tests change the endpoint between runs. */
export function resetS3Client(): void {
  client?.destroy();
  client = undefined;
}

const bucket = () => env().DOCUMENTS_BUCKET;
const unquote = (etag: string | undefined) => (etag ?? '').replace(/"/g, '');

function isMissing(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

export const s3Files: FileStore = {
  bucket,

  async get(key, opts = {}) {
    let res;
    try {
      res = await s3().send(new GetObjectCommand({ Bucket: bucket(), Key: key, ...(opts.ifMatch ? { IfMatch: `"${opts.ifMatch}"` } : {}) }));
    } catch (error) {
      const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
      if (opts.ifMatch && (e.name === 'PreconditionFailed' || e.$metadata?.httpStatusCode === 412)) throw new ObjectChanged(key);
      throw error;
    }
    const body = res.Body as (AsyncIterable<Uint8Array> & { destroy?: () => void }) | undefined;
    if (opts.ifMatch && unquote(res.ETag) !== opts.ifMatch) {
      body?.destroy?.();
      throw new ObjectChanged(key);
    }
    const max = opts.maxBytes ?? Number.POSITIVE_INFINITY;
    if (Number(res.ContentLength ?? 0) > max) {
      body?.destroy?.();
      throw new ObjectTooLarge(key);
    }
    // Streamed with a cap: a body longer than announced is never read whole.
    const chunks: Uint8Array[] = [];
    let length = 0;
    for await (const chunk of body ?? []) {
      length += chunk.length;
      if (length > max) {
        body?.destroy?.();
        throw new ObjectTooLarge(key);
      }
      chunks.push(chunk);
    }
    const bytes = new Uint8Array(length);
    let offset = 0;
    for (const c of chunks) {
      bytes.set(c, offset);
      offset += c.length;
    }
    return { bytes, etag: unquote(res.ETag), size: bytes.length, contentType: res.ContentType };
  },

  async head(key) {
    try {
      const res = await s3().send(new HeadObjectCommand({ Bucket: bucket(), Key: key }));
      return { etag: unquote(res.ETag), size: Number(res.ContentLength ?? 0) };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  },

  async put(key, bytes, contentType) {
    await s3().send(new PutObjectCommand({ Bucket: bucket(), Key: key, Body: bytes, ContentType: contentType }));
  },

  async getJson<T>(key: string): Promise<T | undefined> {
    try {
      const res = await s3().send(new GetObjectCommand({ Bucket: bucket(), Key: key }));
      const text = res.Body ? await res.Body.transformToString('utf-8') : '';
      return text ? (JSON.parse(text) as T) : undefined;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  },

  async putJson(key, value) {
    await s3().send(
      new PutObjectCommand({ Bucket: bucket(), Key: key, Body: JSON.stringify(value), ContentType: 'application/json' }),
    );
  },

  async delete(keyList) {
    const unique = [...new Set(keyList.filter(Boolean))];
    for (let i = 0; i < unique.length; i += 1000) {
      const res = await s3().send(
        new DeleteObjectsCommand({ Bucket: bucket(), Delete: { Objects: unique.slice(i, i + 1000).map((Key) => ({ Key })), Quiet: true } }),
      );
      // S3 answers 200 and lists in Errors the objects it did not delete (throttling, a lock): a purge or a document's
      // delete that went on would leave them for ever; thrown, the job or the request is tried again.
      const failed = res.Errors ?? [];
      if (failed.length) throw new Error(`${failed.length} objects were not deleted (${failed[0]!.Code ?? 'error'}: ${failed[0]!.Key ?? ''})`);
    }
  },

  async deletePrefix(prefix) {
    let token: string | undefined;
    do {
      const res = await s3().send(new ListObjectsV2Command({ Bucket: bucket(), Prefix: prefix, ContinuationToken: token }));
      const found = (res.Contents ?? []).map((o) => o.Key!).filter(Boolean);
      if (found.length) await this.delete(found);
      token = res.IsTruncated ? res.NextContinuationToken : undefined;
    } while (token);
  },

  presignPut(key, contentType, expiresInSeconds, bind = {}) {
    // Content type, length and If-None-Match become signed headers of the URL: S3 refuses another type or length
    // (SignatureDoesNotMatch) or an existing object (412), so the object is stored with the declared type.
    const command = new PutObjectCommand({
      Bucket: bucket(),
      Key: key,
      ContentType: contentType,
      ...(bind.contentLength !== undefined ? { ContentLength: bind.contentLength } : {}),
      ...(bind.writeOnce ? { IfNoneMatch: '*' } : {}),
    });
    // The presigner leaves content-type unsigned unless it is named here.
    return getSignedUrl(s3(), command, { expiresIn: expiresInSeconds, signableHeaders: new Set(['content-type']) });
  },

  presignGet(key, expiresInSeconds) {
    return getSignedUrl(s3(), new GetObjectCommand({ Bucket: bucket(), Key: key }), { expiresIn: expiresInSeconds });
  },
};
