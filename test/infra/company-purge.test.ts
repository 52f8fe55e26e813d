/**
 * Company deletion: the purge queue (IntegrationsStack, with its dead-letter queue), the purge job consuming it
 * (ProcessingStack), and who may send to it: DELETE /company and the job itself, nobody else.
 */
import { Template } from 'aws-cdk-lib/assertions';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PURGE_COMPANY_TIMEOUT, PURGE_MAX_RECEIVE_COUNT, PURGE_VISIBILITY_TIMEOUT } from '../../infra/stacks/integrations-stack';
import { PURGE_RUN_MS } from '../../lambdas/jobs/purge-company';
import { MIN_REMAINING_MS } from '../../lambdas/core/accounts/purge';
import { grantsOf, logicalIdOf, removeTempDirs, resourcesOf, SYNTH_TIMEOUT_MS, synthReceipts, type Synth } from './synth';

afterAll(removeTempDirs);

describe('company purge: queue, job and grants', () => {
  let s: Synth;
  let integrations: Template;
  let job: LambdaFunction;
  beforeAll(async () => {
    s = await synthReceipts();
    integrations = Template.fromStack(s.stacks.integrations);
    job = s.stacks.processing.purgeCompany!;
  }, SYNTH_TIMEOUT_MS);

  const envOf = (template: Template, fn: LambdaFunction) =>
    (resourcesOf(template, 'AWS::Lambda::Function')[logicalIdOf(fn)]!.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
  /** The statements of a function's role that name the purge queue. */
  const purgeQueueGrants = (template: Template, fn: LambdaFunction) =>
    grantsOf(template, fn).filter((g) => JSON.stringify(g.resources).includes(logicalIdOf(s.stacks.integrations.purgeQueue)));

  it('has the purge queue with its dead-letter queue and a visibility of six job timeouts', () => {
    const queueId = logicalIdOf(s.stacks.integrations.purgeQueue);
    const dlqId = logicalIdOf(s.stacks.integrations.purgeDeadLetterQueue);
    const queue = resourcesOf(integrations, 'AWS::SQS::Queue')[queueId]!.Properties;
    expect(queue).toMatchObject({ VisibilityTimeout: PURGE_VISIBILITY_TIMEOUT.toSeconds(), SqsManagedSseEnabled: true });
    expect(queue.RedrivePolicy).toEqual({ deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] }, maxReceiveCount: PURGE_MAX_RECEIVE_COUNT });
    expect(resourcesOf(integrations, 'AWS::SQS::Queue')[dlqId]!.Properties.MessageRetentionPeriod).toBe(14 * 24 * 3600);
    expect(PURGE_VISIBILITY_TIMEOUT.toSeconds()).toBeGreaterThanOrEqual(6 * PURGE_COMPANY_TIMEOUT.toSeconds());
    // The run stops starting pages before the function's timeout; its local budget is the same timeout.
    expect(PURGE_RUN_MS).toBe(PURGE_COMPANY_TIMEOUT.toMilliseconds());
    expect(MIN_REMAINING_MS).toBeLessThan(PURGE_COMPANY_TIMEOUT.toMilliseconds());
  });

  it('wires the purge job to the queue, one message at a time with partial batch failures', () => {
    expect(job).toBeDefined();
    s.processing.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logicalIdOf(job) },
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    const fn = resourcesOf(s.processing, 'AWS::Lambda::Function')[logicalIdOf(job)]!.Properties;
    expect(fn.Timeout).toBe(PURGE_COMPANY_TIMEOUT.toSeconds());
    expect(Object.keys(envOf(s.processing, job))).toEqual(expect.arrayContaining(['COMPANY_PURGE_QUEUE_URL', 'TABLE_NAME', 'DOCUMENTS_BUCKET']));
  });

  it('grants the job the table, deletes in the documents bucket and sending to its own queue, and no key', () => {
    const actions = grantsOf(s.processing, job).flatMap((g) => g.actions);
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:Query', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem', 'dynamodb:PutItem']));
    expect(actions).toEqual(expect.arrayContaining(['s3:DeleteObject', 's3:ListBucket', 'sqs:SendMessage', 'sqs:ReceiveMessage', 'sqs:DeleteMessage']));
    expect(actions.some((a) => a.startsWith('kms:') || a.startsWith('ses:') || a.startsWith('textract:'))).toBe(false);
    expect(purgeQueueGrants(s.processing, job).flatMap((g) => g.actions)).toContain('sqs:SendMessage');
  });

  it('lets DELETE /company and DELETE /user (the companies an account alone has go with it) queue purges, and no other route', () => {
    const deleting = ['DELETE /company', 'DELETE /user'];
    for (const key of deleting) {
      const del = s.stacks.api.routeFunctions.get(key)!;
      expect(purgeQueueGrants(s.api, del).flatMap((g) => g.actions), key).toContain('sqs:SendMessage');
      expect(Object.keys(envOf(s.api, del)), key).toContain('COMPANY_PURGE_QUEUE_URL');
    }
    const others = [...s.stacks.api.routeFunctions.entries()].filter(([key, fn]) => !deleting.includes(key) && purgeQueueGrants(s.api, fn).length > 0);
    expect(others.map(([key]) => key)).toEqual([]);
  });
});
