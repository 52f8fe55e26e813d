import { Match } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeKey, routes, websocketRoutes } from '../../shared/routes';
import { ENV_NAMES } from '../../lambdas/runtime/env';
import { TEXTRACT_ACTIONS } from '../../infra/constructs/grants';
import { HANDLER_DEFAULTS, type HandlerFunction } from '../../infra/constructs/handler-function';
import { WS_STAGE_NAME } from '../../infra/stacks/api-stack';
import { GLOBAL_ADMINS, grantsOf, logicalIdOf, removeTempDirs, resourcesOf, SYNTH_TIMEOUT_MS, synthReceipts, type Synth } from './synth';

afterAll(removeTempDirs);

describe('ApiStack', () => {
  let s: Synth;
  let httpApiId: string;
  let wsApiId: string;
  let authorizerId: string;
  beforeAll(async () => {
    s = await synthReceipts();
    httpApiId = logicalIdOf(s.stacks.api.httpApi);
    wsApiId = logicalIdOf(s.stacks.api.webSocketApi);
    [authorizerId] = Object.keys(resourcesOf(s.api, 'AWS::ApiGatewayV2::Authorizer'));
  }, SYNTH_TIMEOUT_MS);

  function httpRoutes() {
    return Object.entries(resourcesOf(s.api, 'AWS::ApiGatewayV2::Route')).filter(([, r]) => (r.Properties.ApiId as { Ref: string }).Ref === httpApiId);
  }

  describe('HTTP API', () => {
    it('has exactly one route per route-table entry', () => {
      expect(httpRoutes()).toHaveLength(routes.length);
      const keys = httpRoutes().map(([, r]) => r.Properties.RouteKey);
      expect(keys.sort()).toEqual(routes.map(routeKey).sort());
    });

    it('has one Lambda function per route (at least as many functions as routes)', () => {
      const functions = Object.values(resourcesOf(s.api, 'AWS::Lambda::Function'));
      expect(functions.length).toBeGreaterThanOrEqual(routes.length);
      expect(new Set([...s.stacks.api.routeFunctions.values()]).size).toBe(routes.length);
    });

    it.each(routes.map((r) => [routeKey(r), r]))('%s → Lambda integration of its own handler, JWT unless public', (key, route) => {
      const matching = httpRoutes().filter(([, r]) => r.Properties.RouteKey === key);
      expect(matching).toHaveLength(1);
      const props = matching[0]![1].Properties;

      // Target: integrations/<integration>, an AWS_PROXY (payload 2.0) integration with the route's function.
      const target = props.Target as { 'Fn::Join': [string, [string, { Ref: string }]] };
      const integrationId = target['Fn::Join'][1][1].Ref;
      const fn = s.stacks.api.routeFunctions.get(key)!;
      expect(fn.handlerPath).toBe(route.handler);
      s.api.hasResource('AWS::ApiGatewayV2::Integration', {
        Properties: Match.objectLike({
          ApiId: { Ref: httpApiId },
          IntegrationType: 'AWS_PROXY',
          PayloadFormatVersion: '2.0',
          IntegrationUri: { 'Fn::GetAtt': [logicalIdOf(fn), 'Arn'] },
        }),
      });
      expect(Object.keys(s.api.findResources('AWS::ApiGatewayV2::Integration'))).toContain(integrationId);
      s.api.hasResourceProperties('AWS::Lambda::Function', {
        Description: Match.stringLikeRegexp(`lambdas/${route.handler}\\.ts`),
      });

      if (route.auth === 'public') {
        expect(props.AuthorizationType).toBe('NONE');
        expect(props.AuthorizerId).toBeUndefined();
      } else {
        expect(props.AuthorizationType).toBe('JWT');
        expect(props.AuthorizerId).toEqual({ Ref: authorizerId });
      }
    });

    it('POST /receipts/details (the exports read documents in batches) has its own JWT route and Lambda, which only reads the documents', () => {
      const [route] = httpRoutes().filter(([, r]) => r.Properties.RouteKey === 'POST /receipts/details');
      expect(route?.[1].Properties.AuthorizationType).toBe('JWT');
      const fn = s.stacks.api.routeFunctions.get('POST /receipts/details')!;
      expect(fn.handlerPath).toBe('http/receipts/post-details');
      const actions = grantsOf(s.api, fn).flatMap((g) => g.actions);
      expect(actions).toEqual(expect.arrayContaining(['dynamodb:BatchGetItem', 's3:GetObject']));
      expect(actions.filter((a) => /^s3:(Put|Delete)/.test(a))).toEqual([]);
    });

    it('has a Cognito JWT authorizer: eu-west-1 issuer of the pool, audience = the app client', () => {
      s.api.resourceCountIs('AWS::ApiGatewayV2::Authorizer', 1);
      s.api.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
        AuthorizerType: 'JWT',
        IdentitySource: ['$request.header.Authorization'],
        JwtConfiguration: {
          Issuer: { 'Fn::Join': ['', ['https://cognito-idp.eu-west-1.amazonaws.com/', Match.anyValue()]] },
          Audience: [Match.anyValue()],
        },
      });
      const [authorizer] = Object.values(resourcesOf(s.api, 'AWS::ApiGatewayV2::Authorizer'));
      const config = authorizer!.Properties.JwtConfiguration as { Issuer: unknown; Audience: unknown[] };
      expect(JSON.stringify(config.Issuer)).toMatch(/UserPool(?!.*Client)/);
      expect(JSON.stringify(config.Audience[0])).toMatch(/UserPoolWebClient/);
    });

    it('allows CORS from the SPA origin only', () => {
      const api = resourcesOf(s.api, 'AWS::ApiGatewayV2::Api')[httpApiId]!;
      const cors = api.Properties.CorsConfiguration as { AllowOrigins: unknown[]; AllowHeaders: string[]; AllowMethods: string[] };
      expect(cors.AllowOrigins).toHaveLength(1);
      expect(JSON.stringify(cors.AllowOrigins[0])).toMatch(/https:\/\/.*Distribution.*DomainName/);
      expect(cors.AllowHeaders).toEqual(expect.arrayContaining(['authorization', 'content-type']));
      expect(cors.AllowMethods).toEqual(expect.arrayContaining(['GET', 'POST', 'PUT', 'DELETE']));
    });

    it('lets API Gateway invoke every route function', () => {
      for (const fn of s.stacks.api.routeFunctions.values()) {
        s.api.hasResourceProperties('AWS::Lambda::Permission', {
          Action: 'lambda:InvokeFunction',
          Principal: 'apigateway.amazonaws.com',
          FunctionName: { 'Fn::GetAtt': [logicalIdOf(fn), 'Arn'] },
        });
      }
    });
  });

  describe('WebSocket API', () => {
    it.each(websocketRoutes.map((w) => [w.routeKey, w.handler]))('routes %s to lambdas/%s.ts', (key, handler) => {
      const fn = s.stacks.api.webSocketFunctions.get(key)!;
      expect(fn.handlerPath).toBe(handler);
      const route = Object.values(resourcesOf(s.api, 'AWS::ApiGatewayV2::Route')).find(
        (r) => (r.Properties.ApiId as { Ref: string }).Ref === wsApiId && r.Properties.RouteKey === key,
      );
      expect(route).toBeDefined();
      s.api.hasResourceProperties('AWS::ApiGatewayV2::Integration', {
        ApiId: { Ref: wsApiId },
        IntegrationType: 'AWS_PROXY',
        IntegrationUri: Match.objectLike({ 'Fn::Join': ['', Match.arrayWith([{ 'Fn::GetAtt': [logicalIdOf(fn), 'Arn'] }])] }),
      });
    });

    it('has $connect, $disconnect and $default, a WEBSOCKET protocol API and an auto-deployed stage', () => {
      const keys = Object.values(resourcesOf(s.api, 'AWS::ApiGatewayV2::Route'))
        .filter((r) => (r.Properties.ApiId as { Ref: string }).Ref === wsApiId)
        .map((r) => r.Properties.RouteKey);
      expect(keys.sort()).toEqual(['$connect', '$default', '$disconnect']);
      s.api.hasResourceProperties('AWS::ApiGatewayV2::Api', { ProtocolType: 'WEBSOCKET' });
      s.api.hasResourceProperties('AWS::ApiGatewayV2::Stage', { ApiId: { Ref: wsApiId }, StageName: WS_STAGE_NAME, AutoDeploy: true });
    });

    it("sets WS_CALLBACK_URL to the stage's callback URL on every function", () => {
      const expected = {
        'Fn::Join': ['', ['https://', { Ref: wsApiId }, '.execute-api.eu-west-1.', { Ref: 'AWS::URLSuffix' }, `/${WS_STAGE_NAME}`]],
      };
      for (const fn of allFunctions(s)) {
        const props = resourcesOf(s.api, 'AWS::Lambda::Function')[logicalIdOf(fn)]!.Properties;
        expect((props.Environment as { Variables: Record<string, unknown> }).Variables[ENV_NAMES.wsCallbackUrl], fn.handlerPath).toEqual(expected);
      }
    });
  });

  describe('functions', () => {
    it('use the handler defaults: Node 22, 512 MB, 29 s, arm64 unless native packages need x86_64, one month of logs', () => {
      for (const fn of allFunctions(s)) {
        const built = s.bundle.get(fn.handlerPath);
        s.api.hasResourceProperties('AWS::Lambda::Function', {
          Description: Match.stringLikeRegexp(`lambdas/${fn.handlerPath}\\.ts`),
          Runtime: 'nodejs22.x',
          Handler: 'index.handler',
          MemorySize: HANDLER_DEFAULTS.memorySize,
          Timeout: 29,
          Architectures: [built.architecture],
        });
      }
      const retentions = Object.values(resourcesOf(s.api, 'AWS::Logs::LogGroup')).map((g) => g.Properties.RetentionInDays);
      // One shared by the handlers, plus the HTTP and WebSocket access logs (infra/constructs/api-protection.ts).
      expect(retentions).toHaveLength(3);
      expect(new Set(retentions)).toEqual(new Set([30]));
      const shared = Object.keys(resourcesOf(s.api, 'AWS::Logs::LogGroup')).find((id) => id.startsWith('HandlerLogs'));
      expect(shared).toBeDefined();
      for (const fn of allFunctions(s)) {
        const props = resourcesOf(s.api, 'AWS::Lambda::Function')[logicalIdOf(fn)]!.Properties;
        expect(props.LoggingConfig, fn.handlerPath).toEqual({ LogGroup: { Ref: shared } });
      }
    });

    it('get every environment variable the handlers read', () => {
      for (const fn of allFunctions(s)) {
        const props = resourcesOf(s.api, 'AWS::Lambda::Function')[logicalIdOf(fn)]!.Properties;
        const vars = (props.Environment as { Variables: Record<string, unknown> }).Variables;
        // Every name, except the Google client secret's reference: only the functions that may read it get it
        // (test/infra/drive-import.test.ts).
        for (const name of Object.values(ENV_NAMES)) {
          if (name !== ENV_NAMES.googleClientSecretId) expect(vars[name], `${fn.handlerPath}: ${name}`).toBeDefined();
        }
        expect(ENV_NAMES.googleClientSecretId in vars, fn.handlerPath).toBe(fn.awsNeeds.has('googleClientSecret'));
        expect(vars[ENV_NAMES.stage]).toBe('aws');
        expect(vars[ENV_NAMES.recogniser]).toBe('textract');
        expect(vars[ENV_NAMES.globalAdminEmails]).toBe(GLOBAL_ADMINS);
      }
    });

    it('are granted exactly their declared needs, on this stack’s resources', () => {
      for (const fn of allFunctions(s)) {
        const grants = grantsOf(s.api, fn);
        const actions = new Set(grants.flatMap((g) => g.actions));
        const has = (action: string) => actions.has(action);
        expect(has('dynamodb:PutItem'), fn.handlerPath).toBe(fn.awsNeeds.has('table'));
        expect(has('s3:PutObject'), fn.handlerPath).toBe(fn.awsNeeds.has('documentsBucket'));
        expect(has('execute-api:ManageConnections'), fn.handlerPath).toBe(fn.awsNeeds.has('webSocketManage'));
        expect(has('cognito-idp:Admin*'), fn.handlerPath).toBe(fn.awsNeeds.has('userPoolAdmin'));
        expect(has('cognito-idp:AdminDeleteUser'), fn.handlerPath).toBe(fn.awsNeeds.has('userDeletion'));
        expect(TEXTRACT_ACTIONS.every(has), fn.handlerPath).toBe(fn.awsNeeds.has('textract'));
        for (const g of grants) {
          // Only Textract and X-Ray's trace writes (no resource-level permissions) may use "*".
          if (g.resources.includes('*')) expect(g.actions.every((a) => a.startsWith('textract:') || a.startsWith('xray:')), fn.handlerPath).toBe(true);
        }
      }
    });

    it('share one execution role per set of needs (same grants), never across different needs', () => {
      const byRole = new Map<string, Set<string>>();
      for (const fn of allFunctions(s)) {
        const key = [...fn.awsNeeds].sort().join('+');
        const roleId = logicalIdOf(fn.role!);
        byRole.set(roleId, (byRole.get(roleId) ?? new Set()).add(key));
      }
      for (const keys of byRole.values()) expect(keys.size).toBe(1);
      const distinctNeeds = new Set(allFunctions(s).map((fn) => [...fn.awsNeeds].sort().join('+')));
      expect(byRole.size).toBe(distinctNeeds.size);
      s.api.resourceCountIs('AWS::IAM::Role', distinctNeeds.size);
    });

    it('scope ManageConnections to the WebSocket stage', () => {
      const fn = [...s.stacks.api.routeFunctions.values()].find((f) => f.awsNeeds.has('webSocketManage'));
      expect(fn).toBeDefined();
      const grant = grantsOf(s.api, fn!).find((g) => g.actions.includes('execute-api:ManageConnections'))!;
      expect(JSON.stringify(grant.resources)).toContain(`/${WS_STAGE_NAME}/*/@connections/*`);
      expect(JSON.stringify(grant.resources)).toContain(wsApiId);
    });

    it('$disconnect only removes the connection: table access, no ManageConnections', () => {
      const fn = s.stacks.api.webSocketFunctions.get('$disconnect')!;
      const actions = grantsOf(s.api, fn).flatMap((g) => g.actions);
      expect(actions).toContain('dynamodb:DeleteItem');
      expect(actions).not.toContain('execute-api:ManageConnections');
    });
  });

  it('outputs the API URL and the WebSocket URL', () => {
    s.api.hasOutput('ApiUrl', {});
    s.api.hasOutput('WebSocketUrl', { Value: Match.objectLike({ 'Fn::Join': ['', Match.arrayWith(['wss://'])] }) });
  });
});

function allFunctions(s: Synth): HandlerFunction[] {
  return [...s.stacks.api.routeFunctions.values(), ...s.stacks.api.webSocketFunctions.values()];
}
