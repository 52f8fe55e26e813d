import { z } from 'zod';

/**
 * Environment of every handler, the same names in AWS (set by CDK) and locally (set by scripts/local).
 * AWS_ENDPOINT_URL_* are the SDK's own per-service endpoint variables; local mode points them at the stand-ins.
 */
export const ENV_NAMES = {
  tableName: 'TABLE_NAME',
  documentsBucket: 'DOCUMENTS_BUCKET',
  userPoolId: 'USER_POOL_ID',
  userPoolClientId: 'USER_POOL_CLIENT_ID',
  wsCallbackUrl: 'WS_CALLBACK_URL',
  stage: 'STAGE',
  globalAdminEmails: 'GLOBAL_ADMIN_EMAILS',
  recogniser: 'RECOGNISER',
  cognitoIssuer: 'COGNITO_ISSUER',
  /** Email-in: the domain mail is received for in AWS (deploy-time context emailInDomain). */
  emailInDomain: 'EMAIL_IN_DOMAIN',
  maxCompaniesPerUser: 'MAX_COMPANIES_PER_USER',
  // Hardening: upload reservations (lambdas/core/documents/upload.ts).
  uploadReservationMinutes: 'UPLOAD_RESERVATION_MINUTES',
  maxPendingUploadsPerUser: 'MAX_PENDING_UPLOADS_PER_USER',
  // Team and invitations
  mailFrom: 'MAIL_FROM',
  appUrl: 'APP_URL',
  // Integrations (set by CDK; RIVILE_API_URL and the retry policy keep their defaults in AWS,
  // LOCAL_SECRETS_KEY_FILE and INTEGRATIONS_ALLOW_PRIVATE_HOSTS are local mode's only).
  secretsKeyId: 'SECRETS_KEY_ID',
  exportQueueUrl: 'EXPORT_QUEUE_URL',
  // Company deletion: the purge queue (DELETE /company queues, the purge job consumes and re-queues).
  purgeQueueUrl: 'COMPANY_PURGE_QUEUE_URL',
  syncQueueUrl: 'MASTER_DATA_SYNC_QUEUE_URL',
  // Google Drive and Dropbox imports (set by CDK from deploy-time context; the *_URL ones are local mode's only).
  // The Google client secret: in AWS a Secrets Manager secret's name or ARN (context googleClientSecretName), set
  // only on the functions that exchange or refresh Google tokens; GOOGLE_CLIENT_SECRET (the value) is local mode's
  // only, and not listed here.
  googleClientId: 'GOOGLE_CLIENT_ID',
  googleClientSecretId: 'GOOGLE_CLIENT_SECRET_ID',
  dropboxAppKey: 'DROPBOX_APP_KEY',
  // Office previews on AWS: the office converter function the processing job invokes (unset: LibreOffice in-process).
  officeConverterFunction: 'OFFICE_CONVERTER_FUNCTION',
} as const;

const envSchema = z.object({
  TABLE_NAME: z.string().min(1),
  DOCUMENTS_BUCKET: z.string().min(1).default('documents'),
  USER_POOL_ID: z.string().default(''),
  USER_POOL_CLIENT_ID: z.string().default(''),
  WS_CALLBACK_URL: z.string().default(''),
  STAGE: z.enum(['aws', 'local']).default('aws'),
  GLOBAL_ADMIN_EMAILS: z.string().default(''),
  RECOGNISER: z.enum(['textract', 'local']).default('textract'),
  /** Issuer of the user pool's tokens; defaults to the AWS issuer of USER_POOL_ID in eu-west-1. */
  COGNITO_ISSUER: z.string().default(''),
  /** Email-in domain besides shared/constants EMAIL_IN_DOMAIN (empty: that one only). */
  EMAIL_IN_DOMAIN: z.string().max(253).default(''),
  /** Companies one user may create (their first one included); the platform admin sees each owner's count. */
  MAX_COMPANIES_PER_USER: z.coerce.number().int().min(1).default(10),
  /** Minutes an upload reservation holds a document of the quota while its file has not arrived. */
  UPLOAD_RESERVATION_MINUTES: z.coerce.number().int().min(1).max(24 * 60).default(20),
  /** Upload reservations one user may hold at once in a company (files requested and not yet arrived). */
  MAX_PENDING_UPLOADS_PER_USER: z.coerce.number().int().min(1).max(10_000).default(50),
  /** Sender of outgoing mail (invitations), e.g. `Receipts <no-reply@example.com>`; an SES-verified identity in AWS. */
  MAIL_FROM: z.string().default(''),
  /** The web app's origin; invitation links point at `<APP_URL>/signup/invite`. */
  APP_URL: z.string().default(''),
  // Integrations: the KMS key sealing credentials (AWS), the key file doing it in local mode, the export queue,
  // Rivile GAMA's API (local mode and tests point it at scripts/local/rivile-server.ts) and the retry policy.
  SECRETS_KEY_ID: z.string().default(''),
  LOCAL_SECRETS_KEY_FILE: z.string().default(''),
  EXPORT_QUEUE_URL: z.string().default(''),
  RIVILE_API_URL: z.string().default('https://api.manorivile.lt/client/v2'),
  EXPORT_RETRY_BASE_SECONDS: z.coerce.number().min(0).max(900).default(30),
  EXPORT_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
  /**
   * '1': the FTP/NSOFT and SQL hosts a company gives may be loopback, private or link-local addresses
   * (lambdas/core/integrations/host-check.ts). Local mode and the tests set it for their 127.0.0.1 stand-ins; the
   * CDK stacks never do (test/infra/integration-hosts.test.ts). Anything else: refused.
   */
  INTEGRATIONS_ALLOW_PRIVATE_HOSTS: z
    .string()
    .default('')
    .transform((v) => v.trim() === '1'),
  /** Company deletion: the queue of the purge job (lambdas/jobs/purge-company.ts). */
  COMPANY_PURGE_QUEUE_URL: z.string().default(''),
  MASTER_DATA_SYNC_QUEUE_URL: z.string().default(''),
  // Google Drive and Dropbox imports: the OAuth clients; local mode points the SDKs at its stand-ins.
  GOOGLE_CLIENT_ID: z.string().default(''),
  /** The client secret itself: local mode only (CDK never sets it). */
  GOOGLE_CLIENT_SECRET: z.string().default(''),
  /** AWS: name or ARN of the Secrets Manager secret holding the client secret (read on the first token call). */
  GOOGLE_CLIENT_SECRET_ID: z.string().max(2048).default(''),
  GOOGLE_OAUTH_URL: z.string().default(''),
  GOOGLE_API_URL: z.string().default(''),
  DROPBOX_APP_KEY: z.string().default(''),
  DROPBOX_URL: z.string().default(''),
  /** Office previews on AWS: name of the office converter function (set by CDK); empty: LibreOffice where installed. */
  OFFICE_CONVERTER_FUNCTION: z.string().max(170).default(''),
});
export type Env = z.infer<typeof envSchema>;

let cached: Env | undefined;
export function env(): Env {
  cached ??= envSchema.parse(process.env);
  return cached;
}
/** Tests and local mode change process.env between runs; this drops the parsed copy. */
export function resetEnvCache(): void {
  cached = undefined;
}
