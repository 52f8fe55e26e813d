/**
 * Least-privilege grants derived from the code: the @aws-sdk/* packages that end up in a handler's bundle
 * (esbuild metafile, see infra/build/bundle-handlers.ts) say which AWS services it calls. Each need is then
 * granted on this product's own resource only (its table, its documents bucket, its user pool, its
 * WebSocket stage); Textract has no resource-level permissions.
 */
export type AwsNeed = 'table' | 'documentsBucket' | 'userPoolAdmin' | 'webSocketManage' | 'textract' | 'sesSend' | 'secretsKey' | 'exportQueue';

const SDK_PACKAGE_NEEDS: Readonly<Record<string, readonly AwsNeed[]>> = {
  '@aws-sdk/client-dynamodb': ['table'],
  '@aws-sdk/lib-dynamodb': ['table'],
  '@aws-sdk/client-s3': ['documentsBucket'],
  '@aws-sdk/s3-request-presigner': ['documentsBucket'],
  '@aws-sdk/s3-presigned-post': ['documentsBucket'],
  '@aws-sdk/lib-storage': ['documentsBucket'],
  '@aws-sdk/client-cognito-identity-provider': ['userPoolAdmin'],
  '@aws-sdk/client-apigatewaymanagementapi': ['webSocketManage'],
  // Textract reads the S3 object itself with the caller's credentials, hence the bucket too.
  '@aws-sdk/client-textract': ['textract', 'documentsBucket'],
  // Team and invitations: outgoing mail (SendEmail from the configured sender only).
  '@aws-sdk/client-sesv2': ['sesSend'],
  // Integrations: sealing/opening credentials, and queueing exports.
  '@aws-sdk/client-kms': ['secretsKey'],
  '@aws-sdk/client-sqs': ['exportQueue'],
};

/** Clients the SDK uses internally to resolve credentials; they need no grant. */
const CREDENTIAL_CLIENTS = new Set(['@aws-sdk/client-sso', '@aws-sdk/client-sso-oidc', '@aws-sdk/client-sts']);

export const TEXTRACT_ACTIONS = ['textract:AnalyzeExpense', 'textract:StartExpenseAnalysis', 'textract:GetExpenseAnalysis'];
export const SES_SEND_ACTIONS = ['ses:SendEmail'];

/** The bare address of a sender such as `Receipts <no-reply@example.com>` (the ses:FromAddress condition key). */
export function senderAddress(mailFrom: string): string {
  const m = /<([^>]+)>/.exec(mailFrom);
  return (m ? m[1]! : mailFrom).trim().toLowerCase();
}

export const USER_POOL_ADMIN_ACTIONS = ['cognito-idp:Admin*', 'cognito-idp:ListUsers', 'cognito-idp:DescribeUserPool'];

/** The AWS needs of a handler from its bundled @aws-sdk packages; an SDK client infra cannot grant is an error. */
export function awsNeedsOf(handler: string, sdkPackages: readonly string[]): Set<AwsNeed> {
  const needs = new Set<AwsNeed>();
  for (const pkg of sdkPackages) {
    const mapped = SDK_PACKAGE_NEEDS[pkg];
    if (mapped) {
      mapped.forEach((n) => needs.add(n));
    } else if (pkg.startsWith('@aws-sdk/client-') && !CREDENTIAL_CLIENTS.has(pkg)) {
      throw new Error(
        `lambdas/${handler}.ts uses ${pkg}, for which infra has no grant. ` +
          'Add it to SDK_PACKAGE_NEEDS in infra/constructs/grants.ts and grant it in infra/constructs/handler-function.ts.',
      );
    }
  }
  return needs;
}
