import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { jobQueue } from '../constructs/job-queue';

/** The export job's own timeout (it talks to FTP servers and Rivile; each call has its own shorter timeout). */
export const EXPORT_DOCUMENT_TIMEOUT = Duration.minutes(2);
/** AWS's advice for SQS-triggered functions: visibility ≥ 6 × the function timeout. */
export const EXPORT_VISIBILITY_TIMEOUT = Duration.minutes(12);
/**
 * Deliveries before a message goes to the DLQ. The job itself acknowledges every message whose outcome it could
 * record (delivered, re-queued with a delay, or a visible error); only failures to record anything come back.
 */
export const EXPORT_MAX_RECEIVE_COUNT = 5;

/** Company deletion: the purge job's timeout; a run stops starting pages a minute before it (lambdas/core/accounts/purge.ts). */
export const PURGE_COMPANY_TIMEOUT = Duration.minutes(5);
/** AWS's advice for SQS-triggered functions: visibility ≥ 6 × the function timeout. */
export const PURGE_VISIBILITY_TIMEOUT = Duration.minutes(30);
/** Deliveries of one purge message before it goes to the DLQ (each delivery starts where the message stands). */
export const PURGE_MAX_RECEIVE_COUNT = 5;

/** Master-data imports: the continuing job's timeout (it stops starting pages a minute before it). */
export const SYNC_CONTINUE_TIMEOUT = Duration.minutes(5);
/** AWS's advice for SQS-triggered functions: visibility ≥ 6 × the function timeout. */
export const SYNC_VISIBILITY_TIMEOUT = Duration.minutes(30);
/** Deliveries of one continue message before it goes to the DLQ (a run that fails records its error and is acknowledged). */
export const SYNC_MAX_RECEIVE_COUNT = 3;

/**
 * Integrations: the KMS key that seals integration credentials and the export queue (with its dead-letter queue).
 * Created before the API (whose confirm and bulk-send handlers queue exports, and whose POST /company/service seals
 * credentials) and the processing stack (whose export job consumes the queue and opens the credentials).
 * The company purge queue lives here for the same reason: DELETE /company (API stack) sends to it, the purge job
 * (processing stack) consumes it; and the operations stack watches its dead-letter queue like the export one.
 *
 * The key policy is CDK's default (the account may delegate through IAM); no function gets kms:Decrypt unless its
 * bundle calls KMS (infra/constructs/grants.ts), which is only POST /company/service and the export job
 * (test/infra/integrations.test.ts).
 */
export class IntegrationsStack extends Stack {
  readonly secretsKey: Key;
  readonly exportQueue: Queue;
  readonly exportDeadLetterQueue: Queue;
  /** Company deletion: the purge queue and its dead-letter queue. */
  readonly purgeQueue: Queue;
  readonly purgeDeadLetterQueue: Queue;
  /** Master-data imports: runs that stopped for now, continued at once (POST /company/service/imports/sync sends). */
  readonly syncQueue: Queue;
  readonly syncDeadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: StackProps) {
    super(scope, id, props);
    this.secretsKey = new Key(this, 'IntegrationSecretsKey', {
      description: 'Receipts: seals the credentials of integrations (FTP, NSOFT, Rivile)',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    ({ queue: this.exportQueue, deadLetterQueue: this.exportDeadLetterQueue } = jobQueue(this, 'Export', { visibilityTimeout: EXPORT_VISIBILITY_TIMEOUT, maxReceiveCount: EXPORT_MAX_RECEIVE_COUNT }));
    new CfnOutput(this, 'ExportQueueUrl', { value: this.exportQueue.queueUrl });
    new CfnOutput(this, 'ExportDeadLetterQueueUrl', { value: this.exportDeadLetterQueue.queueUrl });
    ({ queue: this.purgeQueue, deadLetterQueue: this.purgeDeadLetterQueue } = jobQueue(this, 'CompanyPurge', { visibilityTimeout: PURGE_VISIBILITY_TIMEOUT, maxReceiveCount: PURGE_MAX_RECEIVE_COUNT }));
    new CfnOutput(this, 'CompanyPurgeQueueUrl', { value: this.purgeQueue.queueUrl });
    new CfnOutput(this, 'CompanyPurgeDeadLetterQueueUrl', { value: this.purgeDeadLetterQueue.queueUrl });
    ({ queue: this.syncQueue, deadLetterQueue: this.syncDeadLetterQueue } = jobQueue(this, 'MasterDataSync', { visibilityTimeout: SYNC_VISIBILITY_TIMEOUT, maxReceiveCount: SYNC_MAX_RECEIVE_COUNT }));
    new CfnOutput(this, 'MasterDataSyncQueueUrl', { value: this.syncQueue.queueUrl });
    new CfnOutput(this, 'MasterDataSyncDeadLetterQueueUrl', { value: this.syncDeadLetterQueue.queueUrl });
  }
}
