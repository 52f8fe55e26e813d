/**
 * The email-in job: SQS messages whose bodies are S3 object-created notifications of raw messages under
 * inbound/ (SES's S3 action in AWS, the local SMTP server locally). Each message is parsed, routed and turned
 * into pending uploads (lambdas/core/email-in/receive.ts); the processing job then creates the documents.
 * Failures are reported per message so SQS retries only those; after MAX_RECEIVES the message goes to the
 * dead-letter queue with the raw mail still in the bucket.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { EMAIL_IN_PREFIX } from '../../shared/constants';
import { sesMailer } from '../adapters/mail/ses-mailer';
import { receiveInbound, type EmailInDeps } from '../core/email-in/receive';
import { depsFor } from '../runtime/deps';
import { env } from '../runtime/env';
import { createLogger } from '../runtime/logger';
import { forEachCreatedObject } from '../runtime/s3-notifications';

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
    mailFrom: env().MAIL_FROM,
    // SES checks every sender; local mode's SMTP server checks none (docs/decisions.md "Allowed senders").
    serverChecksSenders: env().STAGE === 'aws',
    mailer: sesMailer,
    log: createLogger({ job: 'receive-email' }),
  };
}

export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const p = emailInDeps();
  return forEachCreatedObject(event, createLogger({ job: 'receive-email' }), async (key) => {
    if (key.startsWith(EMAIL_IN_PREFIX)) await receiveInbound(p, key);
  });
}
