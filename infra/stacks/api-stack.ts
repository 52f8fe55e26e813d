import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import {
  CorsHttpMethod,
  HttpApi,
  HttpMethod,
  type HttpRoute,
  WebSocketApi,
  type WebSocketRouteOptions,
  WebSocketStage,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration, WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IUserPool, IUserPoolClient } from 'aws-cdk-lib/aws-cognito';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { routeKey, type RouteDef } from '../../shared/routes';
import type { HandlerBundle } from '../build/bundle-handlers';
import type { HandlerEntries } from '../build/handler-entries';
import { HandlerFunction, handlerLogGroup, SharedHandlerRoles, type DriveClients, type HandlerResources } from '../constructs/handler-function';
import { ApiProtection } from '../constructs/api-protection';

export interface ApiStackProps extends StackProps {
  bundle: HandlerBundle;
  entries: HandlerEntries;
  table: ITable;
  documentsBucket: IBucket;
  userPool: IUserPool;
  userPoolClient: IUserPoolClient;
  /** The SPA's origin (https://…), the only origin allowed by CORS. */
  siteOrigin: string;
  globalAdminEmails: string;
  /** Sender of invitation mail (context `mailFrom`); empty: mail cannot be sent. */
  mailFrom?: string;
  /** Integrations (IntegrationsStack). */
  secretsKey?: IKey;
  exportQueue?: IQueue;
  /** Company deletion: the purge queue DELETE /company sends to (IntegrationsStack). */
  purgeQueue?: IQueue;
  /** Master-data imports: the sync queue "sync now" hands a run that stopped for now to (IntegrationsStack). */
  syncQueue?: IQueue;
  /** Google Drive and Dropbox imports: the OAuth clients (drive/switch, drive/authorize, drive/folders). */
  driveClients?: DriveClients;
  /** Email-in: the receiving domain (context `emailInDomain`) answers show Email-in addresses at (EMAIL_IN_DOMAIN). */
  emailInDomain?: string;
}

/** The WebSocket API's stage; WS_CALLBACK_URL is https://{apiId}.execute-api.{region}.amazonaws.com/{stage}. */
export const WS_STAGE_NAME = 'live';

/** A readable construct id per route: 'GET /receipts/{id}' → 'GetReceiptsId'. */
export function routeConstructId(route: Pick<RouteDef, 'method' | 'path'>): string {
  const words = [route.method.toLowerCase(), ...route.path.split(/[^A-Za-z0-9]+/)].filter(Boolean);
  return words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

function wsConstructId(key: string): string {
  const word = key.replace(/[^A-Za-z0-9]/g, '');
  return `Ws${word[0]!.toUpperCase()}${word.slice(1)}`;
}

/**
 * The HTTP API (one Lambda and one route per entry of the route table, JWT authorizer on every non-public
 * route) and the WebSocket API (one Lambda per WebSocket route) in ONE stack: HTTP handlers need the
 * WebSocket stage's callback URL and ManageConnections, and WebSocket handlers share their environment;
 * two stacks would only add cross-stack exports without removing any dependency.
 */
export class ApiStack extends Stack {
  readonly httpApi: HttpApi;
  readonly webSocketApi: WebSocketApi;
  readonly webSocketStage: WebSocketStage;
  readonly routeFunctions = new Map<string, HandlerFunction>();
  readonly httpRoutes = new Map<string, HttpRoute>();
  readonly webSocketFunctions = new Map<string, HandlerFunction>();
  /** Operations: stage throttling and access logs of both APIs. */
  readonly protection: ApiProtection;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);

    this.webSocketApi = new WebSocketApi(this, 'WebSocketApi', {
      description: 'Receipts live events',
    });
    this.webSocketStage = new WebSocketStage(this, 'WebSocketStage', {
      webSocketApi: this.webSocketApi,
      stageName: WS_STAGE_NAME,
      autoDeploy: true,
    });

    const resources: HandlerResources = {
      table: props.table,
      documentsBucket: props.documentsBucket,
      userPool: props.userPool,
      userPoolClient: props.userPoolClient,
      webSocketStage: this.webSocketStage,
      globalAdminEmails: props.globalAdminEmails,
      // Team and invitations: the sender of invitation mail and the origin of the links in it.
      mailFrom: props.mailFrom ?? '',
      appUrl: props.siteOrigin,
      secretsKey: props.secretsKey,
      exportQueue: props.exportQueue,
      purgeQueue: props.purgeQueue,
      syncQueue: props.syncQueue,
      driveClients: props.driveClients,
      emailInDomain: props.emailInDomain,
    };
    const roles = new SharedHandlerRoles(this, 'HandlerRoles', resources);
    // One log group for the route and WebSocket handlers (each stream named after its function).
    const routeLogs = handlerLogGroup(this, 'HandlerLogs');

    this.httpApi = new HttpApi(this, 'HttpApi', {
      description: 'Receipts HTTP API (routes from shared/routes.ts)',
      corsPreflight: {
        allowOrigins: [props.siteOrigin],
        allowMethods: [CorsHttpMethod.GET, CorsHttpMethod.POST, CorsHttpMethod.PUT, CorsHttpMethod.DELETE, CorsHttpMethod.OPTIONS],
        allowHeaders: ['authorization', 'content-type', 'accept'],
        exposeHeaders: ['x-request-id'],
        maxAge: Duration.days(1),
      },
    });
    const authorizer = new HttpJwtAuthorizer(
      'CognitoJwt',
      `https://cognito-idp.${this.region}.amazonaws.com/${props.userPool.userPoolId}`,
      { jwtAudience: [props.userPoolClient.userPoolClientId], identitySource: ['$request.header.Authorization'] },
    );

    for (const route of props.entries.routes) {
      const key = routeKey(route);
      const id = routeConstructId(route);
      if (this.node.tryFindChild(`${id}Fn`)) throw new Error(`Two routes map to the construct id ${id} (${key})`);
      const fn = new HandlerFunction(this, `${id}Fn`, {
        handler: route.handler,
        bundle: props.bundle,
        description: `${key} (${route.auth}) → lambdas/${route.handler}.ts`,
        resources,
        roles,
        logGroup: routeLogs,
      });
      const [httpRoute] = this.httpApi.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${id}Integration`, fn),
        authorizer: route.auth === 'public' ? undefined : authorizer,
      });
      this.routeFunctions.set(key, fn);
      this.httpRoutes.set(key, httpRoute!);
    }

    for (const ws of props.entries.websocket) {
      const id = wsConstructId(ws.routeKey);
      const fn = new HandlerFunction(this, `${id}Fn`, {
        handler: ws.handler,
        bundle: props.bundle,
        description: `WebSocket ${ws.routeKey} → lambdas/${ws.handler}.ts`,
        resources,
        roles,
        logGroup: routeLogs,
      });
      const options: WebSocketRouteOptions = { integration: new WebSocketLambdaIntegration(`${id}Integration`, fn) };
      this.webSocketApi.addRoute(ws.routeKey, options);
      this.webSocketFunctions.set(ws.routeKey, fn);
    }

    this.protection = new ApiProtection(this, 'Protection', {
      httpApi: this.httpApi,
      httpRoutes: this.httpRoutes,
      webSocketStage: this.webSocketStage,
    });

    new CfnOutput(this, 'ApiUrl', { value: this.httpApi.apiEndpoint });
    new CfnOutput(this, 'WebSocketUrl', { value: this.webSocketStage.url });
    new CfnOutput(this, 'WebSocketCallbackUrl', { value: this.webSocketStage.callbackUrl });
  }
}
