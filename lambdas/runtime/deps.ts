import { ulid } from 'ulid';
import { ddbAccountsStore } from '../adapters/ddb/accounts-store';
import { ddbDocumentsStore } from '../adapters/ddb/documents-store';
import { s3Files } from '../adapters/s3/files';
import { wsLiveEvents } from '../adapters/ws/live-events';
import type { DocumentsStore, FileStore } from '../core/documents/ports';
import { systemClock, type AccountsStore, type Clock, type IdGenerator, type LiveEvents } from '../core/ports';
import { env } from './env';

/** The adapters a handler hands to core functions. Built once per process. */
export interface Deps {
  store: AccountsStore;
  live: LiveEvents;
  clock: Clock;
  ids: IdGenerator;
  globalAdminEmails: string[];
  /** Receipts and invoices (lambdas/core/documents). */
  documents: DocumentsStore;
  /** The documents bucket. */
  files: FileStore;
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
    documents: ddbDocumentsStore,
    files: s3Files,
  };
}
