import { Match } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_RECIPIENTS_TIMEOUT, INBOUND_MAX_RECEIVE_COUNT, INBOUND_VISIBILITY_TIMEOUT, RECEIVE_EMAIL_TIMEOUT } from '../../infra/stacks/email-in-stack';
import { INBOUND_MAIL_DAYS } from '../../infra/stacks/data-stack';
import { createReceiptsStacks } from '../../infra/stacks/receipts-stacks';
import { MAX_RECEIVES } from '../../lambdas/jobs/receive-email';
import { EMAIL_IN_DOMAIN, EMAIL_IN_PREFIX } from '../../shared/constants';
import { jobHandlers } from '../../shared/routes';
import { Template } from 'aws-cdk-lib/assertions';
import { Stack } from 'aws-cdk-lib';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { DRIVE_CLIENTS, fakeWebDist, GLOBAL_ADMINS, grantsOf, logicalIdOf, newApp, removeTempDirs, resourcesOf, SYNTH_TIMEOUT_MS, synthReceipts, testBundle, type Synth } from './synth';
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

  /** The rule whose action stores the raw message (the S3 action). */
  function storeRule(t: Template) {
    return Object.values(resourcesOf(t, 'AWS::SES::ReceiptRule')).find((r) => JSON.stringify(r.Properties.Rule).includes('S3Action'));
  }

  it('has an SES receipt rule set whose rule stores raw messages of the domain in the documents bucket under inbound/', () => {
    s.emailIn.resourceCountIs('AWS::SES::ReceiptRuleSet', 1);
    const ruleSetId = logicalIdOf(s.stacks.emailIn.ruleSet);
    const rule = storeRule(s.emailIn);
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
    const rules = Object.values(resourcesOf(t, 'AWS::SES::ReceiptRule'));
    expect(rules).toHaveLength(2);
    for (const rule of rules) expect((rule.Properties.Rule as { Recipients: string[] }).Recipients).toEqual(['mail.example.org']);
    for (const fn of [stacks.emailIn.receiveEmail!, stacks.emailIn.answerRecipients!]) {
      const props = resourcesOf(t, 'AWS::Lambda::Function')[logicalIdOf(fn)]!.Properties;
      expect((props.Environment as { Variables: Record<string, unknown> }).Variables.EMAIL_IN_DOMAIN).toBe('mail.example.org');
    }
    const bounces = grantsOf(t, stacks.emailIn.answerRecipients!).filter((g) => g.actions.includes('ses:SendBounce'));
    expect(JSON.stringify(bounces.flatMap((g) => g.resources))).toMatch(/:identity\/mail\.example\.org"/);
  }, SYNTH_TIMEOUT_MS);

  it('gives the deployed domain to the API functions that answer Email-in addresses, and to the jobs that send them live', async () => {
    const stacks = createReceiptsStacks(newApp(), {
      bundle: await testBundle(),
      entries: handlerEntries(),
      globalAdminEmails: GLOBAL_ADMINS,
      webDistDir: fakeWebDist(),
      emailInDomain: ' In.Example.com ',
      driveClients: DRIVE_CLIENTS,
      prefix: 'Domain',
    });
    const environmentOf = (fn: LambdaFunction) => {
      const t = Template.fromStack(Stack.of(fn));
      return (resourcesOf(t, 'AWS::Lambda::Function')[logicalIdOf(fn)]!.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    };
    for (const route of ['GET /companies', 'POST /company', 'PUT /company', 'GET /company/users', 'PUT /company/users/{id}', 'GET /admin/companies', 'GET /emails', 'GET /emails/{id}', 'POST /company/service']) {
      expect(environmentOf(stacks.api.routeFunctions.get(route)!).EMAIL_IN_DOMAIN, route).toBe('in.example.com');
    }
    expect(environmentOf(stacks.processing.driveImport!.fn).EMAIL_IN_DOMAIN).toBe('in.example.com');
    // Showing addresses grants nothing: no API function may send bounces.
    const api = Template.fromStack(stacks.api);
    for (const fn of stacks.api.routeFunctions.values()) expect(grantsOf(api, fn).some((g) => g.actions.includes('ses:SendBounce'))).toBe(false);
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

  it('answers unknown recipients first: a synchronous Lambda action before the S3 action, allowed SendBounce from the domain only', () => {
    expect(jobHandlers.answerEmailRecipients).toBe('jobs/answer-email-recipients');
    const fn = s.stacks.emailIn.answerRecipients!;
    const fnId = logicalIdOf(fn);
    const rules = resourcesOf(s.emailIn, 'AWS::SES::ReceiptRule');
    expect(Object.keys(rules)).toHaveLength(2);
    type Rule = { Name?: string; Recipients: string[]; ScanEnabled: boolean; Actions: Array<{ LambdaAction?: { FunctionArn: unknown; InvocationType: string }; S3Action?: unknown }> };
    const [answerId, answer] = Object.entries(rules).find(([, r]) => JSON.stringify(r.Properties.Rule).includes('LambdaAction'))!;
    const answerRule = answer.Properties.Rule as Rule;
    expect(answerRule.Recipients).toEqual([EMAIL_IN_DOMAIN]);
    // Spam and virus scanning on: the function reads the verdicts before it bounces.
    expect(answerRule.ScanEnabled).toBe(true);
    expect(answerRule.Actions).toEqual([{ LambdaAction: { FunctionArn: { 'Fn::GetAtt': [fnId, 'Arn'] }, InvocationType: 'RequestResponse' } }]);
    // The S3 rule comes after it.
    const store = storeRule(s.emailIn)!;
    expect(store.Properties.After).toEqual({ Ref: answerId });
    s.emailIn.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      FunctionName: { 'Fn::GetAtt': [fnId, 'Arn'] },
      Principal: 'ses.amazonaws.com',
      SourceAccount: Match.anyValue(),
    });
    const props = resourcesOf(s.emailIn, 'AWS::Lambda::Function')[fnId]!.Properties;
    // SES waits at most 30 s for a RequestResponse action.
    expect(props.Timeout).toBe(ANSWER_RECIPIENTS_TIMEOUT.toSeconds());
    expect(ANSWER_RECIPIENTS_TIMEOUT.toSeconds()).toBeLessThan(30);
    const grants = grantsOf(s.emailIn, fn);
    const actions = grants.flatMap((g) => g.actions);
    expect(actions).toContain('ses:SendBounce');
    expect(actions).toContain('dynamodb:GetItem');
    expect(actions.filter((a) => a.startsWith('ses:'))).toEqual(['ses:SendBounce']);
    expect(actions.some((a) => a.startsWith('s3:'))).toBe(false);
    const bounce = grants.find((g) => g.actions.includes('ses:SendBounce'))!;
    expect(JSON.stringify(bounce.resources)).toMatch(new RegExp(`:identity/${EMAIL_IN_DOMAIN.replace(/\./g, '\\.')}"`));
  });
});
