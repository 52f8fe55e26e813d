/**
 * The processing job: SQS messages whose bodies are S3 object-created notifications (uploads and
 * processing tickets). Partial batch failures are reported so SQS retries only the failed messages;
 * on the last delivery (ApproximateReceiveCount ≥ MAX_RECEIVES, the queue's maxReceiveCount) a
 * failure ends the document in `failed` instead of being retried.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { PROCESSING_LIMITS } from '../../shared/processing-limits';
import { ddbContentSettings } from '../adapters/ddb/content-store';
import { handleObjectCreated } from '../core/documents/intake';
import type { ProcessingDeps } from '../core/documents/processing';
import { depsFor } from '../runtime/deps';
import { createLogger } from '../runtime/logger';
import { forEachCreatedObject } from '../runtime/s3-notifications';
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
    schemas: ddbContentSettings,
    renderer: pageRenderer,
    // Page images of office files: the office converter function on AWS, LibreOffice in-process where installed.
    office: officeConverter(d.files, 'jobs/process-document', log),
    recogniser,
    log,
  };
}

export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const p = processingDeps();
  return forEachCreatedObject(event, createLogger({ job: 'process-document' }), (key, { receiveCount }) =>
    handleObjectCreated(p, { key }, { final: receiveCount >= MAX_RECEIVES }),
  );
}
