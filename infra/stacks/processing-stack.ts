import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import type { WebSocketStage } from 'aws-cdk-lib/aws-apigatewayv2';
import type { IUserPool, IUserPoolClient } from 'aws-cdk-lib/aws-cognito';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Bucket, EventType, type IBucket } from 'aws-cdk-lib/aws-s3';
import { SqsDestination } from 'aws-cdk-lib/aws-s3-notifications';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { HandlerBundle } from '../build/bundle-handlers';
import type { HandlerEntries } from '../build/handler-entries';
import { HandlerFunction } from '../constructs/handler-function';

export interface ProcessingStackProps extends StackProps {
  bundle: HandlerBundle;
  entries: HandlerEntries;
  table: ITable;
  documentsBucket: IBucket;
  userPool: IUserPool;
  userPoolClient: IUserPoolClient;
  webSocketStage: WebSocketStage;
  globalAdminEmails: string;
}

/** Uploaded originals land under this prefix; each ObjectCreated event becomes one message. */
export const UPLOADS_PREFIX = 'uploads/';
/** Textract's asynchronous expense analysis of a multi-page PDF can take minutes. */
export const PROCESS_DOCUMENT_TIMEOUT = Duration.minutes(5);
/** AWS's advice for SQS-triggered functions: visibility ≥ 6 × the function timeout. */
export const UPLOADS_VISIBILITY_TIMEOUT = Duration.minutes(30);
export const UPLOADS_MAX_RECEIVE_COUNT = 3;

/**
 * Document processing: S3 ObjectCreated (uploads/…) → SQS queue (DLQ after 3 receives) → jobs Lambda.
 *
 * The consumer comes from `jobHandlers.processDocument` of shared/routes.ts. While the route module has no such
 * export, the queue, its DLQ and the bucket notification are created and the messages wait in the queue (4 days)
 * until the consumer is wired by the next deployment.
 *
 * The notification is declared here on an imported reference of the documents bucket (a non-managed
 * Custom::S3BucketNotifications that merges with the bucket's other notifications): declaring it in DataStack
 * would make the bucket's stack depend on this queue while this stack's function depends on the bucket and
 * table (a cycle).
 */
export class ProcessingStack extends Stack {
  readonly uploadsQueue: Queue;
  readonly deadLetterQueue: Queue;
  readonly processDocument?: HandlerFunction;

  constructor(scope: Construct, id: string, props: ProcessingStackProps) {
    super(scope, id, props);

    this.deadLetterQueue = new Queue(this, 'UploadsDeadLetterQueue', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    this.uploadsQueue = new Queue(this, 'UploadsQueue', {
      visibilityTimeout: UPLOADS_VISIBILITY_TIMEOUT,
      retentionPeriod: Duration.days(4),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: UPLOADS_MAX_RECEIVE_COUNT },
    });

    const documents = Bucket.fromBucketAttributes(this, 'DocumentsBucketRef', {
      bucketArn: props.documentsBucket.bucketArn,
      bucketName: props.documentsBucket.bucketName,
    });
    documents.addEventNotification(EventType.OBJECT_CREATED, new SqsDestination(this.uploadsQueue), { prefix: UPLOADS_PREFIX });

    const handler = props.entries.jobs.processDocument;
    if (handler) {
      this.processDocument = new HandlerFunction(this, 'ProcessDocumentFn', {
        handler,
        bundle: props.bundle,
        description: `S3 ${UPLOADS_PREFIX}* → SQS → lambdas/${handler}.ts`,
        timeout: PROCESS_DOCUMENT_TIMEOUT,
        memorySize: 1024,
        resources: {
          table: props.table,
          documentsBucket: props.documentsBucket,
          userPool: props.userPool,
          userPoolClient: props.userPoolClient,
          webSocketStage: props.webSocketStage,
          globalAdminEmails: props.globalAdminEmails,
        },
      });
      // One document per invocation: a failure retries only that document. Partial batch responses are
      // honoured if the handler returns { batchItemFailures }. Concurrency is capped to stay within Textract's TPS.
      this.processDocument.addEventSource(
        new SqsEventSource(this.uploadsQueue, { batchSize: 1, reportBatchItemFailures: true, maxConcurrency: 5 }),
      );
    }

    new CfnOutput(this, 'UploadsQueueUrl', { value: this.uploadsQueue.queueUrl });
    new CfnOutput(this, 'UploadsDeadLetterQueueUrl', { value: this.deadLetterQueue.queueUrl });
  }
}
