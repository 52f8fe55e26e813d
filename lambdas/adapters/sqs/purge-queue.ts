/**
 * The company purge queue (SQS; local mode answers the same SendMessage calls, scripts/local/sqs.ts): DELETE /company
 * queues the first message of a company's purge, the purge job the next ones. A delay is SQS's DelaySeconds (at most
 * 900 s): the purge waiting for documents still in processing or for late upload files.
 */
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import type { PurgeQueue } from '../../core/ports';
import { env } from '../../runtime/env';
import { sqsClient } from './export-queue';

export const sqsPurgeQueue: PurgeQueue = {
  async send(message, delaySeconds = 0) {
    const url = env().COMPANY_PURGE_QUEUE_URL;
    if (!url) throw new Error('COMPANY_PURGE_QUEUE_URL is not set');
    await sqsClient().send(
      new SendMessageCommand({
        QueueUrl: url,
        MessageBody: JSON.stringify(message),
        DelaySeconds: Math.min(900, Math.max(0, Math.round(delaySeconds))),
      }),
    );
  },
};
