import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetSqsClient } from '../../../lambdas/adapters/sqs/export-queue';
import { sqsSyncQueue } from '../../../lambdas/adapters/sqs/sync-queue';
import { resetEnvCache } from '../../../lambdas/runtime/env';

const sqsMock = mockClient(SQSClient);

describe('the master-data sync queue (SQS)', () => {
  beforeEach(() => {
    process.env.TABLE_NAME = 'unit-table';
    sqsMock.reset();
    resetSqsClient();
  });
  afterEach(() => {
    delete process.env.MASTER_DATA_SYNC_QUEUE_URL;
    resetEnvCache();
  });

  it('sends the import to continue to the queue of MASTER_DATA_SYNC_QUEUE_URL, nothing else of it', async () => {
    process.env.MASTER_DATA_SYNC_QUEUE_URL = 'https://sqs.eu-west-1.amazonaws.com/123456789012/sync';
    resetEnvCache();
    sqsMock.on(SendMessageCommand).resolves({ MessageId: 'm1' });
    await sqsSyncQueue.send({ company_id: 'c1', type: 'sql_import', extra: 'x' } as never);
    const calls = sqsMock.commandCalls(SendMessageCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({
      QueueUrl: 'https://sqs.eu-west-1.amazonaws.com/123456789012/sync',
      MessageBody: JSON.stringify({ company_id: 'c1', type: 'sql_import' }),
    });
  });

  it('refuses to send without a queue (a function not granted the queue)', async () => {
    delete process.env.MASTER_DATA_SYNC_QUEUE_URL;
    resetEnvCache();
    await expect(sqsSyncQueue.send({ company_id: 'c1', type: 'rivile_import' })).rejects.toThrow('MASTER_DATA_SYNC_QUEUE_URL is not set');
    expect(sqsMock.commandCalls(SendMessageCommand)).toHaveLength(0);
  });
});
