/**
 * The app as `cdk synth` builds it: all stacks in eu-west-1, their order, their outputs, Node 22+ everywhere,
 * and the CloudFormation Validate default rules (run at synthesis, findings are errors) passing.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { tmpdir } from 'node:os';
import { beforeAll, describe, expect, it } from 'vitest';
import { handlerEntries } from '../../infra/build/handler-entries';
import { REGION, createReceiptsStacks, globalAdminEmailsFrom, type ReceiptsStacks } from '../../infra/stacks/receipts-stacks';
import { GLOBAL_ADMINS, SYNTH_TIMEOUT_MS, fakeWebDist, resourcesOf, testBundle } from './synth';

describe('Receipts CDK app', () => {
  let stacks: ReceiptsStacks;
  let outdir: string;
  let all: Stack[];
  beforeAll(async () => {
    outdir = mkdtempSync(join(tmpdir(), 'receipts-cdk-validated-'));
    // Built-in validation on (the default), as in `cdk synth`.
    const app = new App({ outdir, context: { 'aws:cdk:disable-asset-staging': true } });
    stacks = createReceiptsStacks(app, {
      bundle: await testBundle(),
      entries: handlerEntries(),
      globalAdminEmails: GLOBAL_ADMINS,
      webDistDir: fakeWebDist(),
    });
    all = Object.values(stacks);
    app.synth();
  }, SYNTH_TIMEOUT_MS);

  it('passes the CloudFormation Validate default rules (findings are errors)', () => {
    expect(stacks.api.node.tryGetContext('@aws-cdk/core:validateAgainstDefaultRules')).toBe(true);
    const reportFile = join(outdir, 'validation-report.json');
    expect(existsSync(reportFile)).toBe(true);
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as { pluginReports: Array<{ violations: unknown[] }> };
    expect(report.pluginReports.flatMap((r) => r.violations)).toEqual([]);
  });

  it('deploys every stack to eu-west-1', () => {
    expect(all).toHaveLength(6);
    for (const stack of all) expect(stack.region, stack.stackName).toBe(REGION);
  });

  it('orders the stacks Web → Data → Auth → Api → Processing / WebContent (no cycles)', () => {
    const deps = (s: Stack) => s.dependencies.map((d) => d.stackName).sort();
    expect(deps(stacks.web)).toEqual([]);
    expect(deps(stacks.data)).toEqual([stacks.web.stackName]);
    expect(deps(stacks.auth)).toEqual([stacks.data.stackName]);
    expect(deps(stacks.api)).toEqual([stacks.auth.stackName, stacks.data.stackName, stacks.web.stackName].sort());
    expect(deps(stacks.processing)).toEqual([stacks.api.stackName, stacks.auth.stackName, stacks.data.stackName].sort());
    expect(deps(stacks.webContent)).toEqual([stacks.api.stackName, stacks.auth.stackName, stacks.web.stackName].sort());
  });

  it('outputs the API URL, WebSocket URL, user pool id, client id and distribution domain', () => {
    Template.fromStack(stacks.api).hasOutput('ApiUrl', {});
    Template.fromStack(stacks.api).hasOutput('WebSocketUrl', {});
    Template.fromStack(stacks.auth).hasOutput('UserPoolId', {});
    Template.fromStack(stacks.auth).hasOutput('UserPoolClientId', {});
    Template.fromStack(stacks.web).hasOutput('DistributionDomainName', {});
  });

  it('runs every Node.js Lambda function on nodejs22.x or newer', () => {
    let nodeFunctions = 0;
    for (const stack of all) {
      for (const fn of Object.values(resourcesOf(Template.fromStack(stack), 'AWS::Lambda::Function'))) {
        const runtime = String(fn.Properties.Runtime ?? '');
        if (!runtime.startsWith('nodejs')) continue;
        nodeFunctions++;
        expect(Number(/^nodejs(\d+)/.exec(runtime)?.[1]), `${stack.stackName}: ${runtime}`).toBeGreaterThanOrEqual(22);
      }
    }
    expect(nodeFunctions).toBeGreaterThan(handlerEntries().routes.length);
  });
});

describe('context globalAdminEmails', () => {
  it('accepts a comma-separated string or a list, trimmed and lower-cased', () => {
    expect(globalAdminEmailsFrom(' Admin@Example.com, b@y.com ,')).toBe('admin@example.com,b@y.com');
    expect(globalAdminEmailsFrom(['A@x.com', 'c@z.com'])).toBe('a@x.com,c@z.com');
    expect(globalAdminEmailsFrom(undefined)).toBe('');
  });
});
