import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import type { WebSocketStage } from 'aws-cdk-lib/aws-apigatewayv2';
import type { IUserPool, IUserPoolClient } from 'aws-cdk-lib/aws-cognito';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Bucket, EventType, type IBucket } from 'aws-cdk-lib/aws-s3';
import { SqsDestination } from 'aws-cdk-lib/aws-s3-notifications';
import { EmailIdentity, Identity, ReceiptRuleSet, TlsPolicy, type IReceiptRuleAction, type ReceiptRuleOptions } from 'aws-cdk-lib/aws-ses';
import { Lambda as LambdaAction, LambdaInvocationType } from 'aws-cdk-lib/aws-ses-actions';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { ENV_NAMES } from '../../lambdas/runtime/env';
import { EMAIL_IN_PREFIX } from '../../shared/constants';
import type { HandlerBundle } from '../build/bundle-handlers';
import type { HandlerEntries } from '../build/handler-entries';
import { HandlerFunction } from '../constructs/handler-function';
import { jobQueue } from '../constructs/job-queue';

export interface EmailInStackProps extends StackProps {
  bundle: HandlerBundle;
  entries: HandlerEntries;
  table: ITable;
  documentsBucket: IBucket;
  userPool: IUserPool;
  userPoolClient: IUserPoolClient;
  webSocketStage: WebSocketStage;
  globalAdminEmails: string;
  /** The domain mail is received for (context `emailInDomain`); its MX record points at SES. */
  emailInDomain: string;
  /** Sender of the notices of mail not taken in full (context `mailFrom`); empty: no notice can be sent. */
  mailFrom?: string;
}

/** Looking up a message's recipients and bouncing the unknown ones; SES waits for the answer (at most 30 s). */
export const ANSWER_RECIPIENTS_TIMEOUT = Duration.seconds(10);
/** Parsing a 40 MB message and writing its attachments. */
export const RECEIVE_EMAIL_TIMEOUT = Duration.minutes(2);
/** AWS's advice for SQS-triggered functions: visibility ≥ 6 × the function timeout. */
export const INBOUND_VISIBILITY_TIMEOUT = Duration.minutes(12);
/** Deliveries before a message goes to the DLQ; the job's MAX_RECEIVES (lambdas/jobs/receive-email.ts) must match. */
export const INBOUND_MAX_RECEIVE_COUNT = 3;

/**
 * Email-in (SES receiving, eu-west-1): a receipt rule set with one rule for the email-in domain whose S3 action
 * stores each raw message in the documents bucket under inbound/ (the bucket policy letting SES write there is
 * in DataStack, conditioned on this account), the bucket's object-created notification for inbound/ → SQS queue
 * (DLQ after 3 receives) → the email-in job, which turns attachments into uploads for the processing job.
 *
 * Before the S3 action, a synchronous Lambda action (RequestResponse) answers unknown and released Email-in
 * addresses (lambdas/jobs/answer-email-recipients.ts): SES cannot refuse a single recipient in its SMTP dialogue, so
 * the function bounces them (SES SendBounce) to a sender that passed SPF or DKIM, and stops the rule set when no
 * recipient is known (nothing is stored). Local mode's SMTP server refuses them with 550 instead.
 *
 * SES allows one active rule set per account and region; CloudFormation cannot activate it: the deployer runs
 * `aws ses set-active-receipt-rule-set --rule-set-name <output ReceiptRuleSetName>` once (README).
 */
export class EmailInStack extends Stack {
  readonly inboundQueue: Queue;
  readonly deadLetterQueue: Queue;
  readonly ruleSet: ReceiptRuleSet;
  readonly receiveEmail?: HandlerFunction;
  readonly answerRecipients?: HandlerFunction;

  constructor(scope: Construct, id: string, props: EmailInStackProps) {
    super(scope, id, props);
    const domain = props.emailInDomain.trim().toLowerCase();

    ({ queue: this.inboundQueue, deadLetterQueue: this.deadLetterQueue } = jobQueue(this, 'Inbound', { visibilityTimeout: INBOUND_VISIBILITY_TIMEOUT, maxReceiveCount: INBOUND_MAX_RECEIVE_COUNT }));

    // Imported reference: a non-managed notification that merges with the processing stack's (see ProcessingStack).
    const documents = Bucket.fromBucketAttributes(this, 'DocumentsBucketRef', {
      bucketArn: props.documentsBucket.bucketArn,
      bucketName: props.documentsBucket.bucketName,
    });
    documents.addEventNotification(EventType.OBJECT_CREATED, new SqsDestination(this.inboundQueue), { prefix: EMAIL_IN_PREFIX });

    // The domain as an SES identity: SES receives only for verified domains (DKIM records are its verification).
    new EmailIdentity(this, 'EmailInDomain', { identity: Identity.domain(domain) });

    // The S3 action; the bucket policy for ses.amazonaws.com is the documents bucket's own (DataStack).
    const storeRaw: IReceiptRuleAction = {
      bind: () => ({ s3Action: { bucketName: props.documentsBucket.bucketName, objectKeyPrefix: EMAIL_IN_PREFIX } }),
    };
    const answer = props.entries.jobs.answerEmailRecipients;
    if (answer) {
      this.answerRecipients = new HandlerFunction(this, 'AnswerEmailRecipientsFn', {
        handler: answer,
        bundle: props.bundle,
        description: `SES receipt rule (RequestResponse, before the S3 action) → lambdas/${answer}.ts`,
        timeout: ANSWER_RECIPIENTS_TIMEOUT,
        resources: { table: props.table, globalAdminEmails: props.globalAdminEmails, emailInDomain: domain },
      });
      this.answerRecipients.addEnvironment(ENV_NAMES.emailInDomain, domain);
    }
    const rule = { recipients: [domain], scanEnabled: true, tlsPolicy: TlsPolicy.OPTIONAL, enabled: true } satisfies ReceiptRuleOptions;
    this.ruleSet = new ReceiptRuleSet(this, 'ReceiptRuleSet', {
      // In this order (each rule after the one before): the recipients' answer, then the raw message stored.
      rules: [
        ...(this.answerRecipients ? [{ ...rule, actions: [new LambdaAction({ function: this.answerRecipients, invocationType: LambdaInvocationType.REQUEST_RESPONSE })] }] : []),
        { ...rule, actions: [storeRaw] },
      ],
    });

    const handler = props.entries.jobs.receiveEmail;
    if (handler) {
      this.receiveEmail = new HandlerFunction(this, 'ReceiveEmailFn', {
        handler,
        bundle: props.bundle,
        description: `SES → S3 ${EMAIL_IN_PREFIX}* → SQS → lambdas/${handler}.ts`,
        timeout: RECEIVE_EMAIL_TIMEOUT,
        memorySize: 1024,
        resources: {
          table: props.table,
          documentsBucket: props.documentsBucket,
          userPool: props.userPool,
          userPoolClient: props.userPoolClient,
          webSocketStage: props.webSocketStage,
          globalAdminEmails: props.globalAdminEmails,
          mailFrom: props.mailFrom ?? '',
        },
      });
      this.receiveEmail.addEnvironment(ENV_NAMES.emailInDomain, domain);
      this.receiveEmail.addEventSource(new SqsEventSource(this.inboundQueue, { batchSize: 1, reportBatchItemFailures: true, maxConcurrency: 5 }));
    }

    new CfnOutput(this, 'ReceiptRuleSetName', { value: this.ruleSet.receiptRuleSetName });
    new CfnOutput(this, 'EmailInMxRecord', { value: `${domain} MX 10 inbound-smtp.${this.region}.amazonaws.com` });
    new CfnOutput(this, 'InboundDeadLetterQueueUrl', { value: this.deadLetterQueue.queueUrl });
  }
}
