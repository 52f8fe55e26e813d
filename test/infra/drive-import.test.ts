import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVE_IMPORT_RATE, DRIVE_IMPORT_TIMEOUT } from '../../infra/constructs/drive-import-schedule';
import { LEASE_SECONDS } from '../../lambdas/core/drive-import/run';
import { jobHandlers } from '../../shared/routes';
import { DRIVE_CLIENTS, grantsOf, logicalIdOf, removeTempDirs, resourcesOf, SYNTH_TIMEOUT_MS, synthReceipts, type Synth } from './synth';

afterAll(removeTempDirs);

describe('Google Drive and Dropbox import schedule (ProcessingStack)', () => {
  let s: Synth;
  beforeAll(async () => {
    s = await synthReceipts();
  }, SYNTH_TIMEOUT_MS);

  it('runs jobHandlers.importDriveFiles from an EventBridge rate rule', () => {
    const schedule = s.stacks.processing.driveImport!;
    expect(schedule).toBeDefined();
    expect(schedule.fn.handlerPath).toBe(jobHandlers.importDriveFiles);
    s.processing.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: `rate(${DRIVE_IMPORT_RATE.toMinutes()} minutes)`,
      State: 'ENABLED',
      Targets: [{ Arn: { 'Fn::GetAtt': [logicalIdOf(schedule.fn), 'Arn'] }, Id: 'Target0', RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 600 } }],
    });
    // EventBridge may invoke the function.
    s.processing.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      FunctionName: { 'Fn::GetAtt': [logicalIdOf(schedule.fn), 'Arn'] },
      Principal: 'events.amazonaws.com',
    });
  });

  it('gives the job the OAuth clients, the table, the bucket and the credentials key, and a timeout inside its lease', () => {
    const fn = s.stacks.processing.driveImport!.fn;
    const props = resourcesOf(s.processing, 'AWS::Lambda::Function')[logicalIdOf(fn)]!.Properties;
    const env = (props.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(env).toMatchObject({ GOOGLE_CLIENT_ID: DRIVE_CLIENTS.googleClientId, GOOGLE_CLIENT_SECRET: DRIVE_CLIENTS.googleClientSecret, DROPBOX_APP_KEY: DRIVE_CLIENTS.dropboxAppKey });
    expect(Object.keys(env)).toEqual(expect.arrayContaining(['TABLE_NAME', 'DOCUMENTS_BUCKET', 'SECRETS_KEY_ID', 'APP_URL']));
    expect(env).not.toHaveProperty('GOOGLE_OAUTH_URL');
    expect(env).not.toHaveProperty('DROPBOX_URL');
    expect(props.Timeout).toBe(DRIVE_IMPORT_TIMEOUT.toSeconds());
    expect(DRIVE_IMPORT_TIMEOUT.toSeconds()).toBeLessThan(LEASE_SECONDS);
    const actions = grantsOf(s.processing, fn).flatMap((g) => g.actions);
    expect(actions).toEqual(expect.arrayContaining(['kms:Decrypt', 'kms:Encrypt', 's3:PutObject']));
    expect(actions.some((a) => a.startsWith('dynamodb:'))).toBe(true);
  });

  it('gives the connect routes the OAuth clients, and the status route no key', () => {
    for (const key of ['GET /company/service/drive/switch', 'POST /company/service/drive/authorize']) {
      const fn = s.stacks.api.routeFunctions.get(key)!;
      const env = (resourcesOf(s.api, 'AWS::Lambda::Function')[logicalIdOf(fn)]!.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(env, key).toMatchObject({ GOOGLE_CLIENT_ID: DRIVE_CLIENTS.googleClientId, DROPBOX_APP_KEY: DRIVE_CLIENTS.dropboxAppKey });
      expect(Object.keys(env), key).toContain('APP_URL');
    }
    const status = s.stacks.api.routeFunctions.get('GET /company/service/drive/status')!;
    expect(grantsOf(s.api, status).flatMap((g) => g.actions).some((a) => a.startsWith('kms:'))).toBe(false);
  });
});
