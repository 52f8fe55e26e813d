import { createServer, STATUS_CODES, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { PostConfirmationTriggerEvent, PreSignUpTriggerEvent, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { codeMail } from '../../shared/code-mail';
import { PROCESSING_LIMITS } from '../../shared/processing-limits';
import { resetDdbClient } from '../../lambdas/adapters/ddb/client';
import { ddbEmailStore } from '../../lambdas/adapters/ddb/email-store';
import { isKnownRecipient } from '../../lambdas/core/email-in/receive';
import { resetLiveEventsClient } from '../../lambdas/adapters/ws/live-events';
import { resetS3Client, s3Files } from '../../lambdas/adapters/s3/files';
import { PROCESSING_PREFIXES } from '../../lambdas/core/documents/files';
import { IMPORT_MAX_RECEIVES, IMPORT_PREFIX } from '../../lambdas/core/master-data/import/service';
import { closeRecogniser } from '../../lambdas/jobs/lib/recogniser';
import { resetEnvCache } from '../../lambdas/runtime/env';
import { jobHandlers, triggerHandlers } from '../../shared/routes';
import { EMAIL_IN_DOMAIN, EMAIL_IN_PREFIX } from '../../shared/constants';
import { handleApiRequest, loadHandler } from './api-adapter';
import { localCredentials } from './credentials';
import { createLocalCognito, type LocalCognito } from './cognito';
import { rememberSignedUrl } from './sigv4';
import { startLocalDynamo, type LocalDynamo } from './dynamo';
import { createLocalJobQueue, MAX_RECEIVES, type LocalJobQueue } from './jobs';
import { startLocalS3, type LocalS3 } from './s3';
import { startLocalSmtp, type LocalSmtp } from './smtp';
import { startLocalMail, type CaughtMail, type LocalMail } from './mail';
import { resetMailClient } from '../../lambdas/adapters/mail/ses-mailer';
import { serveStatic } from './static-files';
import { ensureTable } from './table';
import { LocalWebSocketGateway } from './ws-adapter';
import { localRequestGuard, type Refusal } from './host-guard';
// Integrations
import { resetSecretBox } from '../../lambdas/adapters/secrets';
import { resetSqsClient } from '../../lambdas/adapters/sqs/export-queue';
import { resetCognitoClient } from '../../lambdas/adapters/cognito/user-pool';
import { createRivileStandIn, type RivileStandIn } from './rivile-server';
import { localSqs } from './sqs';
// Google Drive and Dropbox imports
import { createDropboxStandIn, DROPBOX_LOCAL_APP_KEY, type DropboxStandIn } from './dropbox-server';
import { createGoogleDriveStandIn, GOOGLE_LOCAL_CLIENT, type GoogleDriveStandIn } from './google-drive-server';
import { startDriveSchedule, type DriveSchedule } from './drive-schedule';

export const EXPORT_QUEUE_NAME = 'local-exports';
/** Company deletion: the purge queue (SQS stand-in at /_sqs) → the purge job. */
export const PURGE_QUEUE_NAME = 'local-company-purge';
/** Master-data imports: the sync queue (SQS stand-in at /_sqs) → the continuing job. */
export const SYNC_QUEUE_NAME = 'local-master-data-sync';

/** OpenAPI: the document's path, in local mode and on the deployed site (infra/stacks/web-content-stack.ts). */
export const OPENAPI_PATH = '/api/openapi.json';

export const LOCAL_POOL_ID = 'eu-west-1_LocalPool';
export const LOCAL_CLIENT_ID = 'local-web-client';
export const TABLE_NAME = 'receipts-local';
export const BUCKET = 'documents';

export interface LocalStackOptions {
  dataDir: string;
  port?: number;
  host?: string;
  webRoot?: string;
  globalAdminEmails?: string[];
  onCode?: (info: { email: string; kind: string; code: string }) => void;
  /** Email-in: port of the local SMTP server (0 or absent: any free port). */
  smtpPort?: number;
  /** Email-in: use a free port when smtpPort is taken. */
  smtpAnyPortIfTaken?: boolean;
  /** Team and invitations: called for every message the local SMTP catcher receives. */
  onMail?: (mail: CaughtMail) => void;
  /** Team and invitations: port of the local SMTP catcher of outgoing mail (0 or absent: a free one). */
  mailCatcherPort?: number;
  /** Integrations: the export job's retry delays (tests shorten them; default 30 s, then ×4). */
  exportRetry?: { baseSeconds?: number; msPerDelaySecond?: number; maxAttempts?: number };
  /** Integrations: API keys the local Rivile stand-in accepts (/_rivile). */
  rivileKeys?: string[];
  /**
   * Integrations: FTP / SQL hosts on loopback and private addresses allowed (INTEGRATIONS_ALLOW_PRIVATE_HOSTS), as
   * local mode's stand-ins listen on 127.0.0.1; default on. Tests of the refusal start a stack with false.
   */
  allowPrivateHosts?: boolean;
  /** Company deletion: how long a DelaySeconds second of the purge queue lasts here (default 1000 ms; tests shorten it). */
  purgeMsPerDelaySecond?: number;
  /** The processing job's timeout (default the function's, shared/processing-limits.ts; tests shorten it). */
  processingTimeoutMs?: number;
  /** Google Drive and Dropbox imports: seconds between runs of the import schedule (0 or absent: no timer; tests tick by hand). */
  drivePollSeconds?: number;
  /** Google Drive and Dropbox imports: port of the Google stand-in (0 or absent: a free one). */
  googlePort?: number;
  /** Master-data imports (SQL, Rivile): how often the local timer runs the schedule's job (absent or 0: never). */
  syncScheduleMs?: number;
  /** Smoke test: Cognito's codes are also e-mailed to the local mail catcher (/_mail), as Cognito mails them. */
  mailCodes?: boolean;
  /** Live updates: how long a WebSocket connection may stay open (default API Gateway's two hours; tests shorten it). */
  wsMaxConnectionMs?: number;
  /**
   * Email-in: a receiving domain as a deployment's context `emailInDomain` sets it (EMAIL_IN_DOMAIN): addresses are
   * shown at it and mail to it is taken too. Absent (local mode): the product's own domain only.
   */
  emailInDomain?: string;
}

export interface LocalStack {
  url: string;
  apiUrl: string;
  wsUrl: string;
  cognitoEndpoint: string;
  dynamo: LocalDynamo;
  s3: LocalS3;
  cognito: LocalCognito;
  /** The processing job's queue (S3 object-created → SQS → job). */
  jobs: LocalJobQueue;
  /** Email-in: the local SMTP server (SES receiving) and its job's queue (inbound/ → SQS → job). */
  smtp: LocalSmtp;
  emailJobs: LocalJobQueue;
  /** Integrations: the export queue (SQS stand-in at /_sqs) and the Rivile stand-in at /_rivile. */
  exportJobs: LocalJobQueue;
  rivile: RivileStandIn;
  /** Company deletion: the purge queue (SQS stand-in at /_sqs) and its job. */
  purgeJobs: LocalJobQueue;
  /** The master-data import job's queue (S3 imports/ → SQS → job). */
  importJobs: LocalJobQueue;
  /** Master-data imports: the sync queue (SQS stand-in at /_sqs) and the job continuing runs that stopped for now. */
  syncJobs: LocalJobQueue;
  /** Outgoing mail: the SES stand-in (/_ses) and the SMTP catcher, readable at /_mail. */
  mail: LocalMail;
  /** Google Drive and Dropbox imports: the stand-ins (Google on its own port at googleUrl, Dropbox at /_dropbox) and the schedule (tick runs the job once). */
  google: GoogleDriveStandIn;
  googleUrl: string;
  dropbox: DropboxStandIn;
  driveSchedule: DriveSchedule;
  /**
   * Closes everything. By default the jobs running finish first (tests). With `now` (`npm start`'s stop, the process
   * ends next): no queue takes another message, the jobs running are not waited for and the recogniser threads end
   * after their model run in flight; those jobs' messages stay on disk and are delivered again at the next start.
   */
  stop(opts?: { now?: boolean }): Promise<void>;
}

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The pool's code e-mails (VerificationEmailStyle.CODE, the text of shared/code-mail.ts), sent to the local catcher. */
const CODE_MAILS: Record<string, (code: string, email: string) => { subject: string; text: string }> = {
  // the user pool's code mail (infra/stacks/auth-stack.ts): one message for sign-up, resend and a forgotten password
  signup: (code) => codeMail(code),
  resend: (code) => codeMail(code),
  forgot: (code) => codeMail(code),
  invite: (code, email) => ({ subject: 'Your temporary password', text: `Your username is ${email} and temporary password is ${code}` }),
};

async function mailCode(smtpPort: number, info: { email: string; kind: string; code: string }): Promise<void> {
  const message = (CODE_MAILS[info.kind] ?? CODE_MAILS.signup!)(info.code, info.email);
  const { default: nodemailer } = await import('nodemailer');
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtpPort, secure: false, ignoreTLS: true });
  try {
    await transport.sendMail({ from: 'Receipts <no-reply@verificationemail.com>', to: info.email, ...message });
  } finally {
    transport.close();
  }
}

/** The request's client closed its connection before its body was read (Node's 'aborted'): not a failure of ours. */
function clientWentAway(error: unknown): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === 'ECONNRESET' && error.message === 'aborted';
}

/** A request the host guard refuses: its status and short text, and the connection closed. */
function refuse(res: ServerResponse, refusal: Refusal): void {
  res.writeHead(refusal.status, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
  res.end(refusal.text);
}

/**
 * Starts local mode: DynamoDB, S3 and Cognito stand-ins, and one HTTP server that is the
 * API Gateway (HTTP under /api, WebSocket at /ws, @connections under /_ws), the Cognito
 * endpoint (/cognito) and the SPA host (everything else, with /config.json).
 */
export async function startLocalStack(opts: LocalStackOptions): Promise<LocalStack> {
  mkdirSync(opts.dataDir, { recursive: true });
  const host = opts.host ?? '127.0.0.1';
  const dynamo = await startLocalDynamo({ dataDir: path.join(opts.dataDir, 'dynamodb') });
  const credentials = localCredentials(opts.dataDir);
  const s3 = await startLocalS3({ dataDir: path.join(opts.dataDir, 's3'), bucket: BUCKET, credentials });
  const mail = await startLocalMail({ dataDir: path.join(opts.dataDir, 'mail'), credentials, smtpPort: opts.mailCatcherPort, onMail: opts.onMail });

  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://${host}:${port}`;
  const cognitoEndpoint = `${url}/cognito`;
  // Google Drive's stand-in on its own port: the Drive SDK keeps only the origin of its root URL.
  const google = createGoogleDriveStandIn({ file: path.join(opts.dataDir, 'google-drive.json') });
  const googleServer: Server = createServer();
  await new Promise<void>((resolve) => googleServer.listen(opts.googlePort ?? 0, host, resolve));
  const googlePort = (googleServer.address() as AddressInfo).port;
  const googleUrl = `http://${host}:${googlePort}`;
  // DNS rebinding: the stand-in answers only its own names, and state changes only from its own page.
  const googleGuard = localRequestGuard({ host, port: googlePort, originChecked: () => true });
  googleServer.on('request', (req, res) => {
    const refusal = googleGuard(req);
    if (refusal) return refuse(res, refusal);
    google.handle(req, res, '').catch((error: unknown) => {
      if (clientWentAway(error)) return void res.destroy();
      console.error('[google] request failed', error);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });

  Object.assign(process.env, {
    STAGE: 'local',
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
    AWS_ENDPOINT_URL_S3: s3.endpoint,
    AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER: cognitoEndpoint,
    TABLE_NAME,
    DOCUMENTS_BUCKET: BUCKET,
    USER_POOL_ID: LOCAL_POOL_ID,
    USER_POOL_CLIENT_ID: LOCAL_CLIENT_ID,
    COGNITO_ISSUER: `${cognitoEndpoint}/${LOCAL_POOL_ID}`,
    WS_CALLBACK_URL: `${url}/_ws`,
    GLOBAL_ADMIN_EMAILS: (opts.globalAdminEmails ?? []).join(','),
    RECOGNISER: 'local',
    // Team and invitations: SES v2 goes to the local stand-in, which delivers to the SMTP catcher.
    AWS_ENDPOINT_URL_SESV2: `${url}/_ses`,
    MAIL_FROM: 'Receipts <no-reply@receipts.local>',
    APP_URL: url,
    // Integrations
    AWS_ENDPOINT_URL_SQS: `${url}/_sqs`,
    EXPORT_QUEUE_URL: `${url}/_sqs/${EXPORT_QUEUE_NAME}`,
    COMPANY_PURGE_QUEUE_URL: `${url}/_sqs/${PURGE_QUEUE_NAME}`,
    MASTER_DATA_SYNC_QUEUE_URL: `${url}/_sqs/${SYNC_QUEUE_NAME}`,
    LOCAL_SECRETS_KEY_FILE: path.join(opts.dataDir, 'secrets', 'integrations.key'),
    RIVILE_API_URL: process.env.LOCAL_RIVILE_API_URL || `${url}/_rivile/client/v2`,
    // The local FTP and SQL servers are on 127.0.0.1: local mode allows internal hosts (AWS never does).
    INTEGRATIONS_ALLOW_PRIVATE_HOSTS: opts.allowPrivateHosts === false ? '0' : '1',
    EXPORT_RETRY_BASE_SECONDS: String(opts.exportRetry?.baseSeconds ?? 30),
    EXPORT_MAX_ATTEMPTS: String(opts.exportRetry?.maxAttempts ?? 5),
    // Google Drive and Dropbox imports: the official SDKs, pointed at the stand-ins below. The client secret is a
    // plain value here (no AWS in local mode); in AWS it stays in Secrets Manager (GOOGLE_CLIENT_SECRET_ID).
    GOOGLE_CLIENT_ID: GOOGLE_LOCAL_CLIENT.clientId,
    GOOGLE_CLIENT_SECRET: GOOGLE_LOCAL_CLIENT.clientSecret,
    GOOGLE_OAUTH_URL: googleUrl,
    GOOGLE_API_URL: `${googleUrl}/`,
    DROPBOX_APP_KEY: DROPBOX_LOCAL_APP_KEY,
    DROPBOX_URL: `${url}/_dropbox`,
    EMAIL_IN_DOMAIN: opts.emailInDomain ?? '',
  });
  resetEnvCache();
  resetDdbClient();
  resetLiveEventsClient();
  resetS3Client();
  resetMailClient();
  resetSqsClient();
  resetCognitoClient();
  resetSecretBox();
  await ensureTable(dynamo.endpoint, TABLE_NAME);

  // S3 object-created → SQS message with the S3 notification as body → processing job, as in AWS, with the
  // function's timeout; messages given up go to the dead-letter consumer, and a timer runs the sweeper.
  const jobs = createLocalJobQueue(() => loadHandler(jobHandlers.processDocument), 'eu-west-1', path.join(opts.dataDir, 'queue'), MAX_RECEIVES, {
    timeoutMs: opts.processingTimeoutMs ?? PROCESSING_LIMITS.functionTimeoutSeconds * 1000,
    onDeadLetter: async (message) => {
      const consume = await loadHandler<(e: SQSEvent) => Promise<SQSBatchResponse>>(jobHandlers.processDocumentDeadLetter);
      await consume({ Records: [message] });
    },
  });
  const sweeper = setInterval(() => {
    void loadHandler<() => Promise<unknown>>(jobHandlers.sweepProcessing)
      .then((sweep) => sweep())
      .catch((error: unknown) => console.error('[local] sweeper failed', error));
  }, PROCESSING_LIMITS.sweepEveryMinutes * 60_000);
  sweeper.unref();
  s3.onObjectCreated((record) => {
    // The bucket notification's prefix filter (uploads/ and jobs/process/).
    if (PROCESSING_PREFIXES.some((prefix) => record.s3.object.key.startsWith(prefix))) jobs.deliver(record);
  });
  // Master data imports: the notification of the imports/ prefix goes to its own queue and job.
  const importJobs = createLocalJobQueue(
    () => loadHandler(jobHandlers.importMasterData),
    'eu-west-1',
    path.join(opts.dataDir, 'import-queue'),
    IMPORT_MAX_RECEIVES,
  );
  s3.onObjectCreated((record) => {
    if (record.s3.object.key.startsWith(IMPORT_PREFIX)) importJobs.deliver(record);
  });

  // Email-in: inbound/ object-created → its own queue → the email-in job, as in AWS; a real SMTP server writes there.
  const emailJobs = createLocalJobQueue(() => loadHandler(jobHandlers.receiveEmail), 'eu-west-1', path.join(opts.dataDir, 'queue-email'));
  s3.onObjectCreated((record) => {
    if (record.s3.object.key.startsWith(EMAIL_IN_PREFIX)) emailJobs.deliver(record);
  });
  const inDomains = opts.emailInDomain ? [opts.emailInDomain] : [];
  const smtp = await startLocalSmtp({
    host: '127.0.0.1',
    port: opts.smtpPort ?? 0,
    anyPortIfTaken: opts.smtpAnyPortIfTaken,
    store: (key, bytes) => s3Files.put(key, bytes, 'message/rfc822'),
    // Unknown and released addresses are refused during the SMTP dialogue (550), by the job's own claim look-up.
    domains: [EMAIL_IN_DOMAIN, ...inDomains],
    acceptsRecipient: (address) => isKnownRecipient({ emails: ddbEmailStore, domains: inDomains }, address),
  });
  // Integrations: confirm with send → SQS export queue → export job; Rivile GAMA's stand-in.
  const exportJobs = createLocalJobQueue(() => loadHandler(jobHandlers.exportDocument), 'eu-west-1', path.join(opts.dataDir, 'export-queue'), MAX_RECEIVES, {
    queueName: EXPORT_QUEUE_NAME,
    msPerDelaySecond: opts.exportRetry?.msPerDelaySecond ?? 1000,
  });
  // Company deletion: DELETE /company → SQS purge queue → purge job, which queues what is left to the same queue.
  const purgeJobs = createLocalJobQueue(() => loadHandler(jobHandlers.purgeCompany), 'eu-west-1', path.join(opts.dataDir, 'purge-queue'), MAX_RECEIVES, {
    queueName: PURGE_QUEUE_NAME,
    msPerDelaySecond: opts.purgeMsPerDelaySecond ?? 1000,
  });
  // Master-data imports: sync now that stopped for now → SQS sync queue → the continuing job, which hands on the rest.
  const syncJobs = createLocalJobQueue(() => loadHandler(jobHandlers.continueMasterDataSync), 'eu-west-1', path.join(opts.dataDir, 'sync-queue'), MAX_RECEIVES, {
    queueName: SYNC_QUEUE_NAME,
  });
  const sqs = localSqs({ [EXPORT_QUEUE_NAME]: exportJobs, [PURGE_QUEUE_NAME]: purgeJobs, [SYNC_QUEUE_NAME]: syncJobs });
  const rivile = createRivileStandIn({ keys: opts.rivileKeys ?? [], file: path.join(opts.dataDir, 'rivile.json') });
  const dropbox = createDropboxStandIn({ file: path.join(opts.dataDir, 'dropbox.json') });
  const driveSchedule = startDriveSchedule(opts.drivePollSeconds ?? 0);
  // Master-data imports: local mode's stand-in for the EventBridge schedule (one run at a time).
  let syncRunning = false;
  const syncTimer = opts.syncScheduleMs
    ? setInterval(() => {
        if (syncRunning) return;
        syncRunning = true;
        loadHandler<() => Promise<unknown>>(jobHandlers.syncMasterData)
          .then((job) => job())
          .catch((error: unknown) => console.error('[local] master-data sync failed', error))
          .finally(() => {
            syncRunning = false;
          });
      }, opts.syncScheduleMs)
    : undefined;

  const cognito = await createLocalCognito({
    dataDir: path.join(opts.dataDir, 'cognito'),
    userPoolId: LOCAL_POOL_ID,
    clientId: LOCAL_CLIENT_ID,
    issuerBaseUrl: cognitoEndpoint,
    iamCredentials: credentials,
    allowedOrigins: [url],
    onCode: ((info: { email: string; kind: string; code: string }) => {
      opts.onCode?.(info);
      if (opts.mailCodes) void mailCode(mail.smtpPort, info).catch((error: unknown) => console.warn(`[cognito] code mail to ${info.email} not sent: ${String(error)}`));
    }) as never,
    postConfirmation: async (event: PostConfirmationTriggerEvent) => {
      const handler = await loadHandler<(e: PostConfirmationTriggerEvent) => Promise<unknown>>(triggerHandlers.postConfirmation);
      return handler(event);
    },
    preSignUp: async (event: PreSignUpTriggerEvent) => {
      const handler = await loadHandler<(e: PreSignUpTriggerEvent) => Promise<unknown>>(triggerHandlers.preSignUp);
      return handler(event);
    },
  });

  const webRoot = opts.webRoot ?? path.join(ROOT, 'web', 'dist');
  const gateway = new LocalWebSocketGateway(credentials, opts.wsMaxConnectionMs);
  const runtimeConfig = {
    apiUrl: `${url}/api`,
    wsUrl: `${url.replace(/^http/, 'ws')}/ws`,
    region: 'eu-west-1',
    userPoolId: LOCAL_POOL_ID,
    userPoolClientId: LOCAL_CLIENT_ID,
    userPoolEndpoint: cognitoEndpoint,
  };

  // OpenAPI: generated from the route table and the handlers' schemas on first request (scripts/openapi).
  let openApi: Promise<string> | undefined;
  const openApiJson = () =>
    (openApi ??= import('../openapi/load').then(async ({ generateOpenApi }) => JSON.stringify(await generateOpenApi({ serverUrl: runtimeConfig.apiUrl }))));

  // DNS rebinding: requests and upgrades named for another host are refused (421), and state-changing requests to
  // Cognito and the stand-ins (/_*) from a page of another origin (403): docs/security.md "Local mode".
  const guard = localRequestGuard({
    host,
    port,
    originChecked: (pathname) => pathname === '/cognito' || pathname.startsWith('/cognito/') || pathname.startsWith('/_'),
  });
  server.on('request', (req, res) => {
    const refusal = guard(req);
    if (refusal) return refuse(res, refusal);
    const pathname = (req.url ?? '/').split('?')[0]!;
    const fail = (error: unknown) => {
      // (a page closed or navigated away while its request was being read: nothing failed here)
      if (clientWentAway(error)) return void res.destroy();
      console.error('[local] request failed', error);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ statusCode: 500, error: 'InternalError', message: 'Something went wrong' }));
    };
    if (pathname === OPENAPI_PATH && req.method === 'GET') {
      openApiJson()
        .then((body) => {
          res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache' });
          res.end(body);
        })
        .catch((error: unknown) => {
          openApi = undefined;
          fail(error);
        });
    } else if (pathname === '/api' || pathname.startsWith('/api/')) {
      handleApiRequest(req, res, '/api').catch(fail);
    } else if (pathname === '/cognito' || pathname.startsWith('/cognito/')) {
      rememberSignedUrl(req);
      req.url = (req.url ?? '').slice('/cognito'.length) || '/';
      cognito.handle(req, res);
    } else if (pathname === '/_sqs' || pathname.startsWith('/_sqs/')) {
      sqs(req, res).catch(fail);
    } else if (pathname.startsWith('/_rivile/')) {
      rivile.handle(req, res).catch(fail);
    } else if (pathname.startsWith('/_dropbox/')) {
      dropbox.handle(req, res, '/_dropbox').catch(fail);
    } else if (pathname.startsWith('/_ws/')) {
      gateway.handleManagement(req, res, '/_ws').catch(fail);
    } else if (pathname.startsWith('/_ses/')) {
      mail.handleSes(req, res, '/_ses').catch(fail);
    } else if (pathname === '/_mail' || pathname.startsWith('/_mail/')) {
      mail.handlePage(req, res, '/_mail');
    } else if (pathname === '/config.json') {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache' });
      res.end(JSON.stringify(runtimeConfig));
    } else if (pathname === '/healthz') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true }));
    } else {
      serveStatic(webRoot, req, res);
    }
  });
  server.on('upgrade', (req, socket, head) => {
    const refusal = guard(req);
    if (refusal) {
      socket.end(`HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(refusal.text)}\r\nConnection: close\r\n\r\n${refusal.text}`);
    } else if ((req.url ?? '').startsWith('/ws')) {
      gateway.handleUpgrade(req, socket, head).catch(() => socket.destroy());
    } else {
      socket.destroy();
    }
  });

  return {
    url,
    apiUrl: runtimeConfig.apiUrl,
    wsUrl: runtimeConfig.wsUrl,
    cognitoEndpoint,
    dynamo,
    s3,
    cognito,
    jobs,
    smtp,
    emailJobs,
    exportJobs,
    rivile,
    purgeJobs,
    importJobs,
    syncJobs,
    mail,
    google,
    googleUrl,
    dropbox,
    driveSchedule,
    async stop(stopOpts = {}) {
      const now = stopOpts.now === true;
      clearInterval(sweeper);
      driveSchedule.stop();
      googleServer.closeAllConnections();
      await new Promise<void>((resolve) => googleServer.close(() => resolve()));
      if (syncTimer) clearInterval(syncTimer);
      await smtp.close();
      for (const queue of [emailJobs, jobs, exportJobs, purgeJobs, importJobs, syncJobs]) await queue.close({ now });
      await closeRecogniser({ now });
      gateway.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await cognito.close();
      await mail.close();
      if (now) {
        // A job not waited for that fails on a closed store writes nothing: the table closes before the bucket.
        await dynamo.close();
        await s3.close();
        return;
      }
      await s3.close();
      await dynamo.close();
    },
  };
}
