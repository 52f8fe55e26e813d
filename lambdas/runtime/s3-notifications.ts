/**
 * SQS messages whose bodies are S3 object-created notifications, as the jobs receive them: each created object's key
 * (decoded) is handed on; a message whose handling throws is logged and reported as a partial batch failure, so
 * SQS redelivers only it. S3's s3:TestEvent (sent when a notification is configured) has no records: nothing to do.
 */
import type { S3Event, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { decodeS3Key } from '../core/documents/files';
import type { Logger } from './logger';

export interface Delivery {
  /** ApproximateReceiveCount of the message (1 on its first delivery). */
  receiveCount: number;
}

export async function forEachCreatedObject(event: SQSEvent, log: Logger, handle: (key: string, delivery: Delivery) => Promise<void>): Promise<SQSBatchResponse> {
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  for (const message of event.Records ?? []) {
    const receiveCount = Number(message.attributes?.ApproximateReceiveCount ?? '1');
    try {
      const notification = JSON.parse(message.body) as Partial<S3Event>;
      for (const record of notification.Records ?? []) {
        if (!record.eventName?.startsWith('ObjectCreated')) continue;
        await handle(decodeS3Key(record.s3.object.key), { receiveCount });
      }
    } catch (error) {
      log.error('message failed', {
        messageId: message.messageId,
        receiveCount,
        error: error instanceof Error ? error.message : String(error),
        stack: error instanceof Error ? error.stack : undefined,
      });
      failures.push({ itemIdentifier: message.messageId });
    }
  }
  return { batchItemFailures: failures };
}
