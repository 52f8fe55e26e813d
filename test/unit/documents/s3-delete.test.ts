/** s3Files.delete: objects S3 reports as not deleted (DeleteObjects answers 200 with Errors) are an error, not a silent leftover. */
import { DeleteObjectsCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { resetS3Client, s3Files } from '../../../lambdas/adapters/s3/files';
import { resetEnvCache } from '../../../lambdas/runtime/env';

const s3Mock = mockClient(S3Client);
const saved = { ...process.env };

beforeEach(() => {
  process.env.TABLE_NAME = 'unit-table';
  process.env.DOCUMENTS_BUCKET = 'documents-unit';
  process.env.AWS_REGION = 'eu-west-1';
  resetEnvCache();
  resetS3Client();
  s3Mock.reset();
});
afterAll(() => {
  process.env = saved;
  resetEnvCache();
  resetS3Client();
  s3Mock.restore();
});

describe('s3Files.delete', () => {
  it('deletes in calls of 1,000 keys, each key once', async () => {
    s3Mock.on(DeleteObjectsCommand).resolves({});
    await s3Files.delete([...Array.from({ length: 1500 }, (_, i) => `k/${i}`), 'k/0', '']);
    const calls = s3Mock.commandCalls(DeleteObjectsCommand).map((c) => c.args[0].input.Delete!.Objects!.length);
    expect(calls).toEqual([1000, 500]);
  });

  it('throws when S3 reports objects it did not delete', async () => {
    s3Mock.on(DeleteObjectsCommand).resolves({ Errors: [{ Key: 'uploads/c1/u1/a.pdf', Code: 'SlowDown', Message: 'Please reduce your request rate.' }] });
    await expect(s3Files.delete(['uploads/c1/u1/a.pdf', 'uploads/c1/u1/b.pdf'])).rejects.toThrow('1 objects were not deleted (SlowDown: uploads/c1/u1/a.pdf)');
  });
});
