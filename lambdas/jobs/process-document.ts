/**
 * The processing job: SQS messages whose bodies are S3 object-created notifications (uploads and
 * processing tickets). Partial batch failures are reported so SQS retries only the failed messages;
 * on the last delivery (ApproximateReceiveCount ≥ MAX_RECEIVES, the queue's maxReceiveCount) a
 * failure ends the document in `failed` instead of being retried.
 */
import type { S3Event, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { PROCESSING_LIMITS } from '../../shared/processing-limits';
import { decodeS3Key } from '../core/documents/files';
import { handleObjectCreated, type ProcessingDeps } from '../core/documents/processing';
import { depsFor } from '../runtime/deps';
import { createLogger } from '../runtime/logger';
import { officeConverter } from './lib/office-converter';
import { recogniser } from './lib/recogniser';
import { pageRenderer } from './lib/renderer';

/** Deliveries of one message before it goes to the dead-letter queue (CDK: maxReceiveCount). */
export const MAX_RECEIVES = PROCESSING_LIMITS.maxReceiveCount;

export function processingDeps(): ProcessingDeps {
  const d = depsFor('jobs/process-document');
  const log = createLogger({ job: 'process-document' });
  return {
    documents: d.documents,
    files: d.files,
    store: d.store,
    live: d.live,
    clock: d.clock,
    ids: d.ids,
    layouts: d.layouts,
    masterData: d.masterData,
    renderer: pageRenderer,
    // Page images of office files: the office converter function on AWS, LibreOffice in-process where installed.
    office: officeConverter(d.files, 'jobs/process-document', log),
    recogniser,
    log,
  };
}

export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const log = createLogger({ job: 'process-document' });
  const p = processingDeps();
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  for (const message of event.Records ?? []) {
    const receiveCount = Number(message.attributes?.ApproximateReceiveCount ?? '1');
    const final = receiveCount >= MAX_RECEIVES;
    try {
      const notification = JSON.parse(message.body) as Partial<S3Event> & { Event?: string };
      // S3 sends an s3:TestEvent when the notification is configured: nothing to do.
      for (const record of notification.Records ?? []) {
        if (!record.eventName?.startsWith('ObjectCreated')) continue;
        await handleObjectCreated(p, { key: decodeS3Key(record.s3.object.key) }, { final });
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
