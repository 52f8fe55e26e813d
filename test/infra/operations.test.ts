/**
 * Production operations: least privilege from the declarations of shared/routes.ts, cdk-nag's AwsSolutions pack,
 * alarms, alarm topic and dashboard, X-Ray tracing, stage throttling and access logs, WAF, table deletion
 * protection and the documents bucket's versioning.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Stack, Validations } from 'aws-cdk-lib';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredNeeds, handlerEntries } from '../../infra/build/handler-entries';
import { checkDeclaredNeeds, TABLE_ACTIONS } from '../../infra/constructs/grants';
import { HandlerFunction } from '../../infra/constructs/handler-function';
import { HTTP_DEFAULT_THROTTLE, HTTP_ROUTE_THROTTLES, WEBSOCKET_THROTTLE } from '../../infra/constructs/api-protection';
import { ALARM_THRESHOLDS } from '../../infra/constructs/operations';
import { WAF_RATE_LIMIT_PER_5_MINUTES } from '../../infra/constructs/waf';
import { ReceiptsNagChecks } from '../../infra/nag';
import { NONCURRENT_VERSION_DAYS } from '../../infra/stacks/data-stack';
import { createReceiptsStacks, type ReceiptsStacks } from '../../infra/stacks/receipts-stacks';
import { METRIC_NAMES, METRICS_NAMESPACE } from '../../lambdas/runtime/metrics';
import { LAZY_ADAPTER_MODULES } from '../../lambdas/runtime/lazy-adapters';
import { routeKey, routes } from '../../shared/routes';
import { DEFAULT_NEEDS } from '../../shared/needs';
import { GLOBAL_ADMINS, MAIL_FROM, SYNTH_TIMEOUT_MS, fakeWebDist, grantsOf, logicalIdOf, removeTempDirs, resourcesOf, synthReceipts, tempDir, testBundle, type Synth } from './synth';

afterAll(removeTempDirs);

function handlerFunctions(stacks: ReceiptsStacks): HandlerFunction[] {
  return (Object.values(stacks) as Stack[]).flatMap((s) => s.node.findAll().filter((c): c is HandlerFunction => c instanceof HandlerFunction));
}

function templateOf(s: Synth, fn: HandlerFunction): Template {
  const stack = (Object.values(s.stacks) as Stack[]).find((st) => st === fn.stack)!;
  return Template.fromStack(stack);
}

describe('least privilege', () => {
  let s: Synth;
  let functions: HandlerFunction[];
  beforeAll(async () => {
    s = await synthReceipts();
    functions = handlerFunctions(s.stacks);
  }, SYNTH_TIMEOUT_MS);

  it('gives every route and WebSocket function exactly the needs declared next to it in shared/routes.ts', () => {
    for (const route of routes) {
      const fn = s.stacks.api.routeFunctions.get(routeKey(route))!;
      expect([...fn.awsNeeds].sort(), routeKey(route)).toEqual([...(route.needs ?? DEFAULT_NEEDS)].sort());
    }
    const declared = declaredNeeds(handlerEntries());
    for (const fn of functions) {
      expect(declared[fn.handlerPath], `${fn.handlerPath} has a declaration`).toBeDefined();
      expect([...fn.awsNeeds].sort(), fn.handlerPath).toEqual([...declared[fn.handlerPath]!].sort());
    }
  });

  it('never lets two functions with different needs share a role (every stack)', () => {
    const needsByRole = new Map<string, Set<string>>();
    for (const fn of functions) {
      const role = `${fn.stack.stackName}/${logicalIdOf(fn.role!)}`;
      needsByRole.set(role, (needsByRole.get(role) ?? new Set()).add([...fn.awsNeeds].sort().join('+')));
    }
    for (const [role, needs] of needsByRole) expect([...needs], role).toHaveLength(1);
    // More than one set of needs among the API's routes: not one role for all.
    const apiRoles = new Set([...s.stacks.api.routeFunctions.values()].map((fn) => logicalIdOf(fn.role!)));
    expect(apiRoles.size).toBeGreaterThanOrEqual(6);
  });

  it('grants each need as the adapters’ actions on this product’s resources, and nothing else', () => {
    for (const fn of functions) {
      const grants = grantsOf(templateOf(s, fn), fn);
      const actions = new Set(grants.flatMap((g) => g.actions));
      const needs = fn.awsNeeds;
      const where = fn.handlerPath;
      expect(TABLE_ACTIONS.every((a) => actions.has(a)), where).toBe(needs.has('table'));
      expect(actions.has('dynamodb:Scan'), where).toBe(false);
      expect(actions.has('s3:PutObject'), where).toBe(needs.has('documentsBucket') || needs.has('officeConversion'));
      expect(actions.has('s3:DeleteObject'), where).toBe(needs.has('documentsBucket'));
      expect(actions.has('s3:GetObject'), where).toBe(needs.has('documentsBucket') || needs.has('documentsRead') || needs.has('textract') || needs.has('officeConversion'));
      expect(actions.has('lambda:InvokeFunction'), where).toBe(needs.has('officeConverter'));
      expect(actions.has('execute-api:ManageConnections'), where).toBe(needs.has('webSocketManage'));
      expect(actions.has('kms:Decrypt'), where).toBe(needs.has('secretsKey'));
      expect(actions.has('sqs:SendMessage'), where).toBe(needs.has('exportQueue') || needs.has('purgeQueue') || needs.has('syncQueue'));
      expect(actions.has('textract:AnalyzeExpense'), where).toBe(needs.has('textract'));
      expect(actions.has('ses:SendEmail'), where).toBe(needs.has('sesSend'));
      expect(actions.has('secretsmanager:GetSecretValue'), where).toBe(needs.has('googleClientSecret'));
      for (const g of grants) {
        if (!g.resources.includes('*')) continue;
        // Only services without resource-level permissions: Textract's expense actions and X-Ray's trace writes.
        expect(g.actions.every((a) => a.startsWith('textract:') || a.startsWith('xray:')), `${where}: ${g.actions.join(',')}`).toBe(true);
      }
    }
  });

  it('GET /user bundles and may call DynamoDB only (no S3, WebSocket or Textract code or grant)', () => {
    const fn = s.stacks.api.routeFunctions.get('GET /user')!;
    const built = s.bundle.get(fn.handlerPath);
    expect(built.awsSdkPackages.filter((p) => p.startsWith('@aws-sdk/client-'))).toEqual(['@aws-sdk/client-dynamodb']);
    expect(built.leftOut).toEqual(LAZY_ADAPTER_MODULES.map((m) => m.module).sort());
    const actions = grantsOf(s.api, fn).flatMap((g) => g.actions);
    expect(actions.filter((a) => !a.startsWith('dynamodb:') && !a.startsWith('xray:'))).toEqual([]);
  });

  it('keeps the lazily loaded adapters in the bundles of the handlers that declare them', () => {
    const upload = s.bundle.get(s.stacks.api.routeFunctions.get('GET /upload/document')!.handlerPath);
    expect(upload.awsSdkPackages).toContain('@aws-sdk/client-s3');
    expect(upload.awsSdkPackages).not.toContain('@aws-sdk/client-apigatewaymanagementapi');
    const status = s.bundle.get(s.stacks.api.routeFunctions.get('POST /receipt/{id}/status')!.handlerPath);
    expect(status.awsSdkPackages).toEqual(expect.arrayContaining(['@aws-sdk/client-s3', '@aws-sdk/client-apigatewaymanagementapi']));
  });

  it('refuses a bundle that calls an AWS service outside its declared needs', () => {
    expect(() => checkDeclaredNeeds('http/x/y', ['@aws-sdk/client-dynamodb', '@aws-sdk/client-sqs'], ['table'])).toThrow(
      /lambdas\/http\/x\/y\.ts bundles @aws-sdk\/client-sqs.*Declare 'exportQueue'/,
    );
    expect(() => checkDeclaredNeeds('http/x/y', ['@aws-sdk/client-s3'], ['table', 'documentsRead'])).not.toThrow();
  });
});

describe('protection', () => {
  let s: Synth;
  beforeAll(async () => {
    s = await synthReceipts();
  }, SYNTH_TIMEOUT_MS);

  it('protects the table from deletion', () => {
    s.data.hasResourceProperties('AWS::DynamoDB::Table', { DeletionProtectionEnabled: true });
  });

  it('versions the documents bucket and expires noncurrent versions', () => {
    const bucketId = logicalIdOf(s.stacks.data.documentsBucket);
    const bucket = resourcesOf(s.data, 'AWS::S3::Bucket')[bucketId]!.Properties;
    expect(bucket.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    const rules = (bucket.LifecycleConfiguration as { Rules: Array<Record<string, unknown>> }).Rules;
    expect(rules).toContainEqual(
      expect.objectContaining({ Status: 'Enabled', NoncurrentVersionExpiration: { NoncurrentDays: NONCURRENT_VERSION_DAYS }, ExpiredObjectDeleteMarker: true }),
    );
  });

  it('throttles the HTTP stage, tighter on uploads and sign-up-adjacent routes, and writes access logs', () => {
    const httpApiId = logicalIdOf(s.stacks.api.httpApi);
    const [stage] = Object.values(resourcesOf(s.api, 'AWS::ApiGatewayV2::Stage')).filter((r) => (r.Properties.ApiId as { Ref: string }).Ref === httpApiId);
    const props = stage!.Properties as {
      StageName: string;
      DefaultRouteSettings: Record<string, number>;
      RouteSettings: Record<string, Record<string, number>>;
      AccessLogSettings: { DestinationArn: unknown; Format: string };
    };
    expect(props.StageName).toBe('$default');
    expect(props.DefaultRouteSettings).toEqual({ ThrottlingRateLimit: HTTP_DEFAULT_THROTTLE.rateLimit, ThrottlingBurstLimit: HTTP_DEFAULT_THROTTLE.burstLimit });
    expect(props.RouteSettings['GET /upload/document']!.ThrottlingRateLimit).toBeLessThan(HTTP_DEFAULT_THROTTLE.rateLimit);
    for (const key of ['GET /invitation/{token}', 'PUT /invitation/{token}']) {
      expect(props.RouteSettings[key], key).toEqual({ ThrottlingRateLimit: HTTP_ROUTE_THROTTLES[key]!.rateLimit, ThrottlingBurstLimit: HTTP_ROUTE_THROTTLES[key]!.burstLimit });
    }
    // Only routes that exist.
    for (const key of Object.keys(props.RouteSettings)) expect(routes.map(routeKey)).toContain(key);
    expect(JSON.stringify(props.AccessLogSettings.DestinationArn)).toContain(logicalIdOf(s.stacks.api.protection.httpAccessLogs));
    const format = JSON.parse(props.AccessLogSettings.Format) as Record<string, string>;
    expect(format).toMatchObject({ requestId: '$context.requestId', status: '$context.status', routeKey: '$context.routeKey' });
    expect(Object.values(format).join(' ')).not.toMatch(/authorization|header|body/i);
    // The request path is not logged: GET/PUT /invitation/{token} carry the invitation's secret in it (the token alone
    // joins or signs up the invited e-mail); the route key names the route without its values.
    expect(Object.values(format)).not.toContain('$context.path');
    expect(Object.values(format).join(' ')).not.toMatch(/\$context\.(path|querystring|pathParameters)/i);
  });

  it('throttles the WebSocket stage and writes its access logs', () => {
    const wsApiId = logicalIdOf(s.stacks.api.webSocketApi);
    s.api.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      ApiId: { Ref: wsApiId },
      DefaultRouteSettings: { ThrottlingRateLimit: WEBSOCKET_THROTTLE.rateLimit, ThrottlingBurstLimit: WEBSOCKET_THROTTLE.burstLimit },
      AccessLogSettings: { DestinationArn: { 'Fn::GetAtt': [logicalIdOf(s.stacks.api.protection.webSocketAccessLogs), 'Arn'] }, Format: Match.anyValue() },
    });
  });

  it('has no WAF web ACL unless asked for (-c waf=true)', () => {
    s.auth.resourceCountIs('AWS::WAFv2::WebACL', 0);
  });
});

describe('observability', () => {
  let s: Synth;
  let ops: Template;
  let functions: HandlerFunction[];
  beforeAll(async () => {
    s = await synthReceipts();
    ops = Template.fromStack(s.stacks.operations);
    functions = handlerFunctions(s.stacks);
  }, SYNTH_TIMEOUT_MS);

  const alarms = () => Object.values(resourcesOf(ops, 'AWS::CloudWatch::Alarm')).map((a) => a.Properties);

  it('traces every handler with X-Ray', () => {
    for (const fn of functions) {
      const props = resourcesOf(templateOf(s, fn), 'AWS::Lambda::Function')[logicalIdOf(fn)]!.Properties;
      expect(props.TracingConfig, fn.handlerPath).toEqual({ Mode: 'Active' });
    }
  });

  it('alarms on every dead-letter queue', () => {
    const dlqAlarms = alarms().filter((a) => a.MetricName === 'ApproximateNumberOfMessagesVisible');
    // Uploads, imports, inbound mail, exports.
    expect(dlqAlarms.length).toBeGreaterThanOrEqual(4);
    const watched = JSON.stringify(dlqAlarms.map((a) => a.Dimensions));
    for (const dlq of [s.stacks.processing.deadLetterQueue, s.stacks.processing.importJob.deadLetterQueue, s.stacks.emailIn.deadLetterQueue, s.stacks.integrations.exportDeadLetterQueue]) {
      expect(watched).toContain(logicalIdOf(dlq));
    }
    for (const a of dlqAlarms) expect(a.Threshold).toBe(ALARM_THRESHOLDS.deadLetterMessages);
  });

  it('alarms on every function’s errors and throttles', () => {
    const errors = alarms().filter((a) => a.Namespace === 'AWS/Lambda' && a.MetricName === 'Errors');
    const throttles = alarms().filter((a) => a.Namespace === 'AWS/Lambda' && a.MetricName === 'Throttles');
    expect(errors).toHaveLength(functions.length);
    expect(throttles).toHaveLength(functions.length);
    const watched = JSON.stringify(errors.map((a) => a.Dimensions));
    for (const fn of functions) expect(watched).toContain(logicalIdOf(fn));
  });

  it('alarms on the HTTP API’s 5xx rate and p95 latency', () => {
    const rate = alarms().find((a) => JSON.stringify(a.Metrics ?? []).includes('100 * errors / requests'));
    expect(rate).toBeDefined();
    expect(rate!.Threshold).toBe(ALARM_THRESHOLDS.api5xxPercent);
    expect(JSON.stringify(rate!.Metrics)).toMatch(/"MetricName":"5xx"/);
    const latency = alarms().find((a) => a.MetricName === 'Latency' && a.Namespace === 'AWS/ApiGateway');
    expect(latency).toMatchObject({ ExtendedStatistic: 'p95', Threshold: ALARM_THRESHOLDS.apiLatencyP95Ms, EvaluationPeriods: 3 });
  });

  it('alarms on DynamoDB throttles and on the processing job’s Textract failures', () => {
    const dynamo = alarms().find((a) => JSON.stringify(a.Metrics ?? []).includes('ReadThrottleEvents'));
    expect(JSON.stringify(dynamo!.Metrics)).toContain('WriteThrottleEvents');
    const textract = alarms().find((a) => a.MetricName === METRIC_NAMES.textractFailures);
    expect(textract).toMatchObject({ Namespace: METRICS_NAMESPACE, Statistic: 'Sum', Threshold: ALARM_THRESHOLDS.textractFailures });
  });

  it('sends every alarm and its recovery to the one alarm topic', () => {
    const topics = Object.keys(resourcesOf(ops, 'AWS::SNS::Topic'));
    expect(topics).toHaveLength(1);
    for (const a of alarms()) {
      expect(a.AlarmActions).toEqual([{ Ref: topics[0] }]);
      expect(a.OKActions).toEqual([{ Ref: topics[0] }]);
    }
    // No -c alarmEmail in this synth: no subscription.
    ops.resourceCountIs('AWS::SNS::Subscription', 0);
  });

  it('has one dashboard', () => {
    ops.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    const body = JSON.stringify(Object.values(resourcesOf(ops, 'AWS::CloudWatch::Dashboard'))[0]!.Properties.DashboardBody);
    for (const title of ['HTTP API requests and 5xx', 'HTTP API latency', 'Lambda errors', 'Dead-letter queues', 'DynamoDB', 'Textract failures']) {
      expect(body).toContain(title);
    }
  });
});

describe('with -c alarmEmail and -c waf=true, under cdk-nag (AwsSolutions)', () => {
  let stacks: ReceiptsStacks;
  let app: App;
  let synthError: unknown;
  let report: { pluginReports: Array<{ pluginName: string; violations: Array<{ ruleName: string; severity: string; violatingConstructs: Array<{ constructPath: string }> }> }> };
  beforeAll(async () => {
    const outdir = tempDir('receipts-cdk-nag-');
    app = new App({ outdir, context: { 'aws:cdk:disable-asset-staging': true } });
    stacks = createReceiptsStacks(app, {
      bundle: await testBundle(),
      entries: handlerEntries(),
      globalAdminEmails: GLOBAL_ADMINS,
      mailFrom: MAIL_FROM,
      webDistDir: fakeWebDist(),
      alarmEmail: 'ops@example.com',
      waf: true,
    });
    Validations.of(app).addPlugins(new ReceiptsNagChecks(app));
    try {
      app.synth();
    } catch (error) {
      synthError = error;
    }
    report = JSON.parse(readFileSync(join(outdir, 'validation-report.json'), 'utf8'));
  }, SYNTH_TIMEOUT_MS);

  it('has no unacknowledged AwsSolutions finding, error or warning (each acknowledgement has its reason in infra/nag.ts)', () => {
    const findings = report.pluginReports.flatMap((p) =>
      p.violations.map((v) => `${p.pluginName} ${v.severity} ${v.ruleName}: ${v.violatingConstructs.map((c) => c.constructPath).join(', ')}`),
    );
    expect(findings).toEqual([]);
    expect(synthError).toBeUndefined();
    // The same pack run directly on the tree: it checks every resource and finds nothing unacknowledged.
    const direct = new ReceiptsNagChecks().validateScope(app);
    expect(direct.violations).toEqual([]);
  });

  it('would report what is not acknowledged (the pack is live)', () => {
    const other = new App({ outdir: tempDir('receipts-cdk-nag-control-') });
    const stack = new Stack(other, 'Control');
    new Bucket(stack, 'Unprotected');
    const result = new ReceiptsNagChecks().validateScope(other);
    expect(result.violations.map((v) => v.ruleName)).toEqual(expect.arrayContaining(['AwsSolutions-S1', 'AwsSolutions-S10']));
  });

  it('subscribes the alarm e-mail to the alarm topic', () => {
    Template.fromStack(stacks.operations).hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
  });

  it('puts a WAF web ACL with a rate-based rule per IP on the user pool', () => {
    const auth = Template.fromStack(stacks.auth);
    auth.hasResourceProperties('AWS::WAFv2::WebACL', {
      Scope: 'REGIONAL',
      Rules: [Match.objectLike({ Action: { Block: {} }, Statement: { RateBasedStatement: { Limit: WAF_RATE_LIMIT_PER_5_MINUTES, AggregateKeyType: 'IP', EvaluationWindowSec: 300 } } })],
    });
    auth.hasResourceProperties('AWS::WAFv2::WebACLAssociation', { ResourceArn: { 'Fn::GetAtt': [logicalIdOf(stacks.auth.userPool), 'Arn'] } });
  });
});
