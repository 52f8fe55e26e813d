/**
 * The email-in job: SQS messages whose bodies are S3 object-created notifications of raw messages under
 * inbound/ (SES's S3 action in AWS, the local SMTP server locally). Each message is parsed, routed and turned
 * into pending uploads (lambdas/core/email-in/receive.ts); the processing job then creates the documents.
 * Failures are reported per message so SQS retries only those; after MAX_RECEIVES the message goes to the
 * dead-letter queue with the raw mail still in the bucket.
 */
import type { S3Event, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { EMAIL_IN_PREFIX } from '../../shared/constants';
import { decodeS3Key } from '../core/documents/files';
import { receiveInbound, type EmailInDeps } from '../core/email-in/receive';
import { depsFor } from '../runtime/deps';
import { env } from '../runtime/env';
import { createLogger } from '../runtime/logger';

/** Deliveries of one message before it goes to the dead-letter queue (CDK: maxReceiveCount). */
export const MAX_RECEIVES = 3;

export function emailInDeps(): EmailInDeps {
  const d = depsFor('jobs/receive-email');
  return {
    emails: d.emails,
    documents: d.documents,
    files: d.files,
    store: d.store,
    clock: d.clock,
    domains: env().EMAIL_IN_DOMAIN ? [env().EMAIL_IN_DOMAIN] : [],
    log: createLogger({ job: 'receive-email' }),
  };
}

export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const log = createLogger({ job: 'receive-email' });
  const p = emailInDeps();
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  for (const message of event.Records ?? []) {
    try {
      const notification = JSON.parse(message.body) as Partial<S3Event>;
      // S3 sends an s3:TestEvent when the notification is configured: nothing to do.
      for (const record of notification.Records ?? []) {
        if (!record.eventName?.startsWith('ObjectCreated')) continue;
        const key = decodeS3Key(record.s3.object.key);
        if (!key.startsWith(EMAIL_IN_PREFIX)) continue;
        await receiveInbound(p, key);
      }
    } catch (error) {
      log.error('message failed', {
        messageId: message.messageId,
        receiveCount: message.attributes?.ApproximateReceiveCount,
        error: error instanceof Error ? error.message : String(error),
        stack: error instanceof Error ? error.stack : undefined,
      });
      failures.push({ itemIdentifier: message.messageId });
    }
  }
  return { batchItemFailures: failures };
}
