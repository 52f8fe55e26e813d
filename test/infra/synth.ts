/**
 * Synthesises the whole CDK app once per test worker (memoised) from the real route table and the real
 * handler bundle. The bundle is content-cached under infra/.build/handlers, so workers and `cdk synth` share
 * it; assets are fingerprinted in place (asset staging disabled) instead of being copied per synth.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, type CfnElement, Stack } from 'aws-cdk-lib';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { IConstruct } from 'constructs';
import { Template } from 'aws-cdk-lib/assertions';
import { bundleHandlers, type HandlerBundle } from '../../infra/build/bundle-handlers';
import { allHandlers, handlerEntries, type HandlerEntries } from '../../infra/build/handler-entries';
import { createReceiptsStacks, type ReceiptsStacks } from '../../infra/stacks/receipts-stacks';

/** Bundling (when sources changed) plus synthesis of the nine stacks (the alarms included), on a busy 2-core machine. */
export const SYNTH_TIMEOUT_MS = 300_000;

export const GLOBAL_ADMINS = 'admin@example.com,owner@example.com';
/** Team and invitations: the sender of invitation mail (context mailFrom). */
export const MAIL_FROM = 'Receipts <no-reply@example.com>';
/**
 * Google Drive and Dropbox imports: the OAuth clients (context googleClientId, googleClientSecretName, dropboxAppKey);
 * Google's client secret is only named here, its value stays in Secrets Manager.
 */
export const DRIVE_CLIENTS = { googleClientId: 'id.apps.googleusercontent.com', googleClientSecretName: 'receipts/google-client-secret', dropboxAppKey: 'dropbox-app-key' };

export interface Synth {
  bundle: HandlerBundle;
  entries: HandlerEntries;
  stacks: ReceiptsStacks;
  web: Template;
  data: Template;
  auth: Template;
  api: Template;
  processing: Template;
  webContent: Template;
  emailIn: Template;
}

let bundlePromise: Promise<HandlerBundle> | undefined;
export function testBundle(): Promise<HandlerBundle> {
  bundlePromise ??= bundleHandlers({ handlers: allHandlers(handlerEntries()) });
  return bundlePromise;
}

const tempDirs: string[] = [];
/** A temporary folder removed by removeTempDirs() (call it in afterAll of every file that synthesises). */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}
export function removeTempDirs(): void {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A built SPA as `npm run build:web` leaves it (fixture files, so the test does not depend on web/dist). */
export function fakeWebDist(): string {
  const dir = tempDir('receipts-web-dist-');
  writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="root"></div><script type="module" src="/assets/app-1a2b.js"></script>');
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'assets', 'app-1a2b.js'), 'console.log("app");');
  mkdirSync(join(dir, 'api'));
  writeFileSync(join(dir, 'api', 'openapi.json'), JSON.stringify({ openapi: '3.1.0', servers: [{ url: '/api' }], paths: { '/companies': {} } }));
  return dir;
}

export function newApp(): App {
  return new App({
    outdir: tempDir('receipts-cdk-'),
    context: { 'aws:cdk:disable-asset-staging': true },
    builtinCloudFormationValidation: false,
  });
}

let synthPromise: Promise<Synth> | undefined;
export function synthReceipts(): Promise<Synth> {
  synthPromise ??= (async () => {
    const entries = handlerEntries();
    const bundle = await testBundle();
    const stacks = createReceiptsStacks(newApp(), { bundle, entries, globalAdminEmails: GLOBAL_ADMINS, mailFrom: MAIL_FROM, webDistDir: fakeWebDist(), driveClients: DRIVE_CLIENTS });
    return {
      bundle,
      entries,
      stacks,
      web: Template.fromStack(stacks.web),
      data: Template.fromStack(stacks.data),
      auth: Template.fromStack(stacks.auth),
      api: Template.fromStack(stacks.api),
      processing: Template.fromStack(stacks.processing),
      webContent: Template.fromStack(stacks.webContent),
      emailIn: Template.fromStack(stacks.emailIn),
    };
  })();
  return synthPromise;
}

/** Resources of one type, by logical id. */
export function resourcesOf(template: Template, type: string): Record<string, { Properties: Record<string, unknown> }> {
  return template.findResources(type) as Record<string, { Properties: Record<string, unknown> }>;
}

/** The logical id of a construct's CloudFormation resource in its stack. */
export function logicalIdOf(construct: IConstruct): string {
  const resource = construct.node.defaultChild as CfnElement | undefined;
  const element = resource ?? (construct as CfnElement);
  return Stack.of(construct).getLogicalId(element);
}

export interface GrantStatement {
  actions: string[];
  resources: unknown[];
}

/** The Allow statements of every IAM policy attached to a function's role. */
export function grantsOf(template: Template, fn: LambdaFunction): GrantStatement[] {
  const roleId = logicalIdOf(fn.role!);
  const statements: GrantStatement[] = [];
  for (const policy of Object.values(resourcesOf(template, 'AWS::IAM::Policy'))) {
    const roles = policy.Properties.Roles as Array<{ Ref?: string }>;
    if (!roles.some((r) => r.Ref === roleId)) continue;
    const document = policy.Properties.PolicyDocument as { Statement: Array<{ Effect: string; Action: string | string[]; Resource: unknown }> };
    for (const st of document.Statement) {
      if (st.Effect !== 'Allow') continue;
      statements.push({
        actions: Array.isArray(st.Action) ? st.Action : [st.Action],
        resources: Array.isArray(st.Resource) ? st.Resource : [st.Resource],
      });
    }
  }
  return statements;
}
