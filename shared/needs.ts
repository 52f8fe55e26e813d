/**
 * Least privilege: what a Lambda handler may do on AWS, declared once next to its entry in shared/routes.ts
 * (`needs` of a route or WebSocket route, `jobNeeds` of a job or trigger). From that one declaration:
 * - CDK grants exactly these actions on this product's own resources (infra/constructs/grants.ts), one
 *   execution role per distinct set of needs;
 * - the bundler leaves out the lazily loaded adapters of needs not declared (infra/build/bundle-handlers.ts)
 *   and fails when the handler's eagerly loaded code calls an AWS service outside its needs;
 * - at run time (local mode and tests included) the adapters of lambdas/runtime/deps.ts refuse calls outside them.
 */
export const AWS_NEEDS = {
  /** DynamoDB: read and write items of the table and its indexes (every handler has it). */
  table: 'DynamoDB items of the table',
  /** S3: read objects of the documents bucket (GetObject, presigned GET, list). */
  documentsRead: 'read the documents bucket',
  /** S3: read, write and delete objects of the documents bucket (presigned PUT included). */
  documentsBucket: 'read and write the documents bucket',
  /** API Gateway: post to WebSocket connections (live events). */
  webSocketManage: 'post live events to WebSocket connections',
  /** Cognito: admin calls on the user pool. */
  userPoolAdmin: 'administer users of the user pool',
  /** Cognito: delete a user of the user pool (AdminDeleteUser only: DELETE /user, a user deleting their own account). */
  userDeletion: 'delete users of the user pool',
  /** Textract: expense analysis (reads the bucket itself with the caller's credentials). */
  textract: 'Textract expense analysis',
  /** SES: send mail from the configured sender. */
  sesSend: 'send mail with SES',
  /** SES: bounce a received message's unknown Email-in recipients (SendBounce, from the email-in domain). */
  sesBounce: 'bounce received mail with SES',
  /** KMS: seal and open integration credentials. */
  secretsKey: 'encrypt and decrypt with the secrets key',
  /** SQS: queue exports. */
  exportQueue: 'send messages to the export queue',
  /** SQS: queue the purge of a deleted company (DELETE /company; the purge job queues what is left). */
  purgeQueue: 'send messages to the company purge queue',
  /** SQS: continue a master-data import that stopped for now (sync now; the continuing job queues the rest). */
  syncQueue: 'send messages to the master-data sync queue',
  // Office previews on AWS (shared/schemas/office-conversion.ts)
  /** S3: read and write objects under office-conversion/ of the documents bucket only (the office converter). */
  officeConversion: 'read and write the office-conversion/ objects of the documents bucket',
  /** Lambda: invoke the office converter function (the processing job). */
  officeConverter: 'invoke the office converter function',
  /** Secrets Manager: read the Google OAuth client secret (the functions that exchange or refresh Google tokens). */
  googleClientSecret: 'read the Google OAuth client secret from Secrets Manager',
} as const;
export type AwsNeed = keyof typeof AWS_NEEDS;

/** What a handler with no declaration gets: the table only. */
export const DEFAULT_NEEDS: readonly AwsNeed[] = ['table'];

/** Whether `needs` allow reading the documents bucket (read-only or read-write). */
export function canReadDocuments(needs: ReadonlySet<AwsNeed> | readonly AwsNeed[]): boolean {
  const has = (n: AwsNeed) => (Array.isArray(needs) ? (needs as readonly AwsNeed[]).includes(n) : (needs as ReadonlySet<AwsNeed>).has(n));
  return has('documentsRead') || has('documentsBucket');
}
