import { AssetHashType, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { WebSocketStage } from 'aws-cdk-lib/aws-apigatewayv2';
import type { IUserPool, IUserPoolClient } from 'aws-cdk-lib/aws-cognito';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Architecture, Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { ENV_NAMES } from '../../lambdas/runtime/env';
import { LAMBDA_HANDLER, type HandlerBundle } from '../build/bundle-handlers';
import { TEXTRACT_ACTIONS, USER_POOL_ADMIN_ACTIONS, awsNeedsOf, type AwsNeed } from './grants';

/** Defaults of every handler function. */
export const HANDLER_DEFAULTS = {
  runtime: Runtime.NODEJS_22_X,
  architecture: Architecture.ARM_64,
  memorySize: 512,
  /** API Gateway HTTP APIs give up after 30 s. */
  timeout: Duration.seconds(29),
  logRetention: RetentionDays.ONE_MONTH,
} as const;

/** The product's resources a handler may be given: they set its environment and bound its grants. */
export interface HandlerResources {
  table?: ITable;
  documentsBucket?: IBucket;
  userPool?: IUserPool;
  userPoolClient?: IUserPoolClient;
  webSocketStage?: WebSocketStage;
  /** Comma-separated platform administrators (context `globalAdminEmails`). */
  globalAdminEmails: string;
}

export interface HandlerFunctionProps {
  /** Path under lambdas/ without `.ts`, as in shared/routes.ts. */
  handler: string;
  bundle: HandlerBundle;
  resources: HandlerResources;
  description?: string;
  timeout?: Duration;
  memorySize?: number;
  /**
   * Needs deliberately not granted here, each with the reason (e.g. the resource would make a dependency
   * cycle and the stack grants it another way, or the code path is inactive without the resource).
   */
  withheld?: Partial<Record<AwsNeed, string>>;
}

/** Handler environment: the names of lambdas/runtime/env.ts, filled from the resources that are given. */
export function handlerEnvironment(scope: Construct, r: HandlerResources): Record<string, string> {
  const env: Record<string, string> = {
    [ENV_NAMES.stage]: 'aws',
    [ENV_NAMES.recogniser]: 'textract',
    [ENV_NAMES.globalAdminEmails]: r.globalAdminEmails,
    NODE_OPTIONS: '--enable-source-maps',
  };
  if (r.table) env[ENV_NAMES.tableName] = r.table.tableName;
  if (r.documentsBucket) env[ENV_NAMES.documentsBucket] = r.documentsBucket.bucketName;
  if (r.userPool) {
    env[ENV_NAMES.userPoolId] = r.userPool.userPoolId;
    env[ENV_NAMES.cognitoIssuer] = `https://cognito-idp.${Stack.of(scope).region}.amazonaws.com/${r.userPool.userPoolId}`;
  }
  if (r.userPoolClient) env[ENV_NAMES.userPoolClientId] = r.userPoolClient.userPoolClientId;
  if (r.webSocketStage) env[ENV_NAMES.wsCallbackUrl] = r.webSocketStage.callbackUrl;
  return env;
}

/**
 * One bundled handler as a Lambda function (Node 22, arm64, 512 MB, 29 s, one month of logs), with its
 * environment and the grants its bundled AWS SDK clients call for (see grants.ts).
 */
export class HandlerFunction extends LambdaFunction {
  readonly handlerPath: string;
  readonly awsNeeds: ReadonlySet<AwsNeed>;

  constructor(scope: Construct, id: string, props: HandlerFunctionProps) {
    const built = props.bundle.get(props.handler);
    const logGroup = new LogGroup(scope, `${id}Logs`, {
      retention: HANDLER_DEFAULTS.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    super(scope, id, {
      runtime: HANDLER_DEFAULTS.runtime,
      // arm64 unless the handler ships a native package whose only installed Linux binary is x64.
      architecture: built.architecture === 'x86_64' ? Architecture.X86_64 : HANDLER_DEFAULTS.architecture,
      memorySize: props.memorySize ?? HANDLER_DEFAULTS.memorySize,
      timeout: props.timeout ?? HANDLER_DEFAULTS.timeout,
      code: Code.fromAsset(built.dir, { assetHashType: AssetHashType.CUSTOM, assetHash: built.contentHash }),
      handler: LAMBDA_HANDLER,
      description: props.description ?? `lambdas/${props.handler}.ts`,
      environment: handlerEnvironment(scope, props.resources),
      logGroup,
    });
    this.handlerPath = props.handler;
    this.awsNeeds = awsNeedsOf(props.handler, built.awsSdkPackages);
    this.grantNeeds(props.resources, props.withheld ?? {});
  }

  private grantNeeds(r: HandlerResources, withheld: Partial<Record<AwsNeed, string>>): void {
    const missing = (need: AwsNeed, what: string): never => {
      throw new Error(
        `lambdas/${this.handlerPath}.ts calls ${need} (from its bundled AWS SDK clients) but its stack gives it no ${what}; ` +
          'pass the resource, or list the need in `withheld` with the reason.',
      );
    };
    for (const need of this.awsNeeds) {
      if (withheld[need]) continue;
      switch (need) {
        case 'table':
          if (!r.table) missing(need, 'table');
          r.table!.grantReadWriteData(this);
          break;
        case 'documentsBucket':
          if (!r.documentsBucket) missing(need, 'documents bucket');
          r.documentsBucket!.grantReadWrite(this);
          break;
        case 'userPoolAdmin':
          if (!r.userPool) missing(need, 'user pool');
          this.addToRolePolicy(new PolicyStatement({ actions: USER_POOL_ADMIN_ACTIONS, resources: [r.userPool!.userPoolArn] }));
          break;
        case 'webSocketManage':
          if (!r.webSocketStage) missing(need, 'WebSocket stage');
          r.webSocketStage!.grantManagementApiAccess(this);
          break;
        case 'textract':
          // Textract's expense actions have no resource-level permissions.
          this.addToRolePolicy(new PolicyStatement({ actions: TEXTRACT_ACTIONS, resources: ['*'] }));
          break;
      }
    }
  }
}
