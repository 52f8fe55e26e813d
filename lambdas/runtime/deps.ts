import { ulid } from 'ulid';
import { ddbAccountsStore } from '../adapters/ddb/accounts-store';
import { ddbDocumentsStore } from '../adapters/ddb/documents-store';
import { ddbSupplierLayouts } from '../adapters/ddb/layout-store';
import { ddbMasterDataStore } from '../adapters/ddb/master-data-store';
import { ddbImportsStore } from '../adapters/ddb/imports-store';
import { s3Files } from '../adapters/s3/files';
import { wsLiveEvents } from '../adapters/ws/live-events';
import type { DocumentsStore, FileStore } from '../core/documents/ports';
import { systemClock, type AccountsStore, type Clock, type IdGenerator, type LiveEvents } from '../core/ports';
import type { MasterDataStore } from '../core/master-data/ports';
import type { ImportsStore } from '../core/master-data/import/ports';
import type { SupplierLayouts } from '../core/recognition/ports';
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
  /** Receipts and invoices (lambdas/core/documents). */
  documents: DocumentsStore;
  /** The documents bucket. */
  files: FileStore;
  /** Supplier layouts learnt from confirmed documents, per company (lambdas/core/recognition). */
  layouts: SupplierLayouts;
  /** Master data: suppliers, customers, categories, items (lambdas/core/master-data). */
  masterData: MasterDataStore;
  /** Master data XLSX/XLS imports (lambdas/core/master-data/import). */
  imports: ImportsStore;
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
    documents: ddbDocumentsStore,
    files: s3Files,
    layouts: ddbSupplierLayouts,
    masterData: ddbMasterDataStore,
    imports: ddbImportsStore,
  };
}
