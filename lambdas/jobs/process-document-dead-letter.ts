/**
 * The consumer of the processing queue's dead-letter queue. A message lands there when every delivery of it
 * failed without the job reaching its own failure path (the function was killed by its timeout or ran out of
 * memory). Its documents still in processing end `failed` with 'The document could not be processed. Try
 * again.' and can be restarted (lambdas/core/documents/stuck.ts). Local mode hands its dead letters here too.
 */
import type { S3Event, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { decodeS3Key } from '../core/documents/files';
import { failDeadLettered } from '../core/documents/stuck';
import { depsFor } from '../runtime/deps';
import { createLogger } from '../runtime/logger';

export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const log = createLogger({ job: 'process-document-dead-letter' });
  const d = depsFor('jobs/process-document-dead-letter');
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  for (const message of event.Records ?? []) {
    try {
      const notification = JSON.parse(message.body) as Partial<S3Event>;
      for (const record of notification.Records ?? []) {
        if (!record.eventName?.startsWith('ObjectCreated')) continue;
        const key = decodeS3Key(record.s3.object.key);
        const failed = await failDeadLettered({ documents: d.documents, live: d.live, clock: d.clock, ids: d.ids, log }, key);
        log.warn('dead letter handled', { key, failed });
      }
    } catch (error) {
      log.error('dead letter not handled', { messageId: message.messageId, error: error instanceof Error ? error.message : String(error) });
      failures.push({ itemIdentifier: message.messageId });
    }
  }
  return { batchItemFailures: failures };
}
