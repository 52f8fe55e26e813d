import { Duration } from 'aws-cdk-lib';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { EventType, type IBucket } from 'aws-cdk-lib/aws-s3';
import { SqsDestination } from 'aws-cdk-lib/aws-s3-notifications';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { HandlerBundle } from '../build/bundle-handlers';
import { HandlerFunction, type HandlerResources } from './handler-function';
import { jobQueue } from './job-queue';

/**
 * Object-created events under this prefix of the documents bucket start a master-data import (workbooks uploaded
 * through GET /upload/import). Same value as IMPORT_PREFIX in lambdas/core/master-data/import/service.ts
 * (test/infra checks they agree).
 */
export const IMPORT_PREFIXES = ['imports/'] as const;
/** 10,000 rows take well under a minute; the job stops between chunks 30 s before this and resumes on the retry. */
export const IMPORT_JOB_TIMEOUT = Duration.minutes(5);
/** AWS's advice for SQS-triggered functions: visibility ≥ 6 × the function timeout. */
export const IMPORTS_VISIBILITY_TIMEOUT = Duration.minutes(30);
/** Deliveries before the DLQ; the job's IMPORT_MAX_RECEIVES (lambdas/core/master-data/import/service.ts) must match. */
export const IMPORTS_MAX_RECEIVE_COUNT = 5;

export interface ImportJobProps {
  /** The documents bucket as the stack references it (notifications are added to it). */
  bucket: IBucket;
  bundle: HandlerBundle;
  /** jobHandlers.importMasterData of shared/routes.ts; without it the queue waits for a consumer. */
  handler?: string;
  resources: HandlerResources;
}

/**
 * Master-data imports: S3 ObjectCreated (imports/…) → SQS queue (DLQ after 5 receives) → import job Lambda.
 * A queue of its own, so that a large import never waits behind document processing (or the reverse).
 */
export class ImportJob extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly fn?: HandlerFunction;

  constructor(scope: Construct, id: string, props: ImportJobProps) {
    super(scope, id);
    ({ queue: this.queue, deadLetterQueue: this.deadLetterQueue } = jobQueue(this, 'Imports', { visibilityTimeout: IMPORTS_VISIBILITY_TIMEOUT, maxReceiveCount: IMPORTS_MAX_RECEIVE_COUNT }));
    const destination = new SqsDestination(this.queue);
    for (const prefix of IMPORT_PREFIXES) props.bucket.addEventNotification(EventType.OBJECT_CREATED, destination, { prefix });

    if (props.handler) {
      this.fn = new HandlerFunction(this, 'ImportMasterDataFn', {
        handler: props.handler,
        bundle: props.bundle,
        description: `S3 ${IMPORT_PREFIXES.join('*, ')}* → SQS → lambdas/${props.handler}.ts`,
        timeout: IMPORT_JOB_TIMEOUT,
        // SheetJS holds the whole sheet in memory (a 10 MB workbook unpacks to up to 128 MB of XML).
        memorySize: 2048,
        resources: props.resources,
      });
      // One import at a time per invocation; a few imports in parallel at most, to leave table capacity to the API.
      this.fn.addEventSource(new SqsEventSource(this.queue, { batchSize: 1, reportBatchItemFailures: true, maxConcurrency: 3 }));
    }
  }
}
