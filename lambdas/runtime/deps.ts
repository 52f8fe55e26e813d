import { ulid } from 'ulid';
import { ddbAccountsStore } from '../adapters/ddb/accounts-store';
import { ddbConnectionStore } from '../adapters/ddb/connection-store';
import { ddbCompanyAdminStore } from '../adapters/ddb/company-admin-store';
import { ddbDocumentsStore } from '../adapters/ddb/documents-store';
import { ddbEmailStore } from '../adapters/ddb/email-store';
import { ddbSupplierLayouts } from '../adapters/ddb/layout-store';
import { ddbMasterDataStore } from '../adapters/ddb/master-data-store';
import { ddbImportsStore } from '../adapters/ddb/imports-store';
import { ddbTeamStore } from '../adapters/ddb/team-store';
import type { DocumentsStore, FileStore } from '../core/documents/ports';
import type { EmailStore } from '../core/email-in/ports';
import type { ConnectionStore } from '../core/live/connections';
import { systemClock, type AccountsStore, type Clock, type IdGenerator, type LiveEvents } from '../core/ports';
import type { MasterDataStore } from '../core/master-data/ports';
import type { ImportsStore } from '../core/master-data/import/ports';
import type { SupplierLayouts } from '../core/recognition/ports';
import type { TeamStore } from '../core/team/types';
import type { CompanyAdminStore } from '../core/admin/ports';
import { env } from './env';
import { guardedFiles, guardedGoogleClientSecret, guardedLive, type NeedsCheck } from './lazy-adapters';
import type { AwsNeed } from '../../shared/needs';
import { handlerNeeds } from '../../shared/routes';

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
  /** Live connections' subscriptions (lambdas/core/live): ended when a member is removed or a company deleted. */
  connections: ConnectionStore;
  /** The web app's origin, for links in mail (the mailer is imported by the one handler that sends, so only it is granted SES). */
  appUrl: string;
  /**
   * Email-in: the deployed receiving domain (EMAIL_IN_DOMAIN, context `emailInDomain`) that answers and events show
   * addresses at; empty (local mode): the stored `<local>@in.receipts.local` (lambdas/core/email-in/address.ts).
   */
  emailInDomain: string;
  /**
   * Google Drive imports: the OAuth client secret, read on first use by the handlers that exchange or refresh
   * Google tokens (need googleClientSecret); stays inside the adapters, never returned or logged.
   */
  googleClientSecret: () => Promise<string>;
}

/**
 * The adapters for one handler. `needs` (from its declaration in shared/routes.ts) bound what it may call: the
 * documents bucket and live events are loaded on first use (so a handler that never calls them does not load the
 * S3 or API Gateway clients, and its bundle leaves them out) and refuse calls outside the needs. Without `needs`
 * (jobs and triggers, bounded by their role only) every adapter is available, still loaded lazily.
 */
export function deps(needs?: readonly AwsNeed[], who = 'this handler'): Deps {
  const check: NeedsCheck | undefined = needs ? { needs: new Set(needs), who } : undefined;
  return {
    store: ddbAccountsStore,
    live: guardedLive(check),
    clock: systemClock,
    ids: { newId: () => ulid() },
    globalAdminEmails: env()
      .GLOBAL_ADMIN_EMAILS.split(',')
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
    maxCompaniesPerUser: env().MAX_COMPANIES_PER_USER,
    uploadLimits: { reservationMinutes: env().UPLOAD_RESERVATION_MINUTES, maxPendingPerUser: env().MAX_PENDING_UPLOADS_PER_USER },
    documents: ddbDocumentsStore,
    files: guardedFiles(check),
    layouts: ddbSupplierLayouts,
    emails: ddbEmailStore,
    admin: ddbCompanyAdminStore,
    masterData: ddbMasterDataStore,
    imports: ddbImportsStore,
    team: ddbTeamStore,
    connections: ddbConnectionStore,
    appUrl: env().APP_URL,
    emailInDomain: env().EMAIL_IN_DOMAIN,
    googleClientSecret: guardedGoogleClientSecret(check),
  };
}

/** The adapters of a job or trigger, bounded by its `handlerNeeds` in shared/routes.ts (unbounded when it has none). */
export function depsFor(handler: string): Deps {
  return deps(handlerNeeds[handler], handler);
}
