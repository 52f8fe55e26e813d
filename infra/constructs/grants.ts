/**
 * Least-privilege grants. A handler's needs are declared next to its entry in shared/routes.ts (shared/needs.ts);
 * the @aws-sdk/* packages that end up in its bundle (esbuild metafile, see infra/build/bundle-handlers.ts) must be
 * covered by them (checkDeclaredNeeds), and a handler without a declaration is granted what its bundle calls
 * (awsNeedsOf). Each need is granted as the actions the adapters call, on this product's own resource only (its
 * table, its documents bucket, its user pool, its WebSocket stage); Textract has no resource-level permissions.
 */
import type { AwsNeed } from '../../shared/needs';
export type { AwsNeed } from '../../shared/needs';

/** Per SDK package, the needs that allow its calls (any one of them); the first is the one derived for undeclared handlers. */
const SDK_PACKAGE_NEEDS: Readonly<Record<string, readonly AwsNeed[]>> = {
  '@aws-sdk/client-dynamodb': ['table'],
  '@aws-sdk/lib-dynamodb': ['table'],
  '@aws-sdk/client-s3': ['documentsBucket', 'documentsRead', 'officeConversion'],
  '@aws-sdk/s3-request-presigner': ['documentsBucket', 'documentsRead', 'officeConversion'],
  '@aws-sdk/s3-presigned-post': ['documentsBucket'],
  '@aws-sdk/lib-storage': ['documentsBucket'],
  '@aws-sdk/client-cognito-identity-provider': ['userPoolAdmin', 'userDeletion'],
  '@aws-sdk/client-apigatewaymanagementapi': ['webSocketManage'],
  // Textract reads the S3 object itself with the caller's credentials (its grant includes s3:GetObject).
  '@aws-sdk/client-textract': ['textract'],
  // Team and invitations: outgoing mail (SendEmail from the configured sender only).
  '@aws-sdk/client-sesv2': ['sesSend'],
  // Email-in: bouncing unknown recipients of a received message (SES v1 SendBounce).
  '@aws-sdk/client-ses': ['sesBounce'],
  // Integrations: sealing/opening credentials, and queueing exports.
  '@aws-sdk/client-kms': ['secretsKey'],
  '@aws-sdk/client-sqs': ['exportQueue', 'purgeQueue', 'syncQueue'],
  // Office previews on AWS: the processing job invokes the office converter function.
  '@aws-sdk/client-lambda': ['officeConverter'],
  // Google Drive imports: the Google OAuth client secret (GetSecretValue on that one secret only).
  '@aws-sdk/client-secrets-manager': ['googleClientSecret'],
};

/** Clients the SDK uses internally to resolve credentials; they need no grant. */
const CREDENTIAL_CLIENTS = new Set(['@aws-sdk/client-sso', '@aws-sdk/client-sso-oidc', '@aws-sdk/client-sts']);

export const TEXTRACT_ACTIONS = ['textract:AnalyzeExpense', 'textract:StartExpenseAnalysis', 'textract:GetExpenseAnalysis'];
/** DynamoDB item actions the adapters use (TransactWriteItems and TransactGetItems are authorised per item action). */
export const TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:ConditionCheckItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
];
/** Objects of the documents bucket: reading (presigned GET included) and, for documentsBucket, writing. */
export const DOCUMENTS_READ_ACTIONS = ['s3:GetObject'];
export const DOCUMENTS_WRITE_ACTIONS = ['s3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload'];
/** The bucket itself: listing (deleting a prefix, a document's pages). */
export const DOCUMENTS_LIST_ACTIONS = ['s3:ListBucket'];
/** What Textract reads with the caller's credentials: the upload, by key or by version. */
export const TEXTRACT_S3_ACTIONS = ['s3:GetObject', 's3:GetObjectVersion'];
export const KMS_ACTIONS = ['kms:Encrypt', 'kms:Decrypt'];
export const SES_SEND_ACTIONS = ['ses:SendEmail'];
export const SES_BOUNCE_ACTIONS = ['ses:SendBounce'];
/** Office previews on AWS: the converter's objects (read the office file, write its PDF; no list, no delete). */
export const OFFICE_CONVERSION_ACTIONS = ['s3:GetObject', 's3:PutObject'];
/** Office previews on AWS: the processing job's synchronous invocation of the office converter. */
export const OFFICE_CONVERTER_ACTIONS = ['lambda:InvokeFunction'];

/** The bare address of a sender such as `Receipts <no-reply@example.com>` (the ses:FromAddress condition key). */
export function senderAddress(mailFrom: string): string {
  const m = /<([^>]+)>/.exec(mailFrom);
  return (m ? m[1]! : mailFrom).trim().toLowerCase();
}

export const USER_POOL_ADMIN_ACTIONS = ['cognito-idp:Admin*', 'cognito-idp:ListUsers', 'cognito-idp:DescribeUserPool'];
/** A user deleting their own account (DELETE /user): that one admin call, nothing else of the pool. */
export const USER_DELETION_ACTIONS = ['cognito-idp:AdminDeleteUser'];

/**
 * The declared needs, checked against the handler's bundle: every @aws-sdk client its (kept) code contains must be
 * allowed by one of them, or the function would fail with AccessDenied in AWS.
 */
export function checkDeclaredNeeds(handler: string, sdkPackages: readonly string[], declared: readonly AwsNeed[]): Set<AwsNeed> {
  const needs = new Set<AwsNeed>(declared);
  for (const pkg of sdkPackages) {
    const allowedBy = SDK_PACKAGE_NEEDS[pkg];
    if (allowedBy && !allowedBy.some((n) => needs.has(n))) {
      throw new Error(
        `lambdas/${handler}.ts bundles ${pkg}, which its declared needs [${declared.join(', ')}] do not allow. ` +
          `Declare '${allowedBy[0]}' for it in shared/routes.ts (needs of its route, or handlerNeeds), or load it lazily.`,
      );
    }
  }
  awsNeedsOf(handler, sdkPackages);
  return needs;
}

/** The AWS needs of a handler from its bundled @aws-sdk packages; an SDK client infra cannot grant is an error. */
export function awsNeedsOf(handler: string, sdkPackages: readonly string[]): Set<AwsNeed> {
  const needs = new Set<AwsNeed>();
  for (const pkg of sdkPackages) {
    const mapped = SDK_PACKAGE_NEEDS[pkg];
    if (mapped) {
      needs.add(mapped[0]!);
    } else if (pkg.startsWith('@aws-sdk/client-') && !CREDENTIAL_CLIENTS.has(pkg)) {
      throw new Error(
        `lambdas/${handler}.ts uses ${pkg}, for which infra has no grant. ` +
          'Add it to SDK_PACKAGE_NEEDS in infra/constructs/grants.ts and grant it in infra/constructs/handler-function.ts.',
      );
    }
  }
  return needs;
}
