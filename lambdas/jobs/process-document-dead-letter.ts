/**
 * The consumer of the processing queue's dead-letter queue. A message lands there when every delivery of it
 * failed without the job reaching its own failure path (the function was killed by its timeout or ran out of
 * memory). Its documents still in processing end `failed` with 'The document could not be processed. Try
 * again.' and can be restarted (lambdas/core/documents/stuck.ts). Local mode hands its dead letters here too.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { failDeadLettered } from '../core/documents/stuck';
import { depsFor } from '../runtime/deps';
import { createLogger } from '../runtime/logger';
import { forEachCreatedObject } from '../runtime/s3-notifications';

export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const log = createLogger({ job: 'process-document-dead-letter' });
  const d = depsFor('jobs/process-document-dead-letter');
  return forEachCreatedObject(event, log, async (key) => {
    const failed = await failDeadLettered({ documents: d.documents, live: d.live, clock: d.clock, ids: d.ids, log }, key);
    log.warn('dead letter handled', { key, failed });
  });
}
