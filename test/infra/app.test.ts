/**
 * The app as `cdk synth` builds it: all stacks in eu-west-1, their order, their outputs, Node 22+ everywhere,
 * and the CloudFormation Validate default rules (run at synthesis, findings are errors) passing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handlerEntries } from '../../infra/build/handler-entries';
import { REGION, createReceiptsStacks, globalAdminEmailsFrom, type ReceiptsStacks } from '../../infra/stacks/receipts-stacks';
import { GLOBAL_ADMINS, SYNTH_TIMEOUT_MS, fakeWebDist, removeTempDirs, resourcesOf, tempDir, testBundle } from './synth';

describe('Receipts CDK app', () => {
  let stacks: ReceiptsStacks;
  let outdir: string;
  let all: Stack[];
  beforeAll(async () => {
    outdir = tempDir('receipts-cdk-validated-');
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
  afterAll(removeTempDirs);

  it('passes the CloudFormation Validate default rules (findings are errors)', () => {
    expect(stacks.api.node.tryGetContext('@aws-cdk/core:validateAgainstDefaultRules')).toBe(true);
    const reportFile = join(outdir, 'validation-report.json');
    expect(existsSync(reportFile)).toBe(true);
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as { pluginReports: Array<{ violations: unknown[] }> };
    expect(report.pluginReports.flatMap((r) => r.violations)).toEqual([]);
  });

  it('deploys every stack to eu-west-1', () => {
    expect(all).toHaveLength(9);
    for (const stack of all) expect(stack.region, stack.stackName).toBe(REGION);
  });

  it('orders the stacks Web → Data → Auth → (Integrations) → Api → Processing / WebContent (no cycles)', () => {
    const deps = (s: Stack) => s.dependencies.map((d) => d.stackName).sort();
    expect(deps(stacks.web)).toEqual([]);
    expect(deps(stacks.data)).toEqual([stacks.web.stackName]);
    expect(deps(stacks.auth)).toEqual([stacks.data.stackName]);
    expect(deps(stacks.integrations)).toEqual([]);
    expect(deps(stacks.api)).toEqual([stacks.auth.stackName, stacks.data.stackName, stacks.integrations.stackName, stacks.web.stackName].sort());
    // Web too: the Google Drive and Dropbox import job needs the site origin (its OAuth redirect URIs).
    expect(deps(stacks.processing)).toEqual([stacks.api.stackName, stacks.auth.stackName, stacks.data.stackName, stacks.integrations.stackName, stacks.web.stackName].sort());
    expect(deps(stacks.webContent)).toEqual([stacks.api.stackName, stacks.auth.stackName, stacks.web.stackName].sort());
    // Email-in after Processing: both merge notifications into the documents bucket, one after the other.
    expect(deps(stacks.emailIn)).toEqual([stacks.api.stackName, stacks.auth.stackName, stacks.data.stackName, stacks.processing.stackName].sort());
    // Operations last: it watches the functions, queues, API and table of the others.
    expect(deps(stacks.operations)).toEqual(
      [stacks.api, stacks.auth, stacks.data, stacks.emailIn, stacks.integrations, stacks.processing].map((x) => x.stackName).sort(),
    );
  });

  it('outputs the API URL, WebSocket URL, user pool id, client id and distribution domain', () => {
    Template.fromStack(stacks.api).hasOutput('ApiUrl', {});
    Template.fromStack(stacks.api).hasOutput('WebSocketUrl', {});
    Template.fromStack(stacks.auth).hasOutput('UserPoolId', {});
    Template.fromStack(stacks.auth).hasOutput('UserPoolClientId', {});
    Template.fromStack(stacks.web).hasOutput('DistributionDomainName', {});
  });

  it('has no circular dependency between the resources of any stack', () => {
    for (const stack of all) {
      const resources = Template.fromStack(stack).toJSON().Resources as Record<string, { DependsOn?: string | string[] }>;
      const edges = new Map<string, Set<string>>();
      for (const [id, resource] of Object.entries(resources)) edges.set(id, referencedResources(resource, resources));
      expect(findCycle(edges), stack.stackName).toBeUndefined();
    }
  });

  it("keeps every stack within CloudFormation's 500-resource limit, with room for more routes", () => {
    for (const stack of all) {
      const count = Object.keys(Template.fromStack(stack).toJSON().Resources).length;
      expect(count, stack.stackName).toBeLessThan(500);
    }
    // Resources per additional route in the API stack: function, permission, integration, route. The functions log
    // to the stack's shared log group (HandlerLogs), and share an execution role per set of needs.
    const apiTemplate = Template.fromStack(stacks.api);
    const api = Object.keys(apiTemplate.toJSON().Resources).length;
    expect(Object.keys(apiTemplate.findResources('AWS::Logs::LogGroup')).length).toBeLessThan(5);
    const perRoute = 4;
    const headroom = Math.floor((500 - api) / perRoute);
    expect(headroom, `the API stack has room for ${headroom} more routes`).toBeGreaterThanOrEqual(20);
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

describe('cycle detection used above', () => {
  it('finds a Ref/GetAtt cycle such as a user pool and a trigger that refer to each other', () => {
    const resources = {
      Pool: { Properties: { LambdaConfig: { PostConfirmation: { 'Fn::GetAtt': ['Trigger', 'Arn'] } } } },
      Trigger: { Properties: { Environment: { Variables: { USER_POOL_ID: { Ref: 'Pool' } } } } },
      Table: { Properties: {} },
    };
    const edges = new Map(Object.entries(resources).map(([id, r]) => [id, referencedResources(r, resources)]));
    expect(findCycle(edges)).toEqual(['Pool', 'Trigger', 'Pool']);
    edges.set('Trigger', new Set(['Table']));
    expect(findCycle(edges)).toBeUndefined();
  });
});

describe('context globalAdminEmails', () => {
  it('accepts a comma-separated string or a list, trimmed and lower-cased', () => {
    expect(globalAdminEmailsFrom(' Admin@Example.com, b@y.com ,')).toBe('admin@example.com,b@y.com');
    expect(globalAdminEmailsFrom(['A@x.com', 'c@z.com'])).toBe('a@x.com,c@z.com');
    expect(globalAdminEmailsFrom(undefined)).toBe('');
  });
});

/** Logical ids a resource refers to (Ref, Fn::GetAtt, DependsOn), within the same template. */
function referencedResources(resource: unknown, resources: Record<string, unknown>): Set<string> {
  const found = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'Ref' && typeof value === 'string' && value in resources) found.add(value);
      else if (key === 'Fn::GetAtt' && Array.isArray(value) && typeof value[0] === 'string' && value[0] in resources) found.add(value[0]);
      else if (key === 'DependsOn') [value].flat().forEach((d) => typeof d === 'string' && found.add(d));
      else visit(value);
    }
  };
  visit(resource);
  return found;
}

function findCycle(edges: Map<string, Set<string>>): string[] | undefined {
  const state = new Map<string, 'visiting' | 'done'>();
  const path: string[] = [];
  const dfs = (id: string): string[] | undefined => {
    if (state.get(id) === 'done') return undefined;
    if (state.get(id) === 'visiting') return [...path.slice(path.indexOf(id)), id];
    state.set(id, 'visiting');
    path.push(id);
    for (const next of edges.get(id) ?? []) {
      const cycle = dfs(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(id, 'done');
    return undefined;
  };
  for (const id of edges.keys()) {
    const cycle = dfs(id);
    if (cycle) return cycle;
  }
  return undefined;
}
