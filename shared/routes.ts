/**
 * The route table: every HTTP route of the API. CDK creates one Lambda and one
 * API Gateway route per entry; the local API adapter dispatches from the same list.
 * `handler` is the file under lambdas/ (without extension) that exports `handler`.
 */
export type AuthLevel = 'public' | 'user' | 'company-admin' | 'global-admin';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RouteDef {
  method: HttpMethod;
  /** API Gateway path syntax, e.g. /receipts/{id} */
  path: string;
  handler: string;
  auth: AuthLevel;
}

export const routes: RouteDef[] = [
  { method: 'GET', path: '/companies', handler: 'http/companies/get-companies', auth: 'user' },
  { method: 'POST', path: '/company', handler: 'http/companies/post-company', auth: 'user' },
  { method: 'DELETE', path: '/company', handler: 'http/companies/delete-company', auth: 'company-admin' },
  { method: 'GET', path: '/company/users', handler: 'http/company/get-company-users', auth: 'company-admin' },
  { method: 'GET', path: '/user', handler: 'http/user/get-user', auth: 'user' },
  { method: 'POST', path: '/user', handler: 'http/user/post-user', auth: 'user' },
  // Documents (receipts and invoices)
  { method: 'GET', path: '/upload/document', handler: 'http/upload/get-upload-document', auth: 'user' },
  { method: 'GET', path: '/receipts', handler: 'http/receipts/get-receipts', auth: 'user' },
  { method: 'GET', path: '/receipts/total-documents', handler: 'http/receipts/get-total-documents', auth: 'user' },
  { method: 'POST', path: '/receipts/export-xml', handler: 'http/receipts/post-export-xml', auth: 'user' },
  { method: 'POST', path: '/receipts/bulk', handler: 'http/receipts/post-bulk', auth: 'user' },
  { method: 'GET', path: '/receipts/{id}', handler: 'http/receipts/get-receipt', auth: 'user' },
  { method: 'GET', path: '/receipts/{id}/history', handler: 'http/receipts/get-history', auth: 'user' },
  { method: 'GET', path: '/receipts/{id}/duplicates', handler: 'http/receipts/get-duplicates', auth: 'user' },
  { method: 'POST', path: '/receipts/{id}/company', handler: 'http/receipts/post-company', auth: 'user' },
  { method: 'POST', path: '/receipts/{id}/combine', handler: 'http/receipts/post-combine', auth: 'user' },
  { method: 'POST', path: '/receipts/{id}/restart', handler: 'http/receipts/post-restart', auth: 'user' },
  { method: 'POST', path: '/receipt/{id}/status', handler: 'http/receipt/post-status', auth: 'user' },
  { method: 'POST', path: '/receipt/{id}/flag', handler: 'http/receipt/post-flag', auth: 'user' },
  { method: 'POST', path: '/receipt/{id}/type', handler: 'http/receipt/post-type', auth: 'user' },
  { method: 'DELETE', path: '/receipt/{id}', handler: 'http/receipt/delete-receipt', auth: 'user' },
  // Review and export: content, boxes, grids, templates, validation, edit actions, exports, schema
  { method: 'GET', path: '/receipts/{id}/content', handler: 'http/receipts/content-get', auth: 'user' },
  { method: 'PUT', path: '/receipts/{id}/content', handler: 'http/receipts/content-put', auth: 'user' },
  { method: 'POST', path: '/receipts/{id}/content/validate', handler: 'http/receipts/content-validate', auth: 'user' },
  { method: 'PUT', path: '/receipts/{id}/content/move', handler: 'http/receipts/content-move', auth: 'user' },
  { method: 'POST', path: '/receipts/{id}/content/{line}', handler: 'http/receipts/content-add-line', auth: 'user' },
  { method: 'DELETE', path: '/receipts/{id}/content/{line}', handler: 'http/receipts/content-delete-line', auth: 'user' },
  { method: 'POST', path: '/receipts/{id}/content/{line}/select', handler: 'http/receipts/content-select', auth: 'user' },
  { method: 'GET', path: '/receipts/{id}/bboxes', handler: 'http/receipts/bboxes-get', auth: 'user' },
  { method: 'POST', path: '/receipts/{id}/grid', handler: 'http/receipts/grid-apply', auth: 'user' },
  { method: 'POST', path: '/receipts/{id}/template/grid', handler: 'http/receipts/template-grid-save', auth: 'user' },
  { method: 'PUT', path: '/receipts/{id}/template/grid', handler: 'http/receipts/template-grid-use', auth: 'user' },
  { method: 'GET', path: '/receipts/{id}/preview', handler: 'http/receipts/preview-get', auth: 'user' },
  { method: 'GET', path: '/receipts/{id}/export', handler: 'http/receipts/export-get', auth: 'user' },
  { method: 'POST', path: '/receipt/{id}', handler: 'http/receipt/edit-receipt', auth: 'user' },
  { method: 'GET', path: '/schemas', handler: 'http/schemas/get-schemas', auth: 'user' },
  { method: 'PUT', path: '/schemas', handler: 'http/schemas/put-schemas', auth: 'company-admin' },
  // Email-in: the email a document arrived with
  { method: 'GET', path: '/emails/{id}', handler: 'http/emails/get-email', auth: 'user' },
  // Platform admin (global admins) and company settings
  { method: 'PUT', path: '/company', handler: 'http/companies/put-company', auth: 'company-admin' },
  { method: 'GET', path: '/admin/statistics', handler: 'http/admin/get-statistics', auth: 'global-admin' },
  { method: 'GET', path: '/admin/companies', handler: 'http/admin/get-companies', auth: 'global-admin' },
  { method: 'GET', path: '/admin/companies/{id}', handler: 'http/admin/get-company', auth: 'global-admin' },
  { method: 'POST', path: '/admin/companies/{id}/updateAvailableDocuments', handler: 'http/admin/post-available-documents', auth: 'global-admin' },
  { method: 'POST', path: '/admin/companies/{id}/updateVATAccount', handler: 'http/admin/post-vat-account', auth: 'global-admin' },
  // Integrations
  { method: 'POST', path: '/company/service', handler: 'http/company/post-service', auth: 'company-admin' },
  { method: 'POST', path: '/receipts/export-rivile', handler: 'http/receipts/post-export-rivile', auth: 'user' },
  // Master data: suppliers and customers (stakeholders), categories, items
  { method: 'GET', path: '/categories', handler: 'http/master-data/get-categories', auth: 'user' },
  { method: 'POST', path: '/category', handler: 'http/master-data/post-category', auth: 'user' },
  { method: 'PUT', path: '/category', handler: 'http/master-data/put-category', auth: 'user' },
  { method: 'DELETE', path: '/category', handler: 'http/master-data/delete-category', auth: 'user' },
  { method: 'GET', path: '/stakeholders', handler: 'http/master-data/get-stakeholders', auth: 'user' },
  { method: 'GET', path: '/stakeholders/{id}', handler: 'http/master-data/get-stakeholder', auth: 'user' },
  { method: 'POST', path: '/stakeholder', handler: 'http/master-data/post-stakeholder', auth: 'user' },
  { method: 'PUT', path: '/stakeholder', handler: 'http/master-data/put-stakeholder', auth: 'user' },
  { method: 'DELETE', path: '/stakeholder', handler: 'http/master-data/delete-stakeholder', auth: 'user' },
  { method: 'GET', path: '/isNewStakeholder', handler: 'http/master-data/get-is-new-stakeholder', auth: 'user' },
  { method: 'GET', path: '/items', handler: 'http/master-data/get-items', auth: 'user' },
  { method: 'POST', path: '/item', handler: 'http/master-data/post-item', auth: 'user' },
  { method: 'POST', path: '/item/word', handler: 'http/master-data/post-item-word', auth: 'user' },
  { method: 'PUT', path: '/item', handler: 'http/master-data/put-item', auth: 'user' },
  { method: 'DELETE', path: '/item', handler: 'http/master-data/delete-item', auth: 'user' },
  // Master data import (XLSX/XLS)
  { method: 'GET', path: '/upload/import', handler: 'http/upload/get-upload-import', auth: 'user' },
  { method: 'GET', path: '/upload/import/{id}', handler: 'http/upload/get-upload-import-result', auth: 'user' },
  // Team and invitations
  { method: 'POST', path: '/invitation', handler: 'http/invitation/post-invitation', auth: 'company-admin' },
  { method: 'GET', path: '/invitation/{token}', handler: 'http/invitation/get-invitation', auth: 'public' },
  { method: 'PUT', path: '/invitation/{token}', handler: 'http/invitation/put-invitation', auth: 'public' },
  { method: 'PUT', path: '/company/users/{id}', handler: 'http/company/put-company-user', auth: 'company-admin' },
  { method: 'DELETE', path: '/company/users/{id}', handler: 'http/company/delete-company-user', auth: 'company-admin' },
  // Master-data imports (SQL database, Rivile GAMA): status, SQL mapping, sync now
  { method: 'GET', path: '/company/service/imports', handler: 'http/company/get-imports', auth: 'company-admin' },
  { method: 'PUT', path: '/company/service/sql/mapping', handler: 'http/company/put-sql-mapping', auth: 'company-admin' },
  { method: 'POST', path: '/company/service/imports/sync', handler: 'http/company/post-import-sync', auth: 'company-admin' },
];

/** Non-HTTP entry points that CDK wires to other event sources. */
export const websocketRoutes = [
  { routeKey: '$connect', handler: 'ws/connect' },
  { routeKey: '$disconnect', handler: 'ws/disconnect' },
  { routeKey: '$default', handler: 'ws/default' },
] as const;

export const triggerHandlers = {
  postConfirmation: 'triggers/post-confirmation',
} as const;

/**
 * Queue-driven jobs: S3 object-created notifications (prefixes uploads/ and jobs/process/; imports/) → SQS → Lambda;
 * email-in: inbound/ (raw messages stored by SES or the local SMTP server) → SQS → Lambda.
 */
export const jobHandlers = {
  processDocument: 'jobs/process-document',
  receiveEmail: 'jobs/receive-email',
  /** Integrations: export queue (SQS) → delivery of one document to one export target. */
  exportDocument: 'jobs/export-document',
  /** Master data XLSX/XLS imports: S3 imports/ → SQS → Lambda. */
  importMasterData: 'jobs/import-master-data',
  /** Master-data imports (SQL, Rivile): EventBridge schedule → Lambda (a timer in local mode). */
  syncMasterData: 'jobs/sync-master-data',
} as const;

export function routeKey(route: Pick<RouteDef, 'method' | 'path'>): string {
  return `${route.method} ${route.path}`;
}
