import { ulid } from 'ulid';
import { ddbAccountsStore } from '../adapters/ddb/accounts-store';
import { ddbCompanyAdminStore } from '../adapters/ddb/company-admin-store';
import { ddbDocumentsStore } from '../adapters/ddb/documents-store';
import { ddbEmailStore } from '../adapters/ddb/email-store';
import { ddbSupplierLayouts } from '../adapters/ddb/layout-store';
import { ddbMasterDataStore } from '../adapters/ddb/master-data-store';
import { ddbImportsStore } from '../adapters/ddb/imports-store';
import { ddbTeamStore } from '../adapters/ddb/team-store';
import { s3Files } from '../adapters/s3/files';
import { wsLiveEvents } from '../adapters/ws/live-events';
import type { DocumentsStore, FileStore } from '../core/documents/ports';
import type { EmailStore } from '../core/email-in/ports';
import { systemClock, type AccountsStore, type Clock, type IdGenerator, type LiveEvents } from '../core/ports';
import type { MasterDataStore } from '../core/master-data/ports';
import type { ImportsStore } from '../core/master-data/import/ports';
import type { SupplierLayouts } from '../core/recognition/ports';
import type { TeamStore } from '../core/team/types';
import type { CompanyAdminStore } from '../core/admin/ports';
import { env } from './env';

/** The adapters a handler hands to core functions. Built once per process. */
export interface Deps {
  store: AccountsStore;
  live: LiveEvents;
  clock: Clock;
  ids: IdGenerator;
  globalAdminEmails: string[];
  /** Companies one user may create (MAX_COMPANIES_PER_USER). */
  maxCompaniesPerUser: number;
  /** Upload reservations: how long one holds the quota, how many one user may hold (UPLOAD_RESERVATION_MINUTES, MAX_PENDING_UPLOADS_PER_USER). */
  uploadLimits: { reservationMinutes: number; maxPendingPerUser: number };
  /** Receipts and invoices (lambdas/core/documents). */
  documents: DocumentsStore;
  /** The documents bucket. */
  files: FileStore;
  /** Supplier layouts learnt from confirmed documents, per company (lambdas/core/recognition). */
  layouts: SupplierLayouts;
  /** Email-in: email-in address claims and email records (lambdas/core/email-in). */
  emails: EmailStore;
  /** Platform admin and company settings: companies index, quota, VAT account, name and code (lambdas/core/admin). */
  admin: CompanyAdminStore;
  /** Master data: suppliers, customers, categories, items (lambdas/core/master-data). */
  masterData: MasterDataStore;
  /** Master data XLSX/XLS imports (lambdas/core/master-data/import). */
  imports: ImportsStore;
  // Team and invitations
  team: TeamStore;
  /** The web app's origin, for links in mail (the mailer is imported by the one handler that sends, so only it is granted SES). */
  appUrl: string;
}

export function deps(): Deps {
  return {
    store: ddbAccountsStore,
    live: wsLiveEvents,
    clock: systemClock,
    ids: { newId: () => ulid() },
    globalAdminEmails: env()
      .GLOBAL_ADMIN_EMAILS.split(',')
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
    maxCompaniesPerUser: env().MAX_COMPANIES_PER_USER,
    uploadLimits: { reservationMinutes: env().UPLOAD_RESERVATION_MINUTES, maxPendingPerUser: env().MAX_PENDING_UPLOADS_PER_USER },
    documents: ddbDocumentsStore,
    files: s3Files,
    layouts: ddbSupplierLayouts,
    emails: ddbEmailStore,
    admin: ddbCompanyAdminStore,
    masterData: ddbMasterDataStore,
    imports: ddbImportsStore,
    team: ddbTeamStore,
    appUrl: env().APP_URL,
  };
}
