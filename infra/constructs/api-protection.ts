import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import { CfnStage, type HttpApi, type HttpRoute, type WebSocketStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

/** Requests per second (steady) and burst of one API Gateway route. */
export interface RouteThrottle {
  rateLimit: number;
  burstLimit: number;
}

/**
 * Default throttling of every HTTP route (per stage, across all callers): far above what one office does, low
 * enough that a runaway client or a scripted attack cannot run up Lambda, DynamoDB and Textract bills unbounded.
 */
export const HTTP_DEFAULT_THROTTLE: RouteThrottle = { rateLimit: 100, burstLimit: 200 };

/**
 * Tighter limits, by route key of shared/routes.ts: the presigned-upload route (every call lets a client put a
 * file that is then processed with Textract) and the public sign-up-adjacent routes (the invitation lookup and
 * acceptance, which create accounts' memberships and take guessable input). Sign-up itself goes to Cognito,
 * which has its own quotas and the optional WAF web ACL (infra/constructs/waf.ts).
 */
export const HTTP_ROUTE_THROTTLES: Readonly<Record<string, RouteThrottle>> = {
  'GET /upload/document': { rateLimit: 20, burstLimit: 40 },
  'GET /upload/import': { rateLimit: 5, burstLimit: 10 },
  'GET /invitation/{token}': { rateLimit: 5, burstLimit: 10 },
  'PUT /invitation/{token}': { rateLimit: 5, burstLimit: 10 },
  'POST /invitation': { rateLimit: 5, burstLimit: 10 },
  'POST /company': { rateLimit: 5, burstLimit: 10 },
};

/** The WebSocket stage: connection attempts and messages (the SPA sends a few per session). */
export const WEBSOCKET_THROTTLE: RouteThrottle = { rateLimit: 50, burstLimit: 100 };

/** Days API access logs are kept (the same as the handlers' logs). */
export const ACCESS_LOG_RETENTION = RetentionDays.ONE_MONTH;

/**
 * One JSON line per request: who, what, outcome and timing; never headers or bodies (tokens stay out of logs), and not
 * the request path: the public invitation routes carry the invitation's token in it (`/invitation/{token}`), which alone
 * joins or signs up the invited e-mail. The route key names the route; `requestId` is the handlers' log field too, so a
 * request's ids (document, stakeholder) are found in its handler's lines.
 */
export const HTTP_ACCESS_LOG_FORMAT = {
  requestId: '$context.requestId',
  ip: '$context.identity.sourceIp',
  userAgent: '$context.identity.userAgent',
  requestTime: '$context.requestTime',
  routeKey: '$context.routeKey',
  status: '$context.status',
  protocol: '$context.protocol',
  responseLength: '$context.responseLength',
  latencyMs: '$context.responseLatency',
  integrationLatencyMs: '$context.integrationLatency',
  integrationStatus: '$context.integrationStatus',
  integrationError: '$context.integrationErrorMessage',
  authorizerError: '$context.authorizer.error',
  userId: '$context.authorizer.claims.sub',
} as const;

export const WEBSOCKET_ACCESS_LOG_FORMAT = {
  requestId: '$context.requestId',
  ip: '$context.identity.sourceIp',
  requestTime: '$context.requestTime',
  routeKey: '$context.routeKey',
  eventType: '$context.eventType',
  connectionId: '$context.connectionId',
  status: '$context.status',
  integrationLatencyMs: '$context.integrationLatency',
  integrationError: '$context.integrationErrorMessage',
} as const;

/** CloudFormation's RouteSettings of one route (routeSettings is untyped JSON, hence PascalCase). */
const routeThrottle = (t: RouteThrottle) => ({ ThrottlingRateLimit: t.rateLimit, ThrottlingBurstLimit: t.burstLimit });

export interface ApiProtectionProps {
  httpApi: HttpApi;
  /** The HTTP routes by route key (a tighter limit is only set for a route that exists). */
  httpRoutes: ReadonlyMap<string, HttpRoute>;
  webSocketStage: WebSocketStage;
}

/**
 * Stage throttling and access logs of the HTTP API's $default stage and of the WebSocket stage (escape hatches on
 * the stages' CfnStage: the L2 HttpApi creates its default stage without these settings).
 */
export class ApiProtection extends Construct {
  readonly httpAccessLogs: LogGroup;
  readonly webSocketAccessLogs: LogGroup;

  constructor(scope: Construct, id: string, props: ApiProtectionProps) {
    super(scope, id);
    this.httpAccessLogs = new LogGroup(this, 'HttpAccessLogs', { retention: ACCESS_LOG_RETENTION, removalPolicy: RemovalPolicy.DESTROY });
    this.webSocketAccessLogs = new LogGroup(this, 'WebSocketAccessLogs', {
      retention: ACCESS_LOG_RETENTION,
      removalPolicy: RemovalPolicy.DESTROY,
    });

    const httpStage = props.httpApi.defaultStage?.node.defaultChild as CfnStage | undefined;
    if (!httpStage) throw new Error(`${Stack.of(this).stackName}: the HTTP API has no default stage to protect`);
    const routeSettings: Record<string, ReturnType<typeof routeThrottle>> = {};
    for (const [key, throttle] of Object.entries(HTTP_ROUTE_THROTTLES)) {
      const route = props.httpRoutes.get(key);
      if (!route) continue;
      routeSettings[key] = routeThrottle(throttle);
      // Route settings name existing routes: the stage is updated after them.
      httpStage.node.addDependency(route);
    }
    httpStage.defaultRouteSettings = { throttlingRateLimit: HTTP_DEFAULT_THROTTLE.rateLimit, throttlingBurstLimit: HTTP_DEFAULT_THROTTLE.burstLimit };
    httpStage.routeSettings = routeSettings;
    httpStage.accessLogSettings = { destinationArn: this.httpAccessLogs.logGroupArn, format: JSON.stringify(HTTP_ACCESS_LOG_FORMAT) };

    const wsStage = props.webSocketStage.node.defaultChild as CfnStage;
    wsStage.defaultRouteSettings = { throttlingRateLimit: WEBSOCKET_THROTTLE.rateLimit, throttlingBurstLimit: WEBSOCKET_THROTTLE.burstLimit };
    wsStage.accessLogSettings = {
      destinationArn: this.webSocketAccessLogs.logGroupArn,
      format: JSON.stringify(WEBSOCKET_ACCESS_LOG_FORMAT),
    };
  }
}
