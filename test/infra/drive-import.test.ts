import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVE_IMPORT_RATE, DRIVE_IMPORT_TIMEOUT } from '../../infra/constructs/drive-import-schedule';
import { LEASE_SECONDS } from '../../lambdas/core/drive-import/run';
import { jobHandlers } from '../../shared/routes';
import type { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { HandlerFunction } from '../../infra/constructs/handler-function';
import { driveClientsFrom, type ReceiptsStacks } from '../../infra/stacks/receipts-stacks';
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
    expect(env).toMatchObject({ GOOGLE_CLIENT_ID: DRIVE_CLIENTS.googleClientId, GOOGLE_CLIENT_SECRET_ID: DRIVE_CLIENTS.googleClientSecretName, DROPBOX_APP_KEY: DRIVE_CLIENTS.dropboxAppKey });
    expect(env).not.toHaveProperty('GOOGLE_CLIENT_SECRET');
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

  it('keeps Google\'s client secret in Secrets Manager: no function has it, only the token functions may read it', () => {
    // The functions that exchange or refresh Google tokens (they declare googleClientSecret in shared/routes.ts).
    const tokenFunctions = new Set<HandlerFunction>([
      s.stacks.processing.driveImport!.fn,
      ...['POST /company/service/drive/authorize', 'GET /company/service/drive/folders', 'POST /company/service/drive/folders'].map((k) => s.stacks.api.routeFunctions.get(k)! as HandlerFunction),
    ]);
    const all = (Object.values(s.stacks) as Stack[]).flatMap((st) => st.node.findAll().filter((c): c is HandlerFunction => c instanceof HandlerFunction));
    expect(all.length).toBeGreaterThan(tokenFunctions.size);
    const templates = new Map<Stack, Template>();
    const templateOf = (fn: HandlerFunction) => {
      const stack = fn.stack;
      if (!templates.has(stack)) templates.set(stack, Template.fromStack(stack));
      return templates.get(stack)!;
    };
    const secretArnPattern = /secretsmanager:.*:secret:receipts\/google-client-secret-\?\?\?\?\?\?/;
    for (const fn of all) {
      const t = templateOf(fn);
      const env = ((resourcesOf(t, 'AWS::Lambda::Function')[logicalIdOf(fn)]!.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {});
      // The value itself is in no environment (CDK never sets GOOGLE_CLIENT_SECRET), only the secret's name, and that
      // only where it may be read.
      expect(env, fn.handlerPath).not.toHaveProperty('GOOGLE_CLIENT_SECRET');
      const reads = grantsOf(t, fn).filter((g) => g.actions.includes('secretsmanager:GetSecretValue'));
      if (tokenFunctions.has(fn)) {
        expect(env.GOOGLE_CLIENT_SECRET_ID, fn.handlerPath).toBe(DRIVE_CLIENTS.googleClientSecretName);
        expect(reads, fn.handlerPath).toHaveLength(1);
        expect(reads[0]!.resources, fn.handlerPath).toHaveLength(1);
        expect(JSON.stringify(reads[0]!.resources[0]), fn.handlerPath).toMatch(secretArnPattern);
      } else {
        expect(env, fn.handlerPath).not.toHaveProperty('GOOGLE_CLIENT_SECRET_ID');
        expect(reads, fn.handlerPath).toEqual([]);
        expect(grantsOf(t, fn).flatMap((g) => g.actions).some((a) => a.startsWith('secretsmanager:')), fn.handlerPath).toBe(false);
      }
    }
    // The connect route builds the authorisation URL (client id only) and switches off (revoke): no secret read,
    // and its bundle leaves the Secrets Manager adapter out; the token routes bundle it.
    const sw = s.stacks.api.routeFunctions.get('GET /company/service/drive/switch')! as HandlerFunction;
    expect(tokenFunctions.has(sw)).toBe(false);
    expect(s.bundle.get(sw.handlerPath).awsSdkPackages).not.toContain('@aws-sdk/client-secrets-manager');
    expect(s.bundle.get(sw.handlerPath).leftOut).toContain('lambdas/adapters/secrets-manager/secret-value.ts');
    for (const fn of tokenFunctions) expect(s.bundle.get(fn.handlerPath).awsSdkPackages, fn.handlerPath).toContain('@aws-sdk/client-secrets-manager');
    // Nothing in any template names the old plaintext variable or context.
    for (const stack of Object.values(s.stacks) as ReceiptsStacks[keyof ReceiptsStacks][]) {
      const json = JSON.stringify(Template.fromStack(stack).toJSON());
      expect(json, stack.stackName).not.toMatch(/"GOOGLE_CLIENT_SECRET"/);
    }
  });
});

describe('driveClientsFrom (deploy-time context of the Drive imports)', () => {
  const contextOf = (values: Record<string, string>) => (key: string) => values[key];

  it('takes the Google client secret by its Secrets Manager name or ARN', () => {
    expect(driveClientsFrom(contextOf({ googleClientId: ' id ', googleClientSecretName: ' receipts/google ', dropboxAppKey: 'k' }))).toEqual({
      googleClientId: 'id',
      googleClientSecretName: 'receipts/google',
      dropboxAppKey: 'k',
    });
    const arn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:receipts/google-AbC123';
    expect(driveClientsFrom(contextOf({ googleClientId: 'id', googleClientSecretName: arn })).googleClientSecretName).toBe(arn);
  });

  it('accepts nothing: the Google Drive import is then not configured', () => {
    expect(driveClientsFrom(contextOf({}))).toEqual({ googleClientId: '', googleClientSecretName: '', dropboxAppKey: '' });
  });

  it('refuses a plaintext googleClientSecret, pointing to googleClientSecretName', () => {
    expect(() => driveClientsFrom(contextOf({ googleClientId: 'id', googleClientSecret: 'plain-secret' }))).toThrow(/googleClientSecretName/);
    // Even next to a secret name: the value must not be in the context at all.
    expect(() => driveClientsFrom(contextOf({ googleClientId: 'id', googleClientSecret: 'plain-secret', googleClientSecretName: 'n' }))).toThrow(/Secrets Manager/);
    // The error does not repeat the value.
    expect(() => driveClientsFrom(contextOf({ googleClientSecret: 'plain-secret' }))).not.toThrow(/plain-secret/);
  });

  it('refuses a client id without the secret\'s name, the name without the id, and a name Secrets Manager would not have', () => {
    expect(() => driveClientsFrom(contextOf({ googleClientId: 'id' }))).toThrow(/googleClientSecretName/);
    expect(() => driveClientsFrom(contextOf({ googleClientSecretName: 'n' }))).toThrow(/googleClientId/);
    expect(() => driveClientsFrom(contextOf({ googleClientId: 'id', googleClientSecretName: 'bad name!' }))).toThrow(/neither a Secrets Manager secret name nor its ARN/);
  });
});
