import { AssetHashType, Duration, RemovalPolicy, type Size, Stack } from 'aws-cdk-lib';
import type { WebSocketStage } from 'aws-cdk-lib/aws-apigatewayv2';
import type { IUserPool, IUserPoolClient } from 'aws-cdk-lib/aws-cognito';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { type IGrantable, type IRole, ManagedPolicy, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Platform } from 'aws-cdk-lib/aws-ecr-assets';
import { Architecture, Code, Function as LambdaFunction, Handler, type IFunction, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays, type ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { API_HANDLER_TIMEOUT_SECONDS } from '../../shared/processing-limits';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { type ISecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { ENV_NAMES } from '../../lambdas/runtime/env';
import { GLOBAL_INDEXES } from '../../shared/table';
import { OFFICE_CONVERSION_PREFIX } from '../../shared/schemas/office-conversion';
import { LAMBDA_HANDLER, type HandlerBundle } from '../build/bundle-handlers';
import { imageContext } from '../build/image-context';
import {
  DOCUMENTS_LIST_ACTIONS,
  DOCUMENTS_READ_ACTIONS,
  DOCUMENTS_WRITE_ACTIONS,
  KMS_ACTIONS,
  OFFICE_CONVERSION_ACTIONS,
  OFFICE_CONVERTER_ACTIONS,
  SES_BOUNCE_ACTIONS,
  SES_SEND_ACTIONS,
  TABLE_ACTIONS,
  TEXTRACT_ACTIONS,
  TEXTRACT_S3_ACTIONS,
  USER_DELETION_ACTIONS,
  USER_POOL_ADMIN_ACTIONS,
  awsNeedsOf,
  checkDeclaredNeeds,
  senderAddress,
  type AwsNeed,
} from './grants';

/** Defaults of every handler function. */
export const HANDLER_DEFAULTS = {
  runtime: Runtime.NODEJS_22_X,
  architecture: Architecture.ARM_64,
  memorySize: 512,
  /** API Gateway HTTP APIs give up after 30 s. */
  timeout: Duration.seconds(API_HANDLER_TIMEOUT_SECONDS),
  logRetention: RetentionDays.ONE_MONTH,
} as const;

/** The product's resources a handler may be given: they set its environment and bound its grants. */
export interface HandlerResources {
  table?: ITable;
  documentsBucket?: IBucket;
  userPool?: IUserPool;
  userPoolClient?: IUserPoolClient;
  webSocketStage?: WebSocketStage;
  /** Integrations: the KMS key sealing credentials, and the export queue. */
  secretsKey?: IKey;
  exportQueue?: IQueue;
  /** Company deletion: the purge queue (DELETE /company and the purge job send to it). */
  purgeQueue?: IQueue;
  /** Master-data imports: the sync queue (sync now and the continuing job send to it). */
  syncQueue?: IQueue;
  /** Comma-separated platform administrators (context `globalAdminEmails`). */
  globalAdminEmails: string;
  /** Sender of outgoing mail (context `mailFrom`), an SES-verified identity; sets MAIL_FROM. */
  mailFrom?: string;
  /** The web app's origin (invitation links); sets APP_URL. */
  appUrl?: string;
  /** Google Drive and Dropbox imports: the OAuth clients (context googleClientId, googleClientSecretName, dropboxAppKey). */
  driveClients?: DriveClients;
  /** Office previews on AWS: the office converter function (sets OFFICE_CONVERTER_FUNCTION; need officeConverter). */
  officeConverter?: IFunction;
  /**
   * Email-in: the receiving domain (context `emailInDomain`); sets EMAIL_IN_DOMAIN, the domain answers and live
   * events show Email-in addresses at, and is the SES identity bounces are sent from (need sesBounce).
   */
  emailInDomain?: string;
}

export interface DriveClients {
  googleClientId: string;
  /**
   * Name or ARN of the AWS Secrets Manager secret that holds Google's client secret (context googleClientSecretName;
   * '' with googleClientId '': Google Drive import not configured). Only this reference reaches the template: the
   * functions that declare googleClientSecret get it as GOOGLE_CLIENT_SECRET_ID and may read that one secret.
   */
  googleClientSecretName: string;
  dropboxAppKey: string;
}

/**
 * The Google client secret's secret, referenced (never created, never read) in the stack of `scope`, once per stack.
 * A full ARN (with Secrets Manager's 6-character suffix) is imported as is, an ARN without it as a partial ARN, a
 * name by name (the grant then covers `<name>-??????`).
 */
export function googleClientSecretOf(scope: Construct, nameOrArn: string): ISecret {
  const stack = Stack.of(scope);
  const id = 'GoogleClientSecret';
  const existing = stack.node.tryFindChild(id) as ISecret | undefined;
  if (existing) return existing;
  if (!nameOrArn.startsWith('arn:')) return Secret.fromSecretNameV2(stack, id, nameOrArn);
  return /:secret:.+-[A-Za-z0-9]{6}$/.test(nameOrArn) ? Secret.fromSecretCompleteArn(stack, id, nameOrArn) : Secret.fromSecretPartialArn(stack, id, nameOrArn);
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
  /** Share one role per set of needs with the stack's other functions (see SharedHandlerRoles). */
  roles?: SharedHandlerRoles;
  /**
   * Write to this log group instead of one of its own: the API stack's route handlers share one (a log group per
   * function would be one of five resources per route against CloudFormation's 500; Lambda names each stream after
   * its function, and every line carries its route and request id).
   */
  logGroup?: ILogGroup;
  /**
   * Ship the bundle in a container image instead of a zip: the folder with the image's Dockerfile (its files and the
   * bundle under function/ make the build context, infra/build/image-context.ts). Docker builds it at deploy time.
   */
  containerImage?: string;
  /** /tmp of the function (default 512 MiB). */
  ephemeralStorageSize?: Size;
}

/**
 * Handler environment: the names of lambdas/runtime/env.ts, filled from the resources that are given (and, for the
 * Google client secret's reference, the needs granted).
 */
export function handlerEnvironment(scope: Construct, r: HandlerResources, needs: ReadonlySet<AwsNeed> = new Set()): Record<string, string> {
  const env: Record<string, string> = {
    [ENV_NAMES.stage]: 'aws',
    [ENV_NAMES.recogniser]: 'textract',
    [ENV_NAMES.globalAdminEmails]: r.globalAdminEmails,
    // The handlers' own default (lambdas/runtime/env.ts), stated so that it can be changed per stage.
    [ENV_NAMES.maxCompaniesPerUser]: '10',
    // Hardening: upload reservations (the handlers' defaults, stated so that they can be changed per stage).
    [ENV_NAMES.uploadReservationMinutes]: '20',
    [ENV_NAMES.maxPendingUploadsPerUser]: '50',
    NODE_OPTIONS: '--enable-source-maps',
  };
  // Email-in: the deployed receiving domain; functions that answer or publish Email-in addresses show them at it
  // (lambdas/core/email-in/address.ts), the email-in jobs take mail for it. Empty: the stored domain only.
  env[ENV_NAMES.emailInDomain] = r.emailInDomain ?? '';
  if (r.table) env[ENV_NAMES.tableName] = r.table.tableName;
  if (r.documentsBucket) env[ENV_NAMES.documentsBucket] = r.documentsBucket.bucketName;
  if (r.userPool) {
    env[ENV_NAMES.userPoolId] = r.userPool.userPoolId;
    env[ENV_NAMES.cognitoIssuer] = `https://cognito-idp.${Stack.of(scope).region}.amazonaws.com/${r.userPool.userPoolId}`;
  }
  if (r.userPoolClient) env[ENV_NAMES.userPoolClientId] = r.userPoolClient.userPoolClientId;
  if (r.webSocketStage) env[ENV_NAMES.wsCallbackUrl] = r.webSocketStage.callbackUrl;
  if (r.mailFrom !== undefined) env[ENV_NAMES.mailFrom] = r.mailFrom;
  if (r.appUrl !== undefined) env[ENV_NAMES.appUrl] = r.appUrl;
  if (r.secretsKey) env[ENV_NAMES.secretsKeyId] = r.secretsKey.keyArn;
  if (r.exportQueue) env[ENV_NAMES.exportQueueUrl] = r.exportQueue.queueUrl;
  if (r.purgeQueue) env[ENV_NAMES.purgeQueueUrl] = r.purgeQueue.queueUrl;
  if (r.syncQueue) env[ENV_NAMES.syncQueueUrl] = r.syncQueue.queueUrl;
  if (r.driveClients) {
    env[ENV_NAMES.googleClientId] = r.driveClients.googleClientId;
    // The secret itself never: only where it is kept, and only for the functions that may read it.
    if (needs.has('googleClientSecret') && r.driveClients.googleClientSecretName) env[ENV_NAMES.googleClientSecretId] = r.driveClients.googleClientSecretName;
    env[ENV_NAMES.dropboxAppKey] = r.driveClients.dropboxAppKey;
  }
  // Office previews: the processing job invokes the office converter; empty elsewhere (LibreOffice in-process if any).
  env[ENV_NAMES.officeConverterFunction] = r.officeConverter ? r.officeConverter.functionName : '';
  return env;
}

/** A log group of handlers: one month of logs, removed with the stack. */
export function handlerLogGroup(scope: Construct, id: string): LogGroup {
  return new LogGroup(scope, id, { retention: HANDLER_DEFAULTS.logRetention, removalPolicy: RemovalPolicy.DESTROY });
}

/**
 * One bundled handler as a Lambda function (Node 22, arm64, 512 MB, 29 s, one month of logs), with its
 * environment and the grants its bundled AWS SDK clients call for (see grants.ts). With `containerImage` the same
 * bundle ships in a container image built from that folder's Dockerfile (the office converter and its LibreOffice).
 */
export class HandlerFunction extends LambdaFunction {
  readonly handlerPath: string;
  readonly awsNeeds: ReadonlySet<AwsNeed>;

  constructor(scope: Construct, id: string, props: HandlerFunctionProps) {
    const built = props.bundle.get(props.handler);
    const withheld = props.withheld ?? {};
    // Least privilege: the needs declared in shared/routes.ts (checked against the bundle), else those of the bundle.
    const needs = built.declaredNeeds
      ? checkDeclaredNeeds(props.handler, built.awsSdkPackages, built.declaredNeeds)
      : awsNeedsOf(props.handler, built.awsSdkPackages);
    const granted = new Set([...needs].filter((n) => !withheld[n]));
    const logGroup = props.logGroup ?? handlerLogGroup(scope, `${id}Logs`);
    const x86 = built.architecture === 'x86_64';
    // A container image (built by Docker at deploy time, for the function's architecture) or the bundle as a zip.
    const code = props.containerImage
      ? Code.fromAssetImage(imageContext(built, props.containerImage), { platform: x86 ? Platform.LINUX_AMD64 : Platform.LINUX_ARM64 })
      : Code.fromAsset(built.dir, { assetHashType: AssetHashType.CUSTOM, assetHash: built.contentHash });
    super(scope, id, {
      runtime: props.containerImage ? Runtime.FROM_IMAGE : HANDLER_DEFAULTS.runtime,
      // The bundle's architecture (LAMBDA_ARCHITECTURE, arm64, from any deploying machine): its native binaries are for it.
      architecture: x86 ? Architecture.X86_64 : Architecture.ARM_64,
      memorySize: props.memorySize ?? HANDLER_DEFAULTS.memorySize,
      timeout: props.timeout ?? HANDLER_DEFAULTS.timeout,
      ...(props.ephemeralStorageSize ? { ephemeralStorageSize: props.ephemeralStorageSize } : {}),
      code,
      handler: props.containerImage ? Handler.FROM_IMAGE : LAMBDA_HANDLER,
      description: props.description ?? `lambdas/${props.handler}.ts`,
      environment: handlerEnvironment(scope, props.resources, granted),
      logGroup,
      // Operations: X-Ray traces of every invocation (the dashboard and the service map in the X-Ray console).
      tracing: Tracing.ACTIVE,
      role: props.roles?.roleFor(props.handler, granted),
    });
    this.handlerPath = props.handler;
    this.awsNeeds = needs;
    if (!props.roles) grantNeeds(this, props.handler, granted, props.resources);
  }
}

/**
 * Execution roles shared by the functions of one stack that need exactly the same grants: each function still
 * has only what its own code calls, but a stack with one function per route stays far below CloudFormation's
 * 500-resource limit (a role and its policy per function would be two of about seven resources per route).
 */
export class SharedHandlerRoles extends Construct {
  private readonly roles = new Map<string, Role>();

  constructor(
    scope: Construct,
    id: string,
    private readonly resources: HandlerResources,
  ) {
    super(scope, id);
  }

  roleFor(handler: string, needs: ReadonlySet<AwsNeed>): IRole {
    const sorted = [...needs].sort();
    const key = sorted.join('+');
    let role = this.roles.get(key);
    if (!role) {
      const name = sorted.map((n) => n[0]!.toUpperCase() + n.slice(1)).join('') || 'Basic';
      role = new Role(this, name, {
        assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
        description: `Handlers that call: ${sorted.join(', ') || 'no AWS service'}`,
        managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSLambdaBasicExecutionRole')],
      });
      grantNeeds(role, handler, needs, this.resources);
      this.roles.set(key, role);
    }
    return role;
  }
}

function grantNeeds(grantee: IGrantable, handler: string, needs: ReadonlySet<AwsNeed>, r: HandlerResources): void {
  const missing = (need: AwsNeed, what: string): never => {
    throw new Error(
      `lambdas/${handler}.ts calls ${need} (from its bundled AWS SDK clients) but its stack gives it no ${what}; ` +
        'pass the resource, or list the need in `withheld` with the reason.',
    );
  };
  const allow = (actions: string[], resources: string[]) =>
    grantee.grantPrincipal.addToPrincipalPolicy(new PolicyStatement({ actions, resources }));
  for (const need of needs) {
    switch (need) {
      case 'table':
        if (!r.table) missing(need, 'table');
        // The table and its global secondary indexes by name (shared/table.ts), no wildcard.
        allow(TABLE_ACTIONS, [r.table!.tableArn, ...GLOBAL_INDEXES.map((i) => `${r.table!.tableArn}/index/${i.indexName}`)]);
        break;
      case 'documentsRead':
        if (!r.documentsBucket) missing(need, 'documents bucket');
        allow(DOCUMENTS_READ_ACTIONS, [r.documentsBucket!.arnForObjects('*')]);
        allow(DOCUMENTS_LIST_ACTIONS, [r.documentsBucket!.bucketArn]);
        break;
      case 'documentsBucket':
        if (!r.documentsBucket) missing(need, 'documents bucket');
        allow([...DOCUMENTS_READ_ACTIONS, ...DOCUMENTS_WRITE_ACTIONS], [r.documentsBucket!.arnForObjects('*')]);
        allow(DOCUMENTS_LIST_ACTIONS, [r.documentsBucket!.bucketArn]);
        break;
      case 'userDeletion':
        if (!r.userPool) missing(need, 'user pool');
        allow(USER_DELETION_ACTIONS, [r.userPool!.userPoolArn]);
        break;
      case 'userPoolAdmin':
        if (!r.userPool) missing(need, 'user pool');
        allow(USER_POOL_ADMIN_ACTIONS, [r.userPool!.userPoolArn]);
        break;
      case 'webSocketManage':
        if (!r.webSocketStage) missing(need, 'WebSocket stage');
        r.webSocketStage!.grantManagementApiAccess(grantee);
        break;
      case 'secretsKey':
        if (!r.secretsKey) missing(need, 'secrets key');
        allow(KMS_ACTIONS, [r.secretsKey!.keyArn]);
        break;
      case 'exportQueue':
        if (!r.exportQueue) missing(need, 'export queue');
        r.exportQueue!.grantSendMessages(grantee);
        break;
      case 'purgeQueue':
        if (!r.purgeQueue) missing(need, 'company purge queue');
        r.purgeQueue!.grantSendMessages(grantee);
        break;
      case 'syncQueue':
        if (!r.syncQueue) missing(need, 'master-data sync queue');
        r.syncQueue!.grantSendMessages(grantee);
        break;
      case 'textract':
        // Textract's expense actions have no resource-level permissions; it reads the upload with the caller's credentials.
        allow(TEXTRACT_ACTIONS, ['*']);
        if (r.documentsBucket) allow(TEXTRACT_S3_ACTIONS, [r.documentsBucket.arnForObjects('*')]);
        break;
      case 'officeConversion':
        // The office converter: the office file and its PDF under office-conversion/, nothing else of the bucket.
        if (!r.documentsBucket) missing(need, 'documents bucket');
        allow(OFFICE_CONVERSION_ACTIONS, [r.documentsBucket!.arnForObjects(`${OFFICE_CONVERSION_PREFIX}*`)]);
        break;
      case 'officeConverter':
        if (!r.officeConverter) missing(need, 'office converter function');
        allow(OFFICE_CONVERTER_ACTIONS, [r.officeConverter!.functionArn]);
        break;
      case 'sesBounce': {
        // SendBounce only from the email-in domain's own identity.
        if (!r.emailInDomain) missing(need, 'email-in domain');
        const stack = Stack.of(grantee as unknown as Construct);
        allow(SES_BOUNCE_ACTIONS, [`arn:${stack.partition}:ses:${stack.region}:${stack.account}:identity/${r.emailInDomain}`]);
        break;
      }
      case 'googleClientSecret':
        // Without a secret (no -c googleClientSecretName) Google Drive import is not configured: nothing to read.
        if (!r.driveClients?.googleClientSecretName) break;
        // GetSecretValue (and DescribeSecret) on that one secret.
        googleClientSecretOf(grantee as unknown as Construct, r.driveClients.googleClientSecretName).grantRead(grantee);
        break;
      case 'sesSend': {
        // Without a sender (`cdk deploy -c mailFrom=...`) nothing may be sent: no grant, and the handler
        // answers that the mail could not be sent.
        if (!r.mailFrom) break;
        // SendEmail on this account's SES identities, and only with the configured sender as From.
        const stack = Stack.of(grantee as unknown as Construct);
        grantee.grantPrincipal.addToPrincipalPolicy(
          new PolicyStatement({
            actions: SES_SEND_ACTIONS,
            resources: [`arn:${stack.partition}:ses:${stack.region}:${stack.account}:identity/*`],
            conditions: { StringEquals: { 'ses:FromAddress': senderAddress(r.mailFrom!) } },
          }),
        );
        break;
      }
    }
  }
}
