import { Template } from 'aws-cdk-lib/assertions';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_DOCUMENT_TIMEOUT, EXPORT_MAX_RECEIVE_COUNT, EXPORT_VISIBILITY_TIMEOUT } from '../../infra/stacks/integrations-stack';
import { grantsOf, logicalIdOf, removeTempDirs, resourcesOf, SYNTH_TIMEOUT_MS, synthReceipts, type Synth } from './synth';

afterAll(removeTempDirs);

const actionsOf = (template: Template, fn: LambdaFunction) => grantsOf(template, fn).flatMap((g) => g.actions);

describe('IntegrationsStack: credentials key and export queue', () => {
  let s: Synth;
  let integrations: Template;
  /** Every function of the app with the template it lives in. */
  let functions: { name: string; fn: LambdaFunction; template: Template }[];
  beforeAll(async () => {
    s = await synthReceipts();
    integrations = Template.fromStack(s.stacks.integrations);
    functions = [
      ...[...s.stacks.api.routeFunctions.entries()].map(([name, fn]) => ({ name, fn, template: s.api })),
      ...[...s.stacks.api.webSocketFunctions.entries()].map(([name, fn]) => ({ name: `ws ${name}`, fn, template: s.api })),
      ...(s.stacks.processing.processDocument ? [{ name: 'job processDocument', fn: s.stacks.processing.processDocument, template: s.processing }] : []),
      ...(s.stacks.processing.exportDocument ? [{ name: 'job exportDocument', fn: s.stacks.processing.exportDocument, template: s.processing }] : []),
      // Google Drive and Dropbox imports: the schedule's job.
      ...(s.stacks.processing.driveImport ? [{ name: 'job importDriveFiles', fn: s.stacks.processing.driveImport.fn, template: s.processing }] : []),
      // Master-data imports: the schedule's job.
      ...(s.stacks.processing.masterDataSync ? [{ name: 'job syncMasterData', fn: s.stacks.processing.masterDataSync.fn, template: s.processing }] : []),
      // Master-data imports: the job continuing runs that stopped for now (sync queue).
      ...(s.stacks.processing.masterDataSync?.continueFn ? [{ name: 'job continueMasterDataSync', fn: s.stacks.processing.masterDataSync.continueFn, template: s.processing }] : []),
    ];
  }, SYNTH_TIMEOUT_MS);

  it('has a rotating KMS key whose policy names only the account (no function in the key policy)', () => {
    integrations.resourceCountIs('AWS::KMS::Key', 1);
    const [key] = Object.values(resourcesOf(integrations, 'AWS::KMS::Key'));
    expect(key!.Properties.EnableKeyRotation).toBe(true);
    const statements = (key!.Properties.KeyPolicy as { Statement: { Principal: unknown }[] }).Statement;
    for (const st of statements) expect(JSON.stringify(st.Principal)).toMatch(/:root/);
  });

  it('lets only POST /company/service, the Google Drive / Dropbox connect and folder routes, company deletion, member removal and role change, account deletion, sync now, the SQL mapping and the export, import and sync jobs decrypt credentials', () => {
    const decrypting = functions.filter((f) => actionsOf(f.template, f.fn).some((a) => a === 'kms:Decrypt' || a === 'kms:*')).map((f) => f.name);
    expect(decrypting.sort()).toEqual(
      [
        'POST /company/service',
        'job exportDocument',
        'job importDriveFiles',
        // Master-data imports: sync now, the schedule's job and the continuing job open the SQL / Rivile credentials.
        'POST /company/service/imports/sync',
        // Saving the SQL mapping opens the stored connection to check its tables and columns first.
        'PUT /company/service/sql/mapping',
        'job syncMasterData',
        'job continueMasterDataSync',
        // Google Drive and Dropbox imports: seal the OAuth state's verifier and the grant, open them to call the provider.
        'GET /company/service/drive/switch',
        'POST /company/service/drive/authorize',
        'GET /company/service/drive/folders',
        'POST /company/service/drive/folders',
        // Deleting the company, and removing or lowering to Basic the member who connected an import, open the grants to revoke them.
        'DELETE /company',
        'DELETE /company/users/{id}',
        'PUT /company/users/{id}',
        // Deleting one's own account deletes the companies it alone has and leaves the others: the same grants.
        'DELETE /user',
      ].sort(),
    );
    // Their grant is on this key only.
    const keyArn = { 'Fn::GetAtt': [logicalIdOf(s.stacks.integrations.secretsKey), 'Arn'] };
    for (const f of functions.filter((x) => decrypting.includes(x.name))) {
      const grant = grantsOf(f.template, f.fn).find((g) => g.actions.includes('kms:Decrypt'))!;
      expect(JSON.stringify(grant.resources)).toContain(s.stacks.integrations.stackName);
      expect(JSON.stringify(grant.resources)).not.toBe(JSON.stringify(['*']));
      expect(keyArn['Fn::GetAtt'][0]).toBeTruthy();
    }
  });

  it('has the export queue with a dead-letter queue and a visibility longer than the job', () => {
    // The export queue, the company purge queue (test/infra/company-purge.test.ts) and the master-data sync queue
    // (test/infra/master-data-sync.test.ts), each with its dead-letter queue.
    integrations.resourceCountIs('AWS::SQS::Queue', 6);
    integrations.hasResourceProperties('AWS::SQS::Queue', {
      VisibilityTimeout: EXPORT_VISIBILITY_TIMEOUT.toSeconds(),
      RedrivePolicy: { maxReceiveCount: EXPORT_MAX_RECEIVE_COUNT },
      SqsManagedSseEnabled: true,
    });
    expect(EXPORT_VISIBILITY_TIMEOUT.toSeconds()).toBeGreaterThanOrEqual(6 * EXPORT_DOCUMENT_TIMEOUT.toSeconds());
  });

  it('wires the export job to the export queue with partial batch failures', () => {
    const job = s.stacks.processing.exportDocument!;
    expect(job).toBeDefined();
    s.processing.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logicalIdOf(job) },
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    const env = (resourcesOf(s.processing, 'AWS::Lambda::Function')[logicalIdOf(job)]!.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(Object.keys(env)).toEqual(expect.arrayContaining(['SECRETS_KEY_ID', 'EXPORT_QUEUE_URL', 'TABLE_NAME']));
  });

  it('lets the confirm and bulk handlers queue exports without any key access', () => {
    for (const key of ['POST /receipt/{id}', 'POST /receipts/bulk']) {
      const fn = s.stacks.api.routeFunctions.get(key)!;
      const actions = actionsOf(s.api, fn);
      expect(actions, key).toContain('sqs:SendMessage');
      expect(actions.some((a) => a.startsWith('kms:')), key).toBe(false);
    }
  });
});
