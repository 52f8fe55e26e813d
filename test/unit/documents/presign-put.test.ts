/**
 * The documents bucket's presigned PUT (s3Files.presignPut): what the URL's signature covers. S3 refuses a PUT
 * whose signed headers differ from the signed values, so each signed header is a promise the upload keeps.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { resetS3Client, s3Files } from '../../../lambdas/adapters/s3/files';
import { resetEnvCache } from '../../../lambdas/runtime/env';

const saved = { ...process.env };

beforeEach(() => {
  process.env.TABLE_NAME = 'unit-table';
  process.env.DOCUMENTS_BUCKET = 'documents-unit';
  process.env.AWS_REGION = 'eu-west-1';
  process.env.AWS_ACCESS_KEY_ID = 'AKIDUNITTEST';
  process.env.AWS_SECRET_ACCESS_KEY = 'unit-test-secret';
  delete process.env.AWS_SESSION_TOKEN;
  delete process.env.AWS_ENDPOINT_URL_S3;
  resetEnvCache();
  resetS3Client();
});
afterAll(() => {
  process.env = saved;
  resetEnvCache();
  resetS3Client();
});

const signedHeaders = (url: string) => new URL(url).searchParams.get('X-Amz-SignedHeaders')?.split(';');

describe('s3Files.presignPut', () => {
  it('signs the content type with the declared length and If-None-Match: the stored object gets the declared type', async () => {
    const url = await s3Files.presignPut('uploads/NONE/u1/up1/a.pdf', 'application/pdf', 900, { contentLength: 1234, writeOnce: true });
    expect(signedHeaders(url)).toEqual(['content-length', 'content-type', 'host', 'if-none-match']);
    // The values travel as headers, not in the query (a browser sends the headers of the upload answer).
    const query = new URL(url).searchParams;
    expect(query.get('Content-Type')).toBeNull();
    expect(query.get('X-Amz-Expires')).toBe('900');
  });

  it('signs the content type of a URL without a length or a condition too', async () => {
    const url = await s3Files.presignPut('tmp/x.bin', 'application/octet-stream', 60);
    expect(signedHeaders(url)).toEqual(['content-type', 'host']);
  });
});
