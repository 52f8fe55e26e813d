import { CfnOutput, Duration, Size, Stack, type StackProps } from 'aws-cdk-lib';
import type { WebSocketStage } from 'aws-cdk-lib/aws-apigatewayv2';
import type { IUserPool, IUserPoolClient } from 'aws-cdk-lib/aws-cognito';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Bucket, EventType, type IBucket } from 'aws-cdk-lib/aws-s3';
import { SqsDestination } from 'aws-cdk-lib/aws-s3-notifications';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { EXPORT_DOCUMENT_TIMEOUT, PURGE_COMPANY_TIMEOUT } from './integrations-stack';
import { PROCESSING_LIMITS } from '../../shared/processing-limits';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaTarget } from 'aws-cdk-lib/aws-events-targets';
import type { HandlerBundle } from '../build/bundle-handlers';
import type { HandlerEntries } from '../build/handler-entries';
import { HandlerFunction } from '../constructs/handler-function';
import { jobQueue } from '../constructs/job-queue';
import { MasterDataSync } from '../constructs/master-data-sync';
import { ImportJob } from '../constructs/import-job';
import { DriveImportSchedule } from '../constructs/drive-import-schedule';
import type { DriveClients } from '../constructs/handler-function';
import { OFFICE_CONVERTER_IMAGE_DIR } from '../build/image-context';

export interface ProcessingStackProps extends StackProps {
  bundle: HandlerBundle;
  entries: HandlerEntries;
  table: ITable;
  documentsBucket: IBucket;
  userPool: IUserPool;
  userPoolClient: IUserPoolClient;
  webSocketStage: WebSocketStage;
  globalAdminEmails: string;
  /** Integrations (IntegrationsStack): the export job consumes this queue and opens credentials with this key. */
  secretsKey?: IKey;
  exportQueue?: IQueue;
  /** Company deletion (IntegrationsStack): the purge job consumes this queue and queues what is left to it. */
  purgeQueue?: IQueue;
  /** Master-data imports (IntegrationsStack): the continuing job consumes this queue and queues what is left to it. */
  syncQueue?: IQueue;
  /** Google Drive and Dropbox imports: the OAuth clients and the web app's origin (redirect URIs). */
  driveClients?: DriveClients;
  siteOrigin?: string;
  /** Email-in: the receiving domain (context `emailInDomain`) the jobs' live company events show addresses at. */
  emailInDomain?: string;
}

/**
 * Object-created events under these prefixes of the documents bucket become queue messages (the S3 event
 * notification JSON, `Records[].s3.object.key` URL-encoded): uploaded originals, and processing tickets the
 * API writes to (re)start a document. Same values as UPLOAD_PREFIX / PROCESS_PREFIX in
 * lambdas/core/documents/files.ts (infra may not import lambdas/core; test/infra checks they agree).
 */
export const PROCESSING_PREFIXES = ['uploads/', 'jobs/process/'] as const;
/**
 * Textract's asynchronous expense analysis of a multi-page PDF can take minutes: the job waits at most
 * PROCESSING_LIMITS.textractMaxWaitSeconds, within this timeout (shared/processing-limits.ts).
 */
export const PROCESS_DOCUMENT_TIMEOUT = Duration.seconds(PROCESSING_LIMITS.functionTimeoutSeconds);
/** AWS's advice for SQS-triggered functions: visibility ≥ 6 × the function timeout. */
export const UPLOADS_VISIBILITY_TIMEOUT = Duration.seconds(PROCESSING_LIMITS.visibilityTimeoutSeconds);
/** Deliveries before a message goes to the DLQ; the job's MAX_RECEIVES (lambdas/jobs/process-document.ts) must match. */
export const UPLOADS_MAX_RECEIVE_COUNT = PROCESSING_LIMITS.maxReceiveCount;
/**
 * Office previews on AWS: the office converter function (container image with LibreOffice). LibreOffice starts a
 * new profile per conversion and is CPU-bound (CPU follows memory); its temporary folders live in /tmp.
 */
export const OFFICE_CONVERTER = {
  timeout: Duration.seconds(PROCESSING_LIMITS.officeConversionSeconds),
  memorySize: 2048,
  ephemeralStorageSize: Size.mebibytes(1024),
} as const;

/**
 * Document processing: S3 ObjectCreated (uploads/…, jobs/process/…) → SQS queue (DLQ after 3 receives) → job Lambda.
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
  /** Office previews on AWS: the container image function with LibreOffice the processing job invokes. */
  readonly officeConverter?: HandlerFunction;
  readonly exportDocument?: HandlerFunction;
  /** Company deletion: the purge job (purge queue → Lambda). */
  readonly purgeCompany?: HandlerFunction;
  /** Documents whose job died (timeout, out of memory): the dead-letter queue's consumer and the sweeper. */
  readonly processDocumentDeadLetter?: HandlerFunction;
  readonly sweepProcessing?: HandlerFunction;
  /** Master-data imports (SQL, Rivile): the schedule and its job. */
  readonly masterDataSync?: MasterDataSync;
  /** Master-data imports: their own queue, DLQ and job (infra/constructs/import-job.ts). */
  readonly importJob: ImportJob;
  /** Google Drive and Dropbox imports: the schedule and its job (infra/constructs/drive-import-schedule.ts). */
  readonly driveImport?: DriveImportSchedule;

  constructor(scope: Construct, id: string, props: ProcessingStackProps) {
    super(scope, id, props);

    ({ queue: this.uploadsQueue, deadLetterQueue: this.deadLetterQueue } = jobQueue(this, 'Uploads', { visibilityTimeout: UPLOADS_VISIBILITY_TIMEOUT, maxReceiveCount: UPLOADS_MAX_RECEIVE_COUNT }));

    const documents = Bucket.fromBucketAttributes(this, 'DocumentsBucketRef', {
      bucketArn: props.documentsBucket.bucketArn,
      bucketName: props.documentsBucket.bucketName,
    });
    const destination = new SqsDestination(this.uploadsQueue);
    for (const prefix of PROCESSING_PREFIXES) documents.addEventNotification(EventType.OBJECT_CREATED, destination, { prefix });

    // What every job of this stack is handed (its grants follow its declared needs, shared/routes.ts handlerNeeds).
    const jobResources = {
      table: props.table,
      documentsBucket: props.documentsBucket,
      userPool: props.userPool,
      userPoolClient: props.userPoolClient,
      webSocketStage: props.webSocketStage,
      globalAdminEmails: props.globalAdminEmails,
      emailInDomain: props.emailInDomain,
    };
    // Office previews: the processing job invokes this function (its role: the office-conversion/ objects only).
    const converterHandler = props.entries.jobs.convertOffice;
    if (converterHandler) {
      this.officeConverter = new HandlerFunction(this, 'OfficeConverterFn', {
        handler: converterHandler,
        bundle: props.bundle,
        description: `Office files to PDF with LibreOffice (container image) → lambdas/${converterHandler}.ts`,
        containerImage: OFFICE_CONVERTER_IMAGE_DIR,
        ...OFFICE_CONVERTER,
        // The table's name only (the handlers' environment requires it); its needs grant no table access.
        resources: { table: props.table, documentsBucket: props.documentsBucket, globalAdminEmails: '' },
      });
    }
    const handler = props.entries.jobs.processDocument;
    if (handler) {
      this.processDocument = new HandlerFunction(this, 'ProcessDocumentFn', {
        handler,
        bundle: props.bundle,
        description: `S3 ${PROCESSING_PREFIXES.join('*, ')}* → SQS → lambdas/${handler}.ts`,
        timeout: PROCESS_DOCUMENT_TIMEOUT,
        // Page rendering (sharp, pdfjs on @napi-rs/canvas) is memory- and CPU-bound; Lambda CPU scales with memory.
        memorySize: 2048,
        resources: { ...jobResources, officeConverter: this.officeConverter },
        ...(this.officeConverter ? {} : { withheld: { officeConverter: 'no office converter function: office files get no page images' } }),
      });
      // One document per invocation: a failure retries only that document. Partial batch responses are
      // honoured if the handler returns { batchItemFailures }. Concurrency is capped to stay within Textract's TPS.
      this.processDocument.addEventSource(
        new SqsEventSource(this.uploadsQueue, { batchSize: 1, reportBatchItemFailures: true, maxConcurrency: 5 }),
      );
    }

    // Processing that never finished: dead letters → consumer that fails their documents; a scheduled sweeper.
    const stuckResources = jobResources;
    const deadLetterHandler = props.entries.jobs.processDocumentDeadLetter;
    if (deadLetterHandler) {
      this.processDocumentDeadLetter = new HandlerFunction(this, 'ProcessDocumentDeadLetterFn', {
        handler: deadLetterHandler,
        bundle: props.bundle,
        description: `Uploads dead-letter queue → lambdas/${deadLetterHandler}.ts`,
        timeout: Duration.seconds(60),
        resources: stuckResources,
      });
      this.processDocumentDeadLetter.addEventSource(new SqsEventSource(this.deadLetterQueue, { batchSize: 10, reportBatchItemFailures: true }));
    }
    const sweepHandler = props.entries.jobs.sweepProcessing;
    if (sweepHandler) {
      this.sweepProcessing = new HandlerFunction(this, 'SweepProcessingFn', {
        handler: sweepHandler,
        bundle: props.bundle,
        description: `Every ${PROCESSING_LIMITS.sweepEveryMinutes} min → lambdas/${sweepHandler}.ts`,
        timeout: Duration.minutes(5),
        resources: stuckResources,
      });
      new Rule(this, 'SweepProcessingSchedule', {
        description: 'Documents stuck in processing end failed',
        schedule: Schedule.rate(Duration.minutes(PROCESSING_LIMITS.sweepEveryMinutes)),
        targets: [new LambdaTarget(this.sweepProcessing, { retryAttempts: 2 })],
      });
    }

    // Integrations: export queue → export job (one message at a time; partial batch failures honoured).
    const exportHandler = props.entries.jobs.exportDocument;
    if (exportHandler && props.exportQueue && props.secretsKey) {
      this.exportDocument = new HandlerFunction(this, 'ExportDocumentFn', {
        handler: exportHandler,
        bundle: props.bundle,
        description: `SQS export queue → lambdas/${exportHandler}.ts`,
        timeout: EXPORT_DOCUMENT_TIMEOUT,
        resources: {
          ...jobResources,
          secretsKey: props.secretsKey,
          exportQueue: props.exportQueue,
        },
      });
      this.exportDocument.addEventSource(new SqsEventSource(props.exportQueue, { batchSize: 1, reportBatchItemFailures: true, maxConcurrency: 5 }));
    }
    // Company deletion: purge queue → purge job (one message at a time, a few companies at once; it re-queues itself).
    const purgeHandler = props.entries.jobs.purgeCompany;
    if (purgeHandler && props.purgeQueue) {
      this.purgeCompany = new HandlerFunction(this, 'PurgeCompanyFn', {
        handler: purgeHandler,
        bundle: props.bundle,
        description: `SQS company purge queue → lambdas/${purgeHandler}.ts`,
        timeout: PURGE_COMPANY_TIMEOUT,
        resources: { ...jobResources, purgeQueue: props.purgeQueue },
      });
      this.purgeCompany.addEventSource(new SqsEventSource(props.purgeQueue, { batchSize: 1, reportBatchItemFailures: true, maxConcurrency: 2 }));
    }
    this.importJob = new ImportJob(this, 'MasterDataImport', {
      bucket: documents,
      bundle: props.bundle,
      handler: props.entries.jobs.importMasterData,
      resources: jobResources,
    });

    const driveHandler = props.entries.jobs.importDriveFiles;
    if (driveHandler && props.secretsKey) {
      this.driveImport = new DriveImportSchedule(this, 'DriveImport', {
        bundle: props.bundle,
        handler: driveHandler,
        resources: {
          ...jobResources,
          secretsKey: props.secretsKey,
          appUrl: props.siteOrigin,
          driveClients: props.driveClients,
        },
      });
    }

    // Master-data imports (SQL, Rivile): EventBridge schedule → sync job (opens the imports' credentials).
    const syncHandler = props.entries.jobs.syncMasterData;
    if (syncHandler && props.secretsKey) {
      this.masterDataSync = new MasterDataSync(this, 'MasterDataSync', {
        bundle: props.bundle,
        handler: syncHandler,
        continueHandler: props.entries.jobs.continueMasterDataSync,
        queue: props.syncQueue,
        resources: {
          ...jobResources,
          secretsKey: props.secretsKey,
          syncQueue: props.syncQueue,
        },
      });
    }

    new CfnOutput(this, 'UploadsQueueUrl', { value: this.uploadsQueue.queueUrl });
    new CfnOutput(this, 'UploadsDeadLetterQueueUrl', { value: this.deadLetterQueue.queueUrl });
  }
}
