import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROCESS_PREFIX, UPLOAD_PREFIX } from '../../lambdas/core/documents/files';
import { MAX_RECEIVES } from '../../lambdas/jobs/process-document';
import { jobHandlers } from '../../shared/routes';
import {
  PROCESSING_PREFIXES,
  PROCESS_DOCUMENT_TIMEOUT,
  UPLOADS_MAX_RECEIVE_COUNT,
  UPLOADS_VISIBILITY_TIMEOUT,
} from '../../infra/stacks/processing-stack';
import { createReceiptsStacks } from '../../infra/stacks/receipts-stacks';
import { PROCESSING_LIMITS, STUCK_PROCESSING_AFTER_MS } from '../../shared/processing-limits';
import { TextractRecogniser } from '../../lambdas/adapters/textract/index';
import { IMPORT_PREFIXES } from '../../infra/constructs/import-job';
import {
  fakeWebDist,
  GLOBAL_ADMINS,
  grantsOf,
  logicalIdOf,
  newApp,
  removeTempDirs,
  resourcesOf,
  SYNTH_TIMEOUT_MS,
  synthReceipts,
  type Synth,
} from './synth';

afterAll(removeTempDirs);

describe('ProcessingStack', () => {
  let s: Synth;
  let queueId: string;
  let dlqId: string;
  beforeAll(async () => {
    s = await synthReceipts();
    queueId = logicalIdOf(s.stacks.processing.uploadsQueue);
    dlqId = logicalIdOf(s.stacks.processing.deadLetterQueue);
  }, SYNTH_TIMEOUT_MS);

  it('has the uploads queue with a dead-letter queue after the job’s number of receives', () => {
    // Two of their own, two of the master-data import (test/infra/import-job.test.ts).
    s.processing.resourceCountIs('AWS::SQS::Queue', 4);
    s.processing.hasResourceProperties('AWS::SQS::Queue', {
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] }, maxReceiveCount: UPLOADS_MAX_RECEIVE_COUNT },
      VisibilityTimeout: UPLOADS_VISIBILITY_TIMEOUT.toSeconds(),
      SqsManagedSseEnabled: true,
    });
    expect(UPLOADS_MAX_RECEIVE_COUNT).toBe(MAX_RECEIVES);
  });

  it('makes the visibility timeout longer than the job function’s timeout', () => {
    expect(UPLOADS_VISIBILITY_TIMEOUT.toSeconds()).toBeGreaterThan(PROCESS_DOCUMENT_TIMEOUT.toSeconds());
    const fn = s.stacks.processing.processDocument!;
    const props = resourcesOf(s.processing, 'AWS::Lambda::Function')[logicalIdOf(fn)]!.Properties;
    expect(props.Timeout).toBe(PROCESS_DOCUMENT_TIMEOUT.toSeconds());
    expect(UPLOADS_VISIBILITY_TIMEOUT.toSeconds()).toBeGreaterThan(props.Timeout as number);
  });

  it('receives object-created notifications of the documents bucket for the prefixes the code writes', () => {
    expect([...PROCESSING_PREFIXES].sort()).toEqual([UPLOAD_PREFIX, PROCESS_PREFIX].sort());
    const [notifications] = Object.values(resourcesOf(s.processing, 'Custom::S3BucketNotifications'));
    const config = notifications!.Properties.NotificationConfiguration as {
      QueueConfigurations: Array<{ Events: string[]; Filter: { Key: { FilterRules: Array<{ Name: string; Value: string }> } }; QueueArn: unknown }>;
    };
    // Plus the imports/ prefix of the master-data import (test/infra/import-job.test.ts).
    expect(config.QueueConfigurations).toHaveLength(PROCESSING_PREFIXES.length + IMPORT_PREFIXES.length);
    for (const prefix of PROCESSING_PREFIXES) {
      expect(config.QueueConfigurations).toContainEqual({
        Events: ['s3:ObjectCreated:*'],
        Filter: { Key: { FilterRules: [{ Name: 'prefix', Value: prefix }] } },
        QueueArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
      });
    }
    expect(JSON.stringify(notifications!.Properties.BucketName)).toMatch(/DocumentsBucket/);
  });

  it('lets S3 (this bucket only) send to the queue', () => {
    s.processing.hasResourceProperties('AWS::SQS::QueuePolicy', {
      Queues: [{ Ref: queueId }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Allow',
            Principal: { Service: 's3.amazonaws.com' },
            Action: Match.arrayWith(['sqs:SendMessage']),
            Condition: { ArnLike: { 'aws:SourceArn': Match.anyValue() } },
          }),
        ]),
      },
    });
  });

  it('consumes the queue with jobHandlers.processDocument, one message at a time, reporting partial failures', () => {
    expect(s.entries.jobs.processDocument).toBe(jobHandlers.processDocument);
    const fn = s.stacks.processing.processDocument!;
    expect(fn.handlerPath).toBe(jobHandlers.processDocument);
    s.processing.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
      FunctionName: { Ref: logicalIdOf(fn) },
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    const actions = grantsOf(s.processing, fn).flatMap((g) => g.actions);
    expect(actions).toEqual(expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'dynamodb:PutItem', 's3:GetObject', 's3:PutObject']));
  });

  it('runs the job on Node 22 with its bundle’s architecture', () => {
    const fn = s.stacks.processing.processDocument!;
    const props = resourcesOf(s.processing, 'AWS::Lambda::Function')[logicalIdOf(fn)]!.Properties;
    expect(props.Runtime).toBe('nodejs22.x');
    expect(props.Architectures).toEqual([s.bundle.get(fn.handlerPath).architecture]);
    // Fixed: the same from any deploying machine (its native binaries are fetched for it).
    expect(props.Architectures).toEqual(['arm64']);
  });

  it('waits for Textract within the job’s timeout, with room for rendering and saving', () => {
    expect(PROCESS_DOCUMENT_TIMEOUT.toSeconds()).toBe(PROCESSING_LIMITS.functionTimeoutSeconds);
    expect(PROCESSING_LIMITS.textractMaxWaitSeconds + 120).toBeLessThanOrEqual(PROCESS_DOCUMENT_TIMEOUT.toSeconds());
    expect(new TextractRecogniser({ client: {} as never })['maxWaitMs']).toBe(PROCESSING_LIMITS.textractMaxWaitSeconds * 1000);
    expect(UPLOADS_VISIBILITY_TIMEOUT.toSeconds()).toBeGreaterThanOrEqual(6 * PROCESS_DOCUMENT_TIMEOUT.toSeconds());
    // The sweeper waits until every delivery has had its visibility timeout.
    expect(STUCK_PROCESSING_AFTER_MS).toBeGreaterThan(UPLOADS_MAX_RECEIVE_COUNT * UPLOADS_VISIBILITY_TIMEOUT.toMilliseconds());
  });

  it('consumes the dead-letter queue with jobHandlers.processDocumentDeadLetter', () => {
    const fn = s.stacks.processing.processDocumentDeadLetter!;
    expect(fn.handlerPath).toBe(jobHandlers.processDocumentDeadLetter);
    s.processing.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [dlqId, 'Arn'] },
      FunctionName: { Ref: logicalIdOf(fn) },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    const actions = grantsOf(s.processing, fn).flatMap((g) => g.actions);
    expect(actions).toEqual(expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'dynamodb:PutItem']));
  });

  it('runs the sweeper of documents stuck in processing on a schedule', () => {
    const fn = s.stacks.processing.sweepProcessing!;
    expect(fn.handlerPath).toBe(jobHandlers.sweepProcessing);
    s.processing.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: `rate(${PROCESSING_LIMITS.sweepEveryMinutes} minutes)`,
      State: 'ENABLED',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [logicalIdOf(fn), 'Arn'] } })],
    });
    s.processing.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'events.amazonaws.com',
      FunctionName: { 'Fn::GetAtt': [logicalIdOf(fn), 'Arn'] },
    });
    // Companies (A7, gsi2) and their members (A5, gsi1), counts of company and own scopes (D15), documents in
    // processing (D4, gsi1), then the failed document's write and its live event (a company's or its owner's channel).
    const grants = grantsOf(s.processing, fn);
    const tableGrant = grants.find((g) => g.actions.includes('dynamodb:Query'));
    expect(tableGrant?.actions).toEqual(expect.arrayContaining(['dynamodb:Query', 'dynamodb:BatchGetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']));
    expect(JSON.stringify(tableGrant?.resources)).toContain('/index/gsi1');
    expect(JSON.stringify(tableGrant?.resources)).toContain('/index/gsi2');
    expect(grants.flatMap((g) => g.actions)).toContain('execute-api:ManageConnections');
    // The leftovers of deleted documents (D18): the files of the documents bucket a failed delete left.
    const bucketActions = grants.filter((g) => JSON.stringify(g.resources).includes('DocumentsBucket')).flatMap((g) => g.actions);
    expect(bucketActions).toEqual(expect.arrayContaining(['s3:DeleteObject', 's3:ListBucket']));
  });

  it('without a jobHandlers export: queue, DLQ and notifications only, no consumer', async () => {
    const stacks = createReceiptsStacks(newApp(), {
      bundle: s.bundle,
      entries: { ...s.entries, jobs: {} },
      globalAdminEmails: GLOBAL_ADMINS,
      webDistDir: fakeWebDist(),
    });
    expect(stacks.processing.processDocument).toBeUndefined();
    const template = Template.fromStack(stacks.processing);
    template.resourceCountIs('AWS::SQS::Queue', 4);
    template.resourceCountIs('Custom::S3BucketNotifications', 1);
    template.resourceCountIs('AWS::Lambda::EventSourceMapping', 0);
  });
});
