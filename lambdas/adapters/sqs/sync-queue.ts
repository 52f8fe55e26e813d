/**
 * The master-data sync queue (SQS; local mode answers the same SendMessage calls, scripts/local/sqs.ts): "sync now"
 * hands a run that stopped for now to the continuing job, which hands on what it leaves in turn.
 */
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import type { SyncContinuation } from '../../core/master-data/sync/ports';
import { env } from '../../runtime/env';
import { sqsClient } from './export-queue';

export const sqsSyncQueue: SyncContinuation = {
  async send(message) {
    const url = env().MASTER_DATA_SYNC_QUEUE_URL;
    if (!url) throw new Error('MASTER_DATA_SYNC_QUEUE_URL is not set');
    await sqsClient().send(new SendMessageCommand({ QueueUrl: url, MessageBody: JSON.stringify({ company_id: message.company_id, type: message.type }) }));
  },
};
