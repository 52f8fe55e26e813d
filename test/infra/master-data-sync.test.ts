import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNC_JOB_TIMEOUT, SYNC_SCHEDULE_RATE } from '../../infra/constructs/master-data-sync';
import { SYNC_CONTINUE_TIMEOUT, SYNC_MAX_RECEIVE_COUNT, SYNC_VISIBILITY_TIMEOUT } from '../../infra/stacks/integrations-stack';
import { Template } from 'aws-cdk-lib/assertions';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { SCHEDULE_BUDGET_MS } from '../../lambdas/jobs/sync-master-data';
import { jobHandlers } from '../../shared/routes';
import { grantsOf, logicalIdOf, removeTempDirs, resourcesOf, SYNTH_TIMEOUT_MS, synthReceipts, type Synth } from './synth';

afterAll(removeTempDirs);

describe('master-data imports: schedule, sync queue and jobs (ProcessingStack, IntegrationsStack)', () => {
  let s: Synth;
  beforeAll(async () => {
    s = await synthReceipts();
  }, SYNTH_TIMEOUT_MS);

  it('runs the sync job on an EventBridge schedule, without retries of a timed-out run', () => {
    const sync = s.stacks.processing.masterDataSync!;
    expect(sync).toBeDefined();
    const fnId = logicalIdOf(sync.fn);
    s.processing.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: `rate(${SYNC_SCHEDULE_RATE.toMinutes()} minutes)`,
      State: 'ENABLED',
      Targets: [{ Arn: { 'Fn::GetAtt': [fnId, 'Arn'] }, Id: 'Target0', RetryPolicy: { MaximumRetryAttempts: 0 } }],
    });
    s.processing.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'events.amazonaws.com',
      FunctionName: { 'Fn::GetAtt': [fnId, 'Arn'] },
    });
  });

  it('gives the job the budget of its timeout, the table and the credentials key', () => {
    const sync = s.stacks.processing.masterDataSync!;
    const fn = resourcesOf(s.processing, 'AWS::Lambda::Function')[logicalIdOf(sync.fn)]!.Properties;
    expect(fn.Timeout).toBe(SYNC_JOB_TIMEOUT.toSeconds());
    expect(SCHEDULE_BUDGET_MS).toBeLessThanOrEqual(SYNC_JOB_TIMEOUT.toMilliseconds() - 60_000);
    const env = (fn.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(Object.keys(env)).toEqual(expect.arrayContaining(['TABLE_NAME', 'SECRETS_KEY_ID']));
    const actions = grantsOf(s.processing, sync.fn).flatMap((g) => g.actions);
    expect(actions).toEqual(expect.arrayContaining(['kms:Decrypt', 'dynamodb:UpdateItem', 'dynamodb:Query']));
    expect(jobHandlers.syncMasterData).toBe('jobs/sync-master-data');
  });

  it('keeps the status route away from the credentials key; the mapping route opens them to check the mapping', () => {
    const status = s.stacks.api.routeFunctions.get('GET /company/service/imports')!;
    expect(status).toBeDefined();
    expect(grantsOf(s.api, status).flatMap((g) => g.actions).some((a) => a.startsWith('kms:'))).toBe(false);
    const mapping = s.stacks.api.routeFunctions.get('PUT /company/service/sql/mapping')!;
    expect(mapping).toBeDefined();
    expect(grantsOf(s.api, mapping).flatMap((g) => g.actions)).toEqual(expect.arrayContaining(['kms:Decrypt', 'dynamodb:UpdateItem']));
  });

  /** The statements of a function's role that name the sync queue. */
  const syncQueueGrants = (template: Template, fn: LambdaFunction) =>
    grantsOf(template, fn).filter((g) => JSON.stringify(g.resources).includes(logicalIdOf(s.stacks.integrations.syncQueue)));

  it('has the sync queue with its dead-letter queue and a visibility of six job timeouts', () => {
    const integrations = Template.fromStack(s.stacks.integrations);
    const queueId = logicalIdOf(s.stacks.integrations.syncQueue);
    const dlqId = logicalIdOf(s.stacks.integrations.syncDeadLetterQueue);
    const queue = resourcesOf(integrations, 'AWS::SQS::Queue')[queueId]!.Properties;
    expect(queue).toMatchObject({ VisibilityTimeout: SYNC_VISIBILITY_TIMEOUT.toSeconds(), SqsManagedSseEnabled: true });
    expect(queue.RedrivePolicy).toEqual({ deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] }, maxReceiveCount: SYNC_MAX_RECEIVE_COUNT });
    expect(SYNC_VISIBILITY_TIMEOUT.toSeconds()).toBeGreaterThanOrEqual(6 * SYNC_CONTINUE_TIMEOUT.toSeconds());
  });

  it('wires the continuing job to the sync queue, one message at a time with partial batch failures, with the table, the key and its own queue', () => {
    const job = s.stacks.processing.masterDataSync!.continueFn!;
    expect(job).toBeDefined();
    s.processing.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logicalIdOf(job) },
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 2 },
    });
    const fn = resourcesOf(s.processing, 'AWS::Lambda::Function')[logicalIdOf(job)]!.Properties;
    expect(fn.Timeout).toBe(SYNC_CONTINUE_TIMEOUT.toSeconds());
    const env = (fn.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(Object.keys(env)).toEqual(expect.arrayContaining(['TABLE_NAME', 'SECRETS_KEY_ID', 'MASTER_DATA_SYNC_QUEUE_URL']));
    const actions = grantsOf(s.processing, job).flatMap((g) => g.actions);
    expect(actions).toEqual(expect.arrayContaining(['kms:Decrypt', 'dynamodb:UpdateItem', 'sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:SendMessage']));
    expect(actions.some((a) => a.startsWith('s3:') || a.startsWith('ses:') || a.startsWith('textract:'))).toBe(false);
    expect(syncQueueGrants(s.processing, job).flatMap((g) => g.actions)).toContain('sqs:SendMessage');
    // The schedule's job hands on what is still partial at its end: it may send, not receive.
    const schedule = s.stacks.processing.masterDataSync!.fn;
    expect(syncQueueGrants(s.processing, schedule).flatMap((g) => g.actions)).toContain('sqs:SendMessage');
    expect(syncQueueGrants(s.processing, schedule).flatMap((g) => g.actions)).not.toContain('sqs:ReceiveMessage');
    const scheduleEnv = (resourcesOf(s.processing, 'AWS::Lambda::Function')[logicalIdOf(schedule)]!.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(Object.keys(scheduleEnv)).toContain('MASTER_DATA_SYNC_QUEUE_URL');
  });

  it('lets sync now hand runs to the sync queue, and no other route', () => {
    const syncNow = s.stacks.api.routeFunctions.get('POST /company/service/imports/sync')!;
    expect(syncQueueGrants(s.api, syncNow).flatMap((g) => g.actions)).toContain('sqs:SendMessage');
    const others = [...s.stacks.api.routeFunctions.entries()].filter(([key, fn]) => key !== 'POST /company/service/imports/sync' && syncQueueGrants(s.api, fn).length > 0);
    expect(others.map(([key]) => key)).toEqual([]);
  });
});
