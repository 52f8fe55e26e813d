import type { App, Environment } from 'aws-cdk-lib';
import { EMAIL_IN_DOMAIN } from '../../shared/constants';
import type { HandlerBundle } from '../build/bundle-handlers';
import type { HandlerEntries } from '../build/handler-entries';
import { ApiStack } from './api-stack';
import { AuthStack } from './auth-stack';
import { DataStack } from './data-stack';
import { EmailInStack } from './email-in-stack';
import { IntegrationsStack } from './integrations-stack';
import { ProcessingStack } from './processing-stack';
import { WebContentStack } from './web-content-stack';
import { WebStack } from './web-stack';
import { OperationsStack } from './operations-stack';
import { AuthWaf } from '../constructs/waf';
import { acknowledgeNagFindings } from '../nag';
import type { DriveClients } from '../constructs/handler-function';

export const REGION = 'eu-west-1';
const CROSS_STACK_REFERENCES = '@aws-cdk/core:defaultCrossStackReferences';
const VALIDATE_AGAINST_DEFAULT_RULES = '@aws-cdk/core:validateAgainstDefaultRules';

export interface ReceiptsStacksOptions {
  bundle: HandlerBundle;
  entries: HandlerEntries;
  /** Comma-separated e-mails of platform administrators (context `globalAdminEmails`). */
  globalAdminEmails: string;
  /** Sender of invitation mail, an SES-verified address or domain identity (context `mailFrom`). */
  mailFrom?: string;
  /** The SES domain identity that verifies mailFrom (context `sesIdentity`); absent: the address itself. */
  sesIdentity?: string;
  webDistDir: string;
  /** Default: the CLI's account (may be undefined for offline synth) in eu-west-1. */
  env?: Environment;
  prefix?: string;
  /** Email-in: the domain SES receives mail for (context `emailInDomain`; default shared/constants EMAIL_IN_DOMAIN). */
  emailInDomain?: string;
  /** Operations: where alarms are e-mailed (context `alarmEmail`). */
  alarmEmail?: string;
  /** Operations: a WAF web ACL with a rate-based rule on the user pool (context `waf=true`). */
  waf?: boolean;
  /** Google Drive and Dropbox imports: OAuth clients (context googleClientId, googleClientSecretName, dropboxAppKey; driveClientsFrom). */
  driveClients?: DriveClients;
}

export interface ReceiptsStacks {
  web: WebStack;
  data: DataStack;
  auth: AuthStack;
  api: ApiStack;
  processing: ProcessingStack;
  webContent: WebContentStack;
  emailIn: EmailInStack;
  integrations: IntegrationsStack;
  operations: OperationsStack;
}

/**
 * The stacks and their order (each depends only on those before it):
 * Web (bucket + CloudFront; its origin is needed for CORS) → Data (table, documents bucket) → Auth (pool,
 * client, PostConfirmation) → Api (HTTP + WebSocket APIs, one Lambda per route) → Processing (uploads queue,
 * job consumer) and WebContent (SPA files + /config.json).
 */
export function createReceiptsStacks(app: App, options: ReceiptsStacksOptions): ReceiptsStacks {
  // New project: weak cross-stack references (Fn::GetStackOutput), as `cdk init` recommends; a producer's
  // output can change without the "export in use" deadlock of Fn::ImportValue. Overridable with -c.
  if (app.node.tryGetContext(CROSS_STACK_REFERENCES) === undefined) app.node.setContext(CROSS_STACK_REFERENCES, 'weak');
  // CloudFormation Validate findings (schema, common misconfigurations) fail the synth instead of warning.
  if (app.node.tryGetContext(VALIDATE_AGAINST_DEFAULT_RULES) === undefined) app.node.setContext(VALIDATE_AGAINST_DEFAULT_RULES, true);
  const env: Environment = options.env ?? { account: process.env.CDK_DEFAULT_ACCOUNT, region: REGION };
  const prefix = options.prefix ?? 'Receipts';
  const common = { env, bundle: options.bundle, entries: options.entries, globalAdminEmails: options.globalAdminEmails };
  // Email-in: the receiving domain; the API and the jobs that publish companies show addresses at it too.
  const emailInDomain = (options.emailInDomain ?? EMAIL_IN_DOMAIN).trim().toLowerCase();

  const web = new WebStack(app, `${prefix}Web`, { env, description: 'Receipts: SPA hosting (S3 + CloudFront)' });
  const data = new DataStack(app, `${prefix}Data`, {
    env,
    description: 'Receipts: DynamoDB table and documents bucket',
    siteOrigin: web.siteOrigin,
  });
  const auth = new AuthStack(app, `${prefix}Auth`, {
    ...common,
    description: 'Receipts: Cognito user pool',
    table: data.table,
    documentsBucket: data.documentsBucket,
    // Sign-up codes and password resets through SES (context mailFrom / sesIdentity).
    mailFrom: options.mailFrom,
    sesIdentity: options.sesIdentity,
  });
  // Integrations: credentials key and export queue, before the API and the processing stack that use them.
  const integrations = new IntegrationsStack(app, `${prefix}Integrations`, { env, description: 'Receipts: integration credentials key, export queue and company purge queue' });
  const api = new ApiStack(app, `${prefix}Api`, {
    ...common,
    description: 'Receipts: HTTP and WebSocket APIs',
    table: data.table,
    documentsBucket: data.documentsBucket,
    userPool: auth.userPool,
    userPoolClient: auth.userPoolClient,
    siteOrigin: web.siteOrigin,
    mailFrom: options.mailFrom,
    secretsKey: integrations.secretsKey,
    exportQueue: integrations.exportQueue,
    purgeQueue: integrations.purgeQueue,
    syncQueue: integrations.syncQueue,
    driveClients: options.driveClients,
    emailInDomain,
  });
  const processing = new ProcessingStack(app, `${prefix}Processing`, {
    ...common,
    description: 'Receipts: document processing queue and job',
    table: data.table,
    documentsBucket: data.documentsBucket,
    userPool: auth.userPool,
    userPoolClient: auth.userPoolClient,
    webSocketStage: api.webSocketStage,
    secretsKey: integrations.secretsKey,
    exportQueue: integrations.exportQueue,
    purgeQueue: integrations.purgeQueue,
    syncQueue: integrations.syncQueue,
    driveClients: options.driveClients,
    siteOrigin: web.siteOrigin,
    emailInDomain,
  });
  const emailIn = new EmailInStack(app, `${prefix}EmailIn`, {
    ...common,
    description: 'Receipts: email-in (SES receiving → S3 → queue → job)',
    table: data.table,
    documentsBucket: data.documentsBucket,
    userPool: auth.userPool,
    userPoolClient: auth.userPoolClient,
    webSocketStage: api.webSocketStage,
    emailInDomain,
    mailFrom: options.mailFrom,
  });
  // Both stacks merge notifications into the documents bucket's configuration: one after the other.
  emailIn.addStackDependency(processing);
  const webContent = new WebContentStack(app, `${prefix}WebContent`, {
    env,
    description: 'Receipts: SPA files and /config.json',
    siteBucket: web.siteBucket,
    distribution: web.distribution,
    webDistDir: options.webDistDir,
    config: {
      apiUrl: api.httpApi.apiEndpoint,
      wsUrl: api.webSocketStage.url,
      region: env.region ?? REGION,
      userPoolId: auth.userPool.userPoolId,
      userPoolClientId: auth.userPoolClient.userPoolClientId,
    },
  });
  // Operations: optional WAF on the user pool, then the alarms and dashboard over every stack's functions and queues.
  if (options.waf) new AuthWaf(auth, 'AuthWaf', { userPool: auth.userPool });
  const operations = new OperationsStack(app, `${prefix}Operations`, {
    env,
    description: 'Receipts: alarms, alarm topic and dashboard',
    watched: [auth, api, processing, emailIn, integrations],
    httpApi: api.httpApi,
    table: data.table,
    alarmEmail: options.alarmEmail,
  });
  const stacks = { web, data, auth, api, processing, webContent, emailIn, integrations, operations };
  // cdk-nag (AwsSolutions): the findings accepted, each with its reason (infra/nag.ts).
  acknowledgeNagFindings(stacks);
  return stacks;
}

/** Context `globalAdminEmails`: a comma-separated string or a JSON array of e-mails. */
export function globalAdminEmailsFrom(value: unknown): string {
  if (value === undefined || value === null) return '';
  const list = Array.isArray(value) ? value.map(String) : String(value).split(',');
  return list
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean)
    .join(',');
}

/**
 * Context googleClientId, googleClientSecretName and dropboxAppKey: the Google Drive and Dropbox OAuth clients.
 * Google's client secret is stored once in AWS Secrets Manager by the deployer; the context names that secret (its
 * name or ARN), so the value never reaches the template, the functions' environment or cdk.out. A plaintext
 * `googleClientSecret` is refused. Neither googleClientId nor googleClientSecretName: Google Drive import not
 * configured (switching it on answers the connection error); one without the other is refused too.
 */
export function driveClientsFrom(context: (key: string) => unknown): DriveClients {
  const text = (key: string) => String(context(key) ?? '').trim();
  if (text('googleClientSecret')) {
    throw new Error(
      'Context googleClientSecret is no longer accepted: the Google client secret would be written into the CloudFormation ' +
        'template and the functions\' environment. Store it in AWS Secrets Manager once ' +
        '(aws secretsmanager create-secret --name receipts/google-client-secret --secret-string <secret>) and deploy with ' +
        '-c googleClientSecretName=receipts/google-client-secret (the name or the ARN).',
    );
  }
  const googleClientId = text('googleClientId');
  const googleClientSecretName = text('googleClientSecretName');
  if (googleClientId && !googleClientSecretName) {
    throw new Error('Context googleClientId needs googleClientSecretName: the name or ARN of the Secrets Manager secret holding the Google client secret.');
  }
  if (googleClientSecretName && !googleClientId) {
    throw new Error('Context googleClientSecretName needs googleClientId: the OAuth client id of the same Google OAuth client.');
  }
  // Secrets Manager names: letters, digits and /_+=.@- (at most 512); an ARN: arn:<partition>:secretsmanager:<region>:<account>:secret:<name>.
  if (googleClientSecretName && !/^(?:[A-Za-z0-9/_+=.@-]{1,512}|arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:[A-Za-z0-9/_+=.@-]{1,512})$/.test(googleClientSecretName)) {
    throw new Error(`Context googleClientSecretName is neither a Secrets Manager secret name nor its ARN: ${googleClientSecretName}`);
  }
  return { googleClientId, googleClientSecretName, dropboxAppKey: text('dropboxAppKey') };
}
