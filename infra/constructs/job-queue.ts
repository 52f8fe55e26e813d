import { Duration } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

export interface JobQueueProps {
  /** How long a delivery stays hidden while its job runs (AWS's advice: at least 6 × the function's timeout). */
  visibilityTimeout: Duration;
  /** Deliveries before a message moves to the dead-letter queue; the job's own retry count must match. */
  maxReceiveCount: number;
}

/**
 * The queue of a background job and its dead-letter queue, as every job of the product has them: `<name>Queue`
 * keeps messages 4 days, `<name>DeadLetterQueue` 14 (time to look at what failed; the operations stack alarms on
 * it), both encrypted by SQS and reachable over TLS only.
 */
export function jobQueue(scope: Construct, name: string, props: JobQueueProps): { queue: Queue; deadLetterQueue: Queue } {
  const deadLetterQueue = new Queue(scope, `${name}DeadLetterQueue`, {
    retentionPeriod: Duration.days(14),
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
  });
  const queue = new Queue(scope, `${name}Queue`, {
    visibilityTimeout: props.visibilityTimeout,
    retentionPeriod: Duration.days(4),
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: props.maxReceiveCount },
  });
  return { queue, deadLetterQueue };
}
