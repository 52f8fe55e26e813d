import { Match } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INBOUND_MAX_RECEIVE_COUNT, INBOUND_VISIBILITY_TIMEOUT, RECEIVE_EMAIL_TIMEOUT } from '../../infra/stacks/email-in-stack';
import { INBOUND_MAIL_DAYS } from '../../infra/stacks/data-stack';
import { createReceiptsStacks } from '../../infra/stacks/receipts-stacks';
import { MAX_RECEIVES } from '../../lambdas/jobs/receive-email';
import { EMAIL_IN_DOMAIN, EMAIL_IN_PREFIX } from '../../shared/constants';
import { jobHandlers } from '../../shared/routes';
import { Template } from 'aws-cdk-lib/assertions';
import { fakeWebDist, GLOBAL_ADMINS, grantsOf, logicalIdOf, newApp, removeTempDirs, resourcesOf, SYNTH_TIMEOUT_MS, synthReceipts, testBundle, type Synth } from './synth';
import { handlerEntries } from '../../infra/build/handler-entries';

afterAll(removeTempDirs);

describe('EmailInStack', () => {
  let s: Synth;
  let queueId: string;
  let dlqId: string;
  beforeAll(async () => {
    s = await synthReceipts();
    queueId = logicalIdOf(s.stacks.emailIn.inboundQueue);
    dlqId = logicalIdOf(s.stacks.emailIn.deadLetterQueue);
  }, SYNTH_TIMEOUT_MS);

  it('has an SES receipt rule set whose rule stores raw messages of the domain in the documents bucket under inbound/', () => {
    s.emailIn.resourceCountIs('AWS::SES::ReceiptRuleSet', 1);
    const ruleSetId = logicalIdOf(s.stacks.emailIn.ruleSet);
    const [rule] = Object.values(resourcesOf(s.emailIn, 'AWS::SES::ReceiptRule'));
    expect(rule!.Properties.RuleSetName).toEqual({ Ref: ruleSetId });
    const r = rule!.Properties.Rule as { Recipients: string[]; Enabled: boolean; ScanEnabled: boolean; Actions: Array<{ S3Action?: { BucketName: unknown; ObjectKeyPrefix: string } }> };
    expect(r.Recipients).toEqual([EMAIL_IN_DOMAIN]);
    expect(r.Enabled).toBe(true);
    expect(r.ScanEnabled).toBe(true);
    expect(r.Actions).toHaveLength(1);
    expect(r.Actions[0]!.S3Action!.ObjectKeyPrefix).toBe(EMAIL_IN_PREFIX);
    expect(JSON.stringify(r.Actions[0]!.S3Action!.BucketName)).toMatch(/DocumentsBucket/);
    s.emailIn.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: EMAIL_IN_DOMAIN });
    s.emailIn.hasOutput('EmailInMxRecord', { Value: `${EMAIL_IN_DOMAIN} MX 10 inbound-smtp.eu-west-1.amazonaws.com` });
  });

  it('takes the domain from deployment configuration', async () => {
    const stacks = createReceiptsStacks(newApp(), {
      bundle: await testBundle(),
      entries: handlerEntries(),
      globalAdminEmails: GLOBAL_ADMINS,
      webDistDir: fakeWebDist(),
      emailInDomain: 'Mail.Example.org',
      prefix: 'Other',
    });
    const t = Template.fromStack(stacks.emailIn);
    const [rule] = Object.values(resourcesOf(t, 'AWS::SES::ReceiptRule'));
    expect((rule!.Properties.Rule as { Recipients: string[] }).Recipients).toEqual(['mail.example.org']);
    const fn = resourcesOf(t, 'AWS::Lambda::Function')[logicalIdOf(stacks.emailIn.receiveEmail!)]!;
    expect((fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables.EMAIL_IN_DOMAIN).toBe('mail.example.org');
  }, SYNTH_TIMEOUT_MS);

  it('lets SES of this account only write under inbound/ of the documents bucket', () => {
    s.data.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Sid: 'AllowSesEmailIn',
            Effect: 'Allow',
            Principal: { Service: 'ses.amazonaws.com' },
            Action: 's3:PutObject',
            Resource: { 'Fn::Join': ['', [Match.objectLike({ 'Fn::GetAtt': [Match.stringLikeRegexp('DocumentsBucket'), 'Arn'] }), `/${EMAIL_IN_PREFIX}*`]] },
            Condition: { StringEquals: { 'aws:SourceAccount': Match.anyValue() } },
          }),
        ]),
      },
    });
  });

  it('keeps raw messages 90 days', () => {
    s.data.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: { Rules: Match.arrayWith([Match.objectLike({ Prefix: EMAIL_IN_PREFIX, ExpirationInDays: INBOUND_MAIL_DAYS, Status: 'Enabled' })]) },
    });
  });

  it('sends object-created events of inbound/ to the inbound queue, with a dead-letter queue after the job’s receives', () => {
    s.emailIn.resourceCountIs('AWS::SQS::Queue', 2);
    s.emailIn.hasResourceProperties('AWS::SQS::Queue', {
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] }, maxReceiveCount: INBOUND_MAX_RECEIVE_COUNT },
      VisibilityTimeout: INBOUND_VISIBILITY_TIMEOUT.toSeconds(),
      SqsManagedSseEnabled: true,
    });
    expect(INBOUND_MAX_RECEIVE_COUNT).toBe(MAX_RECEIVES);
    expect(INBOUND_VISIBILITY_TIMEOUT.toSeconds()).toBeGreaterThanOrEqual(6 * RECEIVE_EMAIL_TIMEOUT.toSeconds());
    const [notifications] = Object.values(resourcesOf(s.emailIn, 'Custom::S3BucketNotifications'));
    const config = notifications!.Properties.NotificationConfiguration as { QueueConfigurations: unknown[] };
    expect(config.QueueConfigurations).toEqual([
      { Events: ['s3:ObjectCreated:*'], Filter: { Key: { FilterRules: [{ Name: 'prefix', Value: EMAIL_IN_PREFIX }] } }, QueueArn: { 'Fn::GetAtt': [queueId, 'Arn'] } },
    ]);
    expect(notifications!.Properties.Managed).toBe(false);
    s.emailIn.hasResourceProperties('AWS::SQS::QueuePolicy', {
      Queues: [{ Ref: queueId }],
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Allow', Principal: { Service: 's3.amazonaws.com' }, Action: Match.arrayWith(['sqs:SendMessage']) })]) },
    });
  });

  it('consumes the queue with the email-in job, one message at a time, reporting failures per message', () => {
    expect(jobHandlers.receiveEmail).toBe('jobs/receive-email');
    const fn = s.stacks.emailIn.receiveEmail!;
    const fnId = logicalIdOf(fn);
    s.emailIn.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
      FunctionName: { Ref: fnId },
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    const props = resourcesOf(s.emailIn, 'AWS::Lambda::Function')[fnId]!.Properties;
    expect(props.Timeout).toBe(RECEIVE_EMAIL_TIMEOUT.toSeconds());
    const actions = grantsOf(s.emailIn, fn).flatMap((g) => g.actions);
    expect(actions).toEqual(expect.arrayContaining(['s3:GetObject', 's3:PutObject', 'dynamodb:PutItem', 'dynamodb:GetItem']));
  });
});
