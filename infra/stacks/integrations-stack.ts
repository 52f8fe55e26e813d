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

/**
 * Integrations: the KMS key that seals integration credentials and the export queue (with its dead-letter queue).
 * Created before the API (whose confirm and bulk-send handlers queue exports, and whose POST /company/service seals
 * credentials) and the processing stack (whose export job consumes the queue and opens the credentials).
 *
 * The key policy is CDK's default (the account may delegate through IAM); no function gets kms:Decrypt unless its
 * bundle calls KMS (infra/constructs/grants.ts), which is only POST /company/service and the export job
 * (test/infra/integrations.test.ts).
 */
export class IntegrationsStack extends Stack {
  readonly secretsKey: Key;
  readonly exportQueue: Queue;
  readonly exportDeadLetterQueue: Queue;

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
  }
}
