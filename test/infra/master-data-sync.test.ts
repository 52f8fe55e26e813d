import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNC_JOB_TIMEOUT, SYNC_SCHEDULE_RATE } from '../../infra/constructs/master-data-sync';
import { SCHEDULE_BUDGET_MS } from '../../lambdas/jobs/sync-master-data';
import { jobHandlers } from '../../shared/routes';
import { grantsOf, logicalIdOf, removeTempDirs, resourcesOf, SYNTH_TIMEOUT_MS, synthReceipts, type Synth } from './synth';

afterAll(removeTempDirs);

describe('master-data imports: schedule and job (ProcessingStack)', () => {
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

  it('keeps the status and mapping routes away from the credentials key', () => {
    for (const key of ['GET /company/service/imports', 'PUT /company/service/sql/mapping']) {
      const fn = s.stacks.api.routeFunctions.get(key)!;
      expect(fn, key).toBeDefined();
      const actions = grantsOf(s.api, fn).flatMap((g) => g.actions);
      expect(actions.some((a) => a.startsWith('kms:')), key).toBe(false);
    }
  });
});
