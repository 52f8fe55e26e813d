import { Match } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_MAX_RECEIVES, IMPORT_PREFIX } from '../../lambdas/core/master-data/import/service';
import { IMPORT_MAX_RECEIVES as JOB_MAX_RECEIVES } from '../../lambdas/jobs/import-master-data';
import {
  IMPORT_JOB_TIMEOUT,
  IMPORT_PREFIXES,
  IMPORTS_MAX_RECEIVE_COUNT,
  IMPORTS_VISIBILITY_TIMEOUT,
} from '../../infra/constructs/import-job';
import { jobHandlers, routes } from '../../shared/routes';
import { grantsOf, logicalIdOf, removeTempDirs, resourcesOf, SYNTH_TIMEOUT_MS, synthReceipts, type Synth } from './synth';

afterAll(removeTempDirs);

describe('master-data import job (ProcessingStack)', () => {
  let s: Synth;
  let queueId: string;
  let dlqId: string;
  beforeAll(async () => {
    s = await synthReceipts();
    queueId = logicalIdOf(s.stacks.processing.importJob.queue);
    dlqId = logicalIdOf(s.stacks.processing.importJob.deadLetterQueue);
  }, SYNTH_TIMEOUT_MS);

  it('has its own queue with a dead-letter queue after the job’s number of receives', () => {
    s.processing.hasResourceProperties('AWS::SQS::Queue', {
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] }, maxReceiveCount: IMPORTS_MAX_RECEIVE_COUNT },
      VisibilityTimeout: IMPORTS_VISIBILITY_TIMEOUT.toSeconds(),
      SqsManagedSseEnabled: true,
    });
    const dlq = resourcesOf(s.processing, 'AWS::SQS::Queue')[dlqId]!.Properties;
    expect(dlq.MessageRetentionPeriod).toBe(14 * 24 * 3600);
    expect(IMPORTS_MAX_RECEIVE_COUNT).toBe(IMPORT_MAX_RECEIVES);
    expect(JOB_MAX_RECEIVES).toBe(IMPORT_MAX_RECEIVES);
  });

  it('receives object-created notifications of the documents bucket for imports/, the prefix the upload route signs', () => {
    expect([...IMPORT_PREFIXES]).toEqual([IMPORT_PREFIX]);
    const [notifications] = Object.values(resourcesOf(s.processing, 'Custom::S3BucketNotifications'));
    const config = notifications!.Properties.NotificationConfiguration as { QueueConfigurations: unknown[] };
    expect(config.QueueConfigurations).toContainEqual({
      Events: ['s3:ObjectCreated:*'],
      Filter: { Key: { FilterRules: [{ Name: 'prefix', Value: IMPORT_PREFIX }] } },
      QueueArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
    });
  });

  it('lets S3 send to the queue', () => {
    s.processing.hasResourceProperties('AWS::SQS::QueuePolicy', {
      Queues: [{ Ref: queueId }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Allow', Principal: { Service: 's3.amazonaws.com' }, Action: Match.arrayWith(['sqs:SendMessage']) }),
        ]),
      },
    });
  });

  it('consumes the queue with jobHandlers.importMasterData, one message at a time, reporting partial failures', () => {
    expect(s.entries.jobs.importMasterData).toBe(jobHandlers.importMasterData);
    const fn = s.stacks.processing.importJob.fn!;
    expect(fn.handlerPath).toBe(jobHandlers.importMasterData);
    s.processing.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
      FunctionName: { Ref: logicalIdOf(fn) },
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 3 },
    });
    const props = resourcesOf(s.processing, 'AWS::Lambda::Function')[logicalIdOf(fn)]!.Properties;
    expect(props.Timeout).toBe(IMPORT_JOB_TIMEOUT.toSeconds());
    expect(props.MemorySize).toBe(2048);
    expect(props.Runtime).toBe('nodejs22.x');
    expect(IMPORTS_VISIBILITY_TIMEOUT.toSeconds()).toBeGreaterThan(IMPORT_JOB_TIMEOUT.toSeconds());
    const actions = grantsOf(s.processing, fn).flatMap((g) => g.actions);
    expect(actions).toEqual(expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'dynamodb:PutItem', 's3:GetObject', 's3:DeleteObject']));
  });

  it('has API routes with handlers for the upload and the result', () => {
    const paths = routes.filter((r) => r.path.startsWith('/upload/import')).map((r) => `${r.method} ${r.path} ${r.auth}`);
    expect(paths).toEqual(['GET /upload/import user', 'GET /upload/import/{id} user']);
  });
});
