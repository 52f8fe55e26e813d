/**
 * The route table: every HTTP route of the API. CDK creates one Lambda and one
 * API Gateway route per entry; the local API adapter dispatches from the same list.
 * `handler` is the file under lambdas/ (without extension) that exports `handler`.
 */
import type { AwsNeed } from './needs';

export type AuthLevel = 'public' | 'user' | 'company-admin' | 'global-admin';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RouteDef {
  method: HttpMethod;
  /** API Gateway path syntax, e.g. /receipts/{id} */
  path: string;
  handler: string;
  auth: AuthLevel;
  /**
   * Least privilege (shared/needs.ts): the AWS access its handler has; default ['table']. Its Lambda role grants
   * exactly these, and its adapters refuse anything else.
   */
  needs?: readonly AwsNeed[];
}

export const routes: RouteDef[] = [
  { method: 'GET', path: '/companies', handler: 'http/companies/get-companies', auth: 'user' },
  { method: 'POST', path: '/company', handler: 'http/companies/post-company', auth: 'user', needs: ['table', 'webSocketManage'] },
  { method: 'DELETE', path: '/company', handler: 'http/companies/delete-company', auth: 'company-admin', needs: ['table', 'webSocketManage', 'purgeQueue', 'secretsKey'] },
  { method: 'GET', path: '/company/users', handler: 'http/company/get-company-users', auth: 'company-admin' },
  { method: 'GET', path: '/company/users/me', handler: 'http/company/get-own-company-user', auth: 'user' },
  { method: 'GET', path: '/user', handler: 'http/user/get-user', auth: 'user' },
  { method: 'POST', path: '/user', handler: 'http/user/post-user', auth: 'user' },
  {
    method: 'DELETE',
    path: '/user',
    handler: 'http/user/delete-user',
    auth: 'user',
    needs: ['table', 'webSocketManage', 'purgeQueue', 'secretsKey', 'userDeletion'],
  },
  // Documents (receipts and invoices)
  { method: 'GET', path: '/upload/document', handler: 'http/upload/get-upload-document', auth: 'user', needs: ['table', 'documentsBucket'] },
  { method: 'GET', path: '/receipts', handler: 'http/receipts/get-receipts', auth: 'user' },
  { method: 'GET', path: '/receipts/total-documents', handler: 'http/receipts/get-total-documents', auth: 'user' },
  { method: 'POST', path: '/receipts/export-xml', handler: 'http/receipts/post-export-xml', auth: 'user', needs: ['table', 'documentsRead'] },
  { method: 'POST', path: '/receipts/details', handler: 'http/receipts/post-details', auth: 'user', needs: ['table', 'documentsRead'] },
  { method: 'POST', path: '/receipts/bulk', handler: 'http/receipts/post-bulk', auth: 'user', needs: ['table', 'documentsBucket', 'webSocketManage', 'exportQueue'] },
  { method: 'GET', path: '/receipts/{id}', handler: 'http/receipts/get-receipt', auth: 'user', needs: ['table', 'documentsRead'] },
  { method: 'GET', path: '/receipts/{id}/history', handler: 'http/receipts/get-history', auth: 'user' },
  { method: 'GET', path: '/receipts/{id}/duplicates', handler: 'http/receipts/get-duplicates', auth: 'user' },
  { method: 'POST', path: '/receipts/{id}/company', handler: 'http/receipts/post-company', auth: 'user', needs: ['table', 'documentsBucket', 'webSocketManage'] },
  { method: 'POST', path: '/receipts/{id}/combine', handler: 'http/receipts/post-combine', auth: 'user', needs: ['table', 'documentsBucket', 'webSocketManage'] },
  { method: 'POST', path: '/receipts/{id}/restart', handler: 'http/receipts/post-restart', auth: 'user', needs: ['table', 'documentsBucket', 'webSocketManage'] },
  { method: 'POST', path: '/receipt/{id}/status', handler: 'http/receipt/post-status', auth: 'user', needs: ['table', 'documentsBucket', 'webSocketManage'] },
  { method: 'POST', path: '/receipt/{id}/flag', handler: 'http/receipt/post-flag', auth: 'user', needs: ['table', 'webSocketManage'] },
  { method: 'POST', path: '/receipt/{id}/type', handler: 'http/receipt/post-type', auth: 'user', needs: ['table', 'documentsBucket', 'webSocketManage'] },
  { method: 'DELETE', path: '/receipt/{id}', handler: 'http/receipt/delete-receipt', auth: 'user', needs: ['table', 'documentsBucket', 'webSocketManage'] },
  // Review and export: content, boxes, grids, templates, validation, edit actions, exports, schema
  { method: 'GET', path: '/receipts/{id}/content', handler: 'http/receipts/content-get', auth: 'user', needs: ['table', 'documentsRead'] },
  { method: 'PUT', path: '/receipts/{id}/content', handler: 'http/receipts/content-put', auth: 'user', needs: ['table', 'documentsBucket', 'webSocketManage'] },
  { method: 'POST', path: '/receipts/{id}/content/validate', handler: 'http/receipts/content-validate', auth: 'user', needs: ['table', 'documentsRead'] },
  { method: 'PUT', path: '/receipts/{id}/content/move', handler: 'http/receipts/content-move', auth: 'user', needs: ['table', 'documentsBucket', 'webSocketManage'] },
  { method: 'POST', path: '/receipts/{id}/content/{line}', handler: 'http/receipts/content-add-line', auth: 'user', needs: ['table', 'documentsBucket', 'webSocketManage'] },
  { method: 'DELETE', path: '/receipts/{id}/content/{line}', handler: 'http/receipts/content-delete-line', auth: 'user', needs: ['table', 'documentsBucket', 'webSocketManage'] },
  { method: 'POST', path: '/receipts/{id}/content/{line}/select', handler: 'http/receipts/content-select', auth: 'user', needs: ['table', 'documentsBucket', 'webSocketManage'] },
  { method: 'GET', path: '/receipts/{id}/bboxes', handler: 'http/receipts/bboxes-get', auth: 'user', needs: ['table', 'documentsRead'] },
  { method: 'POST', path: '/receipts/{id}/grid', handler: 'http/receipts/grid-apply', auth: 'user', needs: ['table', 'documentsBucket', 'webSocketManage'] },
  { method: 'POST', path: '/receipts/{id}/template/grid', handler: 'http/receipts/template-grid-save', auth: 'user', needs: ['table', 'documentsBucket', 'webSocketManage'] },
  { method: 'PUT', path: '/receipts/{id}/template/grid', handler: 'http/receipts/template-grid-use', auth: 'user', needs: ['table', 'documentsBucket', 'webSocketManage'] },
  { method: 'GET', path: '/receipts/{id}/preview', handler: 'http/receipts/preview-get', auth: 'user', needs: ['table', 'documentsRead'] },
  { method: 'GET', path: '/receipts/{id}/export', handler: 'http/receipts/export-get', auth: 'user', needs: ['table', 'documentsRead'] },
  { method: 'POST', path: '/receipts/export-isaf', handler: 'http/receipts/post-export-isaf', auth: 'user', needs: ['table', 'documentsRead'] },
  { method: 'POST', path: '/receipt/{id}', handler: 'http/receipt/edit-receipt', auth: 'user', needs: ['table', 'documentsBucket', 'webSocketManage', 'exportQueue'] },
  { method: 'PUT', path: '/receipt/{id}/category', handler: 'http/receipt/put-category', auth: 'user', needs: ['table', 'webSocketManage'] },
  { method: 'PUT', path: '/receipt/{id}/notes', handler: 'http/receipt/put-notes', auth: 'user', needs: ['table', 'webSocketManage'] },
  { method: 'GET', path: '/schemas', handler: 'http/schemas/get-schemas', auth: 'user' },
  { method: 'PUT', path: '/schemas', handler: 'http/schemas/put-schemas', auth: 'company-admin', needs: ['table', 'webSocketManage'] },
  // Email-in: the email a document arrived with
  { method: 'GET', path: '/emails', handler: 'http/emails/get-emails', auth: 'user' },
  { method: 'GET', path: '/emails/{id}', handler: 'http/emails/get-email', auth: 'user', needs: ['table', 'documentsRead'] },
  // Platform admin (global admins) and company settings
  { method: 'PUT', path: '/company', handler: 'http/companies/put-company', auth: 'company-admin', needs: ['table', 'webSocketManage'] },
  { method: 'PUT', path: '/company/email-in', handler: 'http/companies/put-company-email-in', auth: 'company-admin', needs: ['table', 'webSocketManage'] },
  { method: 'GET', path: '/admin/statistics', handler: 'http/admin/get-statistics', auth: 'global-admin' },
  { method: 'GET', path: '/admin/companies', handler: 'http/admin/get-companies', auth: 'global-admin' },
  { method: 'GET', path: '/admin/companies/{id}', handler: 'http/admin/get-company', auth: 'global-admin' },
  { method: 'GET', path: '/admin/companies/{id}/usage', handler: 'http/admin/get-company-usage', auth: 'global-admin' },
  { method: 'POST', path: '/admin/companies/{id}/updateAvailableDocuments', handler: 'http/admin/post-available-documents', auth: 'global-admin', needs: ['table', 'webSocketManage'] },
  { method: 'POST', path: '/admin/companies/{id}/updateVATAccount', handler: 'http/admin/post-vat-account', auth: 'global-admin', needs: ['table', 'webSocketManage'] },
  // Integrations
  { method: 'POST', path: '/company/service', handler: 'http/company/post-service', auth: 'company-admin', needs: ['table', 'secretsKey', 'webSocketManage'] },
  { method: 'POST', path: '/receipts/export-rivile', handler: 'http/receipts/post-export-rivile', auth: 'user', needs: ['table', 'documentsRead'] },
  // Google Drive and Dropbox imports: connect (OAuth 2), the provider's return, folder list and choice, status
  { method: 'GET', path: '/company/service/drive/switch', handler: 'http/company/get-drive-switch', auth: 'company-admin', needs: ['table', 'secretsKey', 'webSocketManage'] },
  { method: 'POST', path: '/company/service/drive/authorize', handler: 'http/company/post-drive-authorize', auth: 'company-admin', needs: ['table', 'secretsKey', 'webSocketManage', 'googleClientSecret'] },
  { method: 'GET', path: '/company/service/drive/folders', handler: 'http/company/get-drive-folders', auth: 'company-admin', needs: ['table', 'secretsKey', 'webSocketManage', 'googleClientSecret'] },
  { method: 'POST', path: '/company/service/drive/folders', handler: 'http/company/post-drive-folder', auth: 'company-admin', needs: ['table', 'secretsKey', 'webSocketManage', 'googleClientSecret'] },
  { method: 'GET', path: '/company/service/drive/status', handler: 'http/company/get-drive-status', auth: 'company-admin', needs: ['table'] },
  // Master data: suppliers and customers (stakeholders), categories, items
  { method: 'GET', path: '/categories', handler: 'http/master-data/get-categories', auth: 'user' },
  { method: 'GET', path: '/categories/{id}', handler: 'http/master-data/get-category', auth: 'user' },
  { method: 'POST', path: '/category', handler: 'http/master-data/post-category', auth: 'user', needs: ['table', 'webSocketManage'] },
  { method: 'PUT', path: '/category', handler: 'http/master-data/put-category', auth: 'user', needs: ['table', 'webSocketManage'] },
  { method: 'DELETE', path: '/category', handler: 'http/master-data/delete-category', auth: 'user', needs: ['table', 'webSocketManage'] },
  { method: 'GET', path: '/stakeholders', handler: 'http/master-data/get-stakeholders', auth: 'user' },
  { method: 'GET', path: '/stakeholders/{id}', handler: 'http/master-data/get-stakeholder', auth: 'user' },
  { method: 'POST', path: '/stakeholder', handler: 'http/master-data/post-stakeholder', auth: 'user', needs: ['table', 'webSocketManage'] },
  { method: 'PUT', path: '/stakeholder', handler: 'http/master-data/put-stakeholder', auth: 'user', needs: ['table', 'webSocketManage'] },
  { method: 'DELETE', path: '/stakeholder', handler: 'http/master-data/delete-stakeholder', auth: 'user', needs: ['table', 'webSocketManage'] },
  { method: 'GET', path: '/isNewStakeholder', handler: 'http/master-data/get-is-new-stakeholder', auth: 'user' },
  { method: 'GET', path: '/items', handler: 'http/master-data/get-items', auth: 'user' },
  { method: 'POST', path: '/item', handler: 'http/master-data/post-item', auth: 'user', needs: ['table', 'webSocketManage'] },
  { method: 'POST', path: '/item/word', handler: 'http/master-data/post-item-word', auth: 'user', needs: ['table', 'webSocketManage'] },
  { method: 'PUT', path: '/item', handler: 'http/master-data/put-item', auth: 'user', needs: ['table', 'webSocketManage'] },
  { method: 'DELETE', path: '/item', handler: 'http/master-data/delete-item', auth: 'user', needs: ['table', 'webSocketManage'] },
  // Master data import (XLSX/XLS)
  { method: 'GET', path: '/upload/import', handler: 'http/upload/get-upload-import', auth: 'user', needs: ['table', 'documentsBucket'] },
  { method: 'GET', path: '/upload/import/{id}', handler: 'http/upload/get-upload-import-result', auth: 'user', needs: ['table', 'documentsRead'] },
  // Team and invitations
  { method: 'POST', path: '/invitation', handler: 'http/invitation/post-invitation', auth: 'company-admin', needs: ['table', 'sesSend'] },
  { method: 'GET', path: '/invitation/{token}', handler: 'http/invitation/get-invitation', auth: 'public' },
  { method: 'PUT', path: '/invitation/{token}', handler: 'http/invitation/put-invitation', auth: 'public', needs: ['table', 'webSocketManage'] },
  { method: 'PUT', path: '/company/users/{id}', handler: 'http/company/put-company-user', auth: 'company-admin', needs: ['table', 'webSocketManage', 'secretsKey'] },
  { method: 'PUT', path: '/company/owner', handler: 'http/company/put-company-owner', auth: 'company-admin', needs: ['table', 'webSocketManage'] },
  { method: 'DELETE', path: '/company/users/{id}', handler: 'http/company/delete-company-user', auth: 'company-admin', needs: ['table', 'webSocketManage', 'secretsKey'] },
  { method: 'GET', path: '/company/invitations', handler: 'http/company/get-company-invitations', auth: 'company-admin', needs: ['table'] },
  { method: 'DELETE', path: '/company/invitations/{id}', handler: 'http/company/delete-company-invitation', auth: 'company-admin', needs: ['table'] },
  // Master-data imports (SQL database, Rivile GAMA): status, SQL mapping, sync now
  { method: 'GET', path: '/company/service/imports', handler: 'http/company/get-imports', auth: 'company-admin', needs: ['table'] },
  { method: 'PUT', path: '/company/service/sql/mapping', handler: 'http/company/put-sql-mapping', auth: 'company-admin', needs: ['table', 'secretsKey'] },
  { method: 'POST', path: '/company/service/imports/sync', handler: 'http/company/post-import-sync', auth: 'company-admin', needs: ['table', 'secretsKey', 'syncQueue'] },
];

/** Non-HTTP entry points that CDK wires to other event sources. */
export const websocketRoutes = [
  { routeKey: '$connect', handler: 'ws/connect', needs: ['table'] },
  { routeKey: '$disconnect', handler: 'ws/disconnect', needs: ['table'] },
  // Answers the client's messages on its own connection.
  { routeKey: '$default', handler: 'ws/default', needs: ['table', 'webSocketManage'] },
] as const satisfies ReadonlyArray<{ routeKey: string; handler: string; needs: readonly AwsNeed[] }>;

export const triggerHandlers = {
  postConfirmation: 'triggers/post-confirmation',
  preSignUp: 'triggers/pre-sign-up',
} as const;

/**
 * Queue-driven jobs: S3 object-created notifications (prefixes uploads/ and jobs/process/; imports/) → SQS → Lambda;
 * email-in: inbound/ (raw messages stored by SES or the local SMTP server) → SQS → Lambda.
 */
export const jobHandlers = {
  processDocument: 'jobs/process-document',
  receiveEmail: 'jobs/receive-email',
  /** Email-in in AWS: the SES receipt rule's synchronous Lambda action, before the S3 action (unknown recipients). */
  answerEmailRecipients: 'jobs/answer-email-recipients',
  /** Integrations: export queue (SQS) → delivery of one document to one export target. */
  exportDocument: 'jobs/export-document',
  /** Master data XLSX/XLS imports: S3 imports/ → SQS → Lambda. */
  importMasterData: 'jobs/import-master-data',
  // Processing that never finished: the dead-letter queue's consumer and the scheduled sweeper.
  processDocumentDeadLetter: 'jobs/process-document-dead-letter',
  sweepProcessing: 'jobs/sweep-processing',
  /** Google Drive and Dropbox imports: a schedule (EventBridge; a timer in local mode) → new files become documents. */
  importDriveFiles: 'jobs/import-drive-files',
  /** Master-data imports (SQL, Rivile): EventBridge schedule → Lambda (a timer in local mode). */
  syncMasterData: 'jobs/sync-master-data',
  /** Master-data imports: a run that stopped for now ("sync now" past its 20 s) → SQS sync queue → Lambda continues it. */
  continueMasterDataSync: 'jobs/continue-master-data-sync',
  /** Office previews on AWS: invoked by the processing job (a container image with LibreOffice). */
  convertOffice: 'jobs/convert-office',
  /** Company deletion: purge queue (SQS) → removes everything a deleted company owned, page by page. */
  purgeCompany: 'jobs/purge-company',
} as const;

/**
 * Least privilege of the jobs and triggers (shared/needs.ts), by handler path: their roles grant exactly these and
 * their bundles leave out lazily loaded adapters of other needs. A job without an entry is granted what its bundled
 * AWS SDK clients call (infra/constructs/grants.ts).
 */
export const handlerNeeds: Readonly<Record<string, readonly AwsNeed[]>> = {
  [triggerHandlers.postConfirmation]: ['table'],
  // Reads the invitation a sign-up names.
  [triggerHandlers.preSignUp]: ['table'],
  // Reads the upload, writes page images, content and boxes; Textract reads the upload itself; office files go
  // through the office converter for their page images.
  [jobHandlers.processDocument]: ['table', 'documentsBucket', 'webSocketManage', 'textract', 'officeConverter'],
  // Reads the raw message, writes its attachments as uploads, mails the address's owner what was not taken.
  [jobHandlers.receiveEmail]: ['table', 'documentsBucket', 'webSocketManage', 'sesSend'],
  // Looks up the recipients' Email-in claims and bounces the unknown ones of an authenticated sender.
  [jobHandlers.answerEmailRecipients]: ['table', 'sesBounce'],
  // Reads the document's files, opens the target's credentials, re-queues with a delay.
  [jobHandlers.exportDocument]: ['table', 'documentsRead', 'webSocketManage', 'secretsKey', 'exportQueue'],
  // Reads the workbook and writes the import's result.
  [jobHandlers.importMasterData]: ['table', 'documentsBucket', 'webSocketManage'],
  // Marks documents whose processing died (dead letters, stuck past the bound) failed and tells the screens.
  [jobHandlers.processDocumentDeadLetter]: ['table', 'webSocketManage'],
  // The same, on a schedule; also removes the files and items deleted documents left (leftovers, D18).
  [jobHandlers.sweepProcessing]: ['table', 'webSocketManage', 'documentsBucket'],
  // Opens the Google Drive / Dropbox grant, downloads new files of the folder and stores them as uploads.
  [jobHandlers.importDriveFiles]: ['table', 'documentsBucket', 'webSocketManage', 'secretsKey', 'googleClientSecret'],
  // Opens the SQL / Rivile import credentials and upserts master data; hands what is still partial at its end to the sync queue.
  [jobHandlers.syncMasterData]: ['table', 'secretsKey', 'syncQueue'],
  // Continues one import that stopped for now, and queues it again while it keeps advancing.
  [jobHandlers.continueMasterDataSync]: ['table', 'secretsKey', 'syncQueue'],
  // Runs LibreOffice on users' files: the office-conversion/ objects of the bucket and nothing else (no table).
  [jobHandlers.convertOffice]: ['officeConversion'],
  // Deletes the deleted company's items and the objects of its documents and uploads, and queues what is left.
  [jobHandlers.purgeCompany]: ['table', 'documentsBucket', 'purgeQueue'],
};

export function routeKey(route: Pick<RouteDef, 'method' | 'path'>): string {
  return `${route.method} ${route.path}`;
}
