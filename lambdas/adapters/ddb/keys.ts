/** The only place where key values of the single table are built. See docs/data-model.md. */
export const keys = {
  userProfile: (userId: string) => ({ pk: `USER#${userId}`, sk: 'PROFILE' }),
  userByEmailIndex: (email: string) => ({ gsi1pk: `EMAIL#${email.trim().toLowerCase()}`, gsi1sk: 'USER' }),
  membership: (userId: string, companyId: string) => ({ pk: `USER#${userId}`, sk: `MEMBER#${companyId}` }),
  membershipsOfUser: (userId: string) => ({ pk: `USER#${userId}`, skPrefix: 'MEMBER#' }),
  memberOfCompanyIndex: (companyId: string, userId: string) => ({
    gsi1pk: `COMPANY#${companyId}#MEMBERS`,
    gsi1sk: `MEMBER#${userId}`,
  }),
  /** One company code per creator (A8, A26): `codeKey` = companyCodeKey(code) of core/accounts/companies.ts. */
  companyCodeGuard: (userId: string, codeKey: string) => ({ pk: `USER#${userId}`, sk: `COMPANYCODE#${codeKey}` }),
  company: (companyId: string) => ({ pk: `COMPANY#${companyId}`, sk: 'META' }),
  /** Every item of a company's own partition (META, COUNTS#, USAGE#, HOLDS#, CONTENT_SCHEMA, LAYOUT#, …): the purge. */
  companyItems: (companyId: string) => ({ pk: `COMPANY#${companyId}` }),
  companiesIndex: (createdAt: string, companyId: string) => ({ gsi2pk: 'COMPANIES', gsi2sk: `${createdAt}#${companyId}` }),
  companyCounts: (companyId: string, receiptType: 'receipt' | 'invoice') => ({
    pk: `COMPANY#${companyId}`,
    sk: `COUNTS#${receiptType}`,
  }),
  companyUsage: (companyId: string, month: string) => ({ pk: `COMPANY#${companyId}`, sk: `USAGE#${month}` }),
  emailIn: (address: string) => ({ pk: `EMAILIN#${address.toLowerCase()}`, sk: 'EMAILIN' }),
  emailInNotices: (address: string, hour: string) => ({ pk: `NOTICES#${address.toLowerCase()}`, sk: hour }),
  /** The envelope recipients SES's receipt rule named for a received message (AWS; E11/E12), by SES's message id. */
  receivedEnvelope: (messageId: string) => ({ pk: `SESMSG#${messageId}`, sk: 'ENVELOPE' }),
  connection: (connectionId: string) => ({ pk: `CONN#${connectionId}`, sk: 'META' }),
  connectionItems: (connectionId: string) => ({ pk: `CONN#${connectionId}` }),
  connectionSubscription: (connectionId: string, companyId: string) => ({
    pk: `CONN#${connectionId}`,
    sk: `SUB#${companyId}`,
  }),
  connectionUserSubscription: (connectionId: string) => ({ pk: `CONN#${connectionId}`, sk: 'SUBUSER' }),
  connectionOfUserIndex: (userId: string, connectionId: string) => ({
    gsi1pk: `USER#${userId}#CONNS`,
    gsi1sk: `CONN#${connectionId}`,
  }),
  connectionOfCompanyIndex: (companyId: string, connectionId: string) => ({
    gsi1pk: `COMPANY#${companyId}#CONNS`,
    gsi1sk: `CONN#${connectionId}`,
  }),
  /** Review and export: a company's overrides of the document schema (Fields configuration). */
  contentSchema: (companyId: string) => ({ pk: `COMPANY#${companyId}`, sk: 'CONTENT_SCHEMA' }),
  /** Review and export: a line-items grid template of a supplier/customer (key: code:<code> or name:<name>). */
  gridTemplate: (companyId: string, templateKey: string) => ({ pk: `COMPANY#${companyId}`, sk: `GRID_TEMPLATE#${templateKey}` }),
  /** Learning from corrections: a supplier layout learnt by a company, under one of its supplier keys (VAT / CODE / NAME). */
  supplierLayout: (companyId: string, kind: 'VAT' | 'CODE' | 'NAME', value: string) => ({ pk: `COMPANY#${companyId}`, sk: `LAYOUT#${kind}#${value}` }),
  /** The layouts a company learnt from one document, whatever supplier keys hold them (C7, gsi1). */
  supplierLayoutSource: (companyId: string, sourceReceiptId: string, kind: 'VAT' | 'CODE' | 'NAME', value: string) => ({
    gsi1pk: `LAYOUTSRC#${companyId}#${sourceReceiptId}`,
    gsi1sk: `${kind}#${value}`,
  }),
  // Documents (receipts and invoices); scope is `C#<companyId>` or `U#<userId>` (unassigned).
  document: (receiptId: string) => ({ pk: `DOC#${receiptId}`, sk: 'META' }),
  documentHistory: (receiptId: string, date: string, entryId: string) => ({ pk: `DOC#${receiptId}`, sk: `HIST#${date}#${entryId}` }),
  documentHistoryOf: (receiptId: string) => ({ pk: `DOC#${receiptId}`, skPrefix: 'HIST#' }),
  /** The export markers of a document (X7: deleted with it). */
  exportMarkersOf: (receiptId: string) => ({ pk: `DOC#${receiptId}`, skPrefix: 'EXPORT#' }),
  /** What a deleted document leaves to remove (D17, D18); listed oldest first in one gsi1 partition for the sweeper. */
  documentLeftovers: (receiptId: string) => ({ pk: `DOC#${receiptId}`, sk: 'LEFTOVERS' }),
  leftoversIndex: (deletedAt: string, receiptId: string) => ({ gsi1pk: 'LEFTOVERS', gsi1sk: `${deletedAt}#${receiptId}` }),
  /** Every item of a document's partition (META, HIST#…, EXPORT#…): the purge of a deleted company. */
  documentItems: (receiptId: string) => ({ pk: `DOC#${receiptId}` }),
  /** The three list partitions of a document, each sorted by `<created_at>#<receiptId>`. */
  documentLists: (scope: string, receiptType: string, status: string, sortKey: string) => ({
    gsi1pk: `DOCS#${scope}#${receiptType}#${status}`,
    gsi1sk: sortKey,
    gsi2pk: `DOCS#${scope}#${receiptType}`,
    gsi2sk: sortKey,
    gsi3pk: `DOCS#${scope}`,
    gsi3sk: sortKey,
  }),
  documentsByTypeAndStatus: (scope: string, receiptType: string, status: string) => ({ index: 'gsi1', pk: `DOCS#${scope}#${receiptType}#${status}` }) as const,
  documentsByType: (scope: string, receiptType: string) => ({ index: 'gsi2', pk: `DOCS#${scope}#${receiptType}` }) as const,
  documentsOfScope: (scope: string) => ({ index: 'gsi3', pk: `DOCS#${scope}` }) as const,
  /** Same-file (hash) and same-document (counterparty + number + total) look-ups. */
  documentMarker: (kind: string, scope: string, value: string, receiptId: string) => ({ pk: `DOCMARK#${kind}#${scope}#${value}`, sk: `DOC#${receiptId}` }),
  documentMarkersOf: (kind: string, scope: string, value: string) => ({ pk: `DOCMARK#${kind}#${scope}#${value}` }),
  // Document search index (search): one item per document and bucket (the first letters of its words),
  // a copy of the document; four partitions per bucket, each sorted by `<created_at>#<receiptId>`.
  documentSearch: (scope: string, bucket: string, receiptType: string, status: string, sortKey: string) => ({
    pk: `DOCQ#${scope}#${bucket}`,
    sk: sortKey,
    gsi1pk: `DOCQ#${scope}#${bucket}#${receiptType}#${status}`,
    gsi1sk: sortKey,
    gsi2pk: `DOCQ#${scope}#${bucket}#${receiptType}`,
    gsi2sk: sortKey,
    gsi3pk: `DOCQ#${scope}#${bucket}#S#${status}`,
    gsi3sk: sortKey,
  }),
  documentSearchKey: (scope: string, bucket: string, sortKey: string) => ({ pk: `DOCQ#${scope}#${bucket}`, sk: sortKey }),
  /** The search partition of a bucket: all documents, of one type, of one type and status, or of one status. */
  documentSearchStream: (scope: string, bucket: string, receiptType?: string, status?: string) => {
    const base = `DOCQ#${scope}#${bucket}`;
    if (receiptType && status) return { index: 'gsi1', pk: `${base}#${receiptType}#${status}` } as const;
    if (receiptType) return { index: 'gsi2', pk: `${base}#${receiptType}` } as const;
    if (status) return { index: 'gsi3', pk: `${base}#S#${status}` } as const;
    return { index: 'table', pk: base } as const;
  },
  upload: (uploadId: string) => ({ pk: `UPLOAD#${uploadId}`, sk: 'META' }),
  /** Pending uploads of a company by expiry, while they hold a quota reservation. */
  /** Hardening: one user's count of outstanding (pending) upload reservations in a company. */
  uploadHolds: (companyId: string, userId: string) => ({ pk: `COMPANY#${companyId}`, sk: `HOLDS#${userId}` }),
  pendingUploadIndex: (companyId: string, expiresAt: string, uploadId: string) => ({ gsi1pk: `UPLOADS#${companyId}`, gsi1sk: `${expiresAt}#${uploadId}` }),
  /** Hardening: one user's count of outstanding (pending) uploads in the all-companies view (company_id NONE). */
  userUploadHolds: (userId: string) => ({ pk: `USER#${userId}`, sk: 'HOLDS#NONE' }),
  /** Pending all-companies uploads of a user by expiry, while they count against the user's outstanding uploads. */
  pendingUserUploadIndex: (userId: string, expiresAt: string, uploadId: string) => ({ gsi1pk: `UPLOADS#USER#${userId}`, gsi1sk: `${expiresAt}#${uploadId}` }),
  pendingUploadsOfCompany: (companyId: string) => ({ gsi1pk: `UPLOADS#${companyId}` }),
  /** Counts by status of a user's unassigned documents (all-companies uploads). */
  userDocumentCounts: (userId: string, receiptType: 'receipt' | 'invoice') => ({ pk: `USER#${userId}`, sk: `DOCCOUNTS#${receiptType}` }),
  // Email-in: one record per received message and company (id from Message-ID + content hash + company).
  email: (emailId: string) => ({ pk: `EMAIL#${emailId}`, sk: 'META' }),
  /** The email records of a company, oldest first (E8: the purge of a deleted company finds them by this). */
  emailsOfCompany: (companyId: string) => ({ gsi1pk: `COMPANY#${companyId}#EMAILS` }),
  emailOfCompany: (companyId: string, createdAt: string, emailId: string) => ({ gsi1pk: `COMPANY#${companyId}#EMAILS`, gsi1sk: `${createdAt}#${emailId}` }),
  // Integrations: sealed credentials of one integration of a company (never on the company META item).
  integrationCredentials: (companyId: string, type: string) => ({ pk: `COMPANY#${companyId}`, sk: `INTEGRATION#${type}` }),
  /** Integrations: a document delivered to one export target (the idempotency key of the export). */
  exportMarker: (receiptId: string, target: string) => ({ pk: `DOC#${receiptId}`, sk: `EXPORT#${target}` }),
  // Master data (suppliers, customers, categories, items). `kind` is the list a record belongs to:
  // supplier | customer | category | item; `source` own | external (imported from an integration).
  /** The record itself; stakeholders and categories by id, items by name_id. */
  masterRecord: (companyId: string, entity: 'STAKEHOLDER' | 'CATEGORY' | 'ITEM', id: string) => ({ pk: `MD#${companyId}#${entity}#${id}`, sk: 'META' }),
  /** A record's two list partitions (every record / own or external only), sorted by folded name then id (`masterSortKey`). */
  masterLists: (companyId: string, kind: string, source: 'own' | 'external', nameKey: string, id: string) => {
    const sortKey = masterSortKey(nameKey, id);
    return { gsi1pk: `MDL#${companyId}#${kind}#all`, gsi1sk: sortKey, gsi2pk: `MDL#${companyId}#${kind}#${source}`, gsi2sk: sortKey };
  },
  masterList: (companyId: string, kind: string, source: 'all' | 'own' | 'external') =>
    source === 'all'
      ? ({ index: 'gsi1', pkName: 'gsi1pk', skName: 'gsi1sk', pk: `MDL#${companyId}#${kind}#all` } as const)
      : ({ index: 'gsi2', pkName: 'gsi2pk', skName: 'gsi2sk', pk: `MDL#${companyId}#${kind}#${source}` } as const),
  /** One search-word item per word of a record's name: sort key `<word>#<folded name>\u0001<id>`. */
  masterSearch: (companyId: string, kind: string, source: 'own' | 'external', word: string, nameKey: string, id: string) =>
    masterSearchKey(companyId, kind, source, `${word}#${masterSortKey(nameKey, id)}`),
  /**
   * A search-word item's key as records written before MASTER_SEARCH_VERSION 3 (items: ITEM_SEARCH_VERSION 4) have it:
   * `<word>#<folded name>#<id>`; deleted by the backfill (M12).
   */
  formerMasterSearch: (companyId: string, kind: string, source: 'own' | 'external', word: string, nameKey: string, id: string) =>
    masterSearchKey(companyId, kind, source, `${word}#${nameKey.slice(0, 200)}#${id}`),
  masterSearchPartition: (companyId: string, kind: string, source: 'all' | 'own' | 'external') =>
    source === 'all'
      ? ({ index: undefined, pkName: 'pk', skName: 'sk', pk: `MDS#${companyId}#${kind}#all` } as const)
      : ({ index: 'gsi1', pkName: 'gsi1pk', skName: 'gsi1sk', pk: `MDS#${companyId}#${kind}#${source}` } as const),
  /** Uniqueness guard of a name key or code within a company and kind; holds the owner's id (`rid`). */
  masterGuard: (companyId: string, kind: string, field: 'name' | 'code', value: string) => ({ pk: `MDU#${companyId}#${kind}#${field}#${value}`, sk: 'UNIQUE' }),
  /** Non-unique look-ups of stakeholders (VAT ID, recognition name), oldest first. */
  masterLookup: (companyId: string, kind: string, by: 'vat' | 'match_name', value: string, createdAt: string, id: string) => ({
    pk: `MDF#${companyId}#${kind}#${by}#${value}`,
    sk: `${createdAt}#${id}`,
  }),
  masterLookupPartition: (companyId: string, kind: string, by: 'vat' | 'match_name', value: string) => ({ pk: `MDF#${companyId}#${kind}#${by}#${value}` }),
  /** Items by one of their (folded) words, for matching line items. */
  itemWord: (companyId: string, word: string, nameId: string) => ({ pk: `MDW#${companyId}#${word.slice(0, 200)}`, sk: nameId }),
  itemWordPartition: (companyId: string, word: string) => ({ pk: `MDW#${companyId}#${word.slice(0, 200)}` }),
  // Master data import (XLSX/XLS): one record per GET /upload/import, and the rejected rows of each chunk.
  masterImport: (importId: string) => ({ pk: `IMPORT#${importId}`, sk: 'META' }),
  masterImportRejected: (importId: string, fromRow: number) => ({ pk: `IMPORT#${importId}`, sk: `REJECTED#${String(fromRow).padStart(7, '0')}` }),
  masterImportRejectedOf: (importId: string) => ({ pk: `IMPORT#${importId}`, skPrefix: 'REJECTED#' }),
  // Team and invitations
  /** An invitation, keyed by the SHA-256 (hex) of its token. */
  invitation: (invitationId: string) => ({ pk: `INVITATION#${invitationId}`, sk: 'META' }),
  /** Invitations of a company, newest last (gsi1). */
  invitationOfCompanyIndex: (companyId: string, createdAt: string, invitationId: string) => ({
    gsi1pk: `COMPANY#${companyId}#INVITATIONS`,
    gsi1sk: `${createdAt}#${invitationId}`,
  }),
  invitationsOfCompany: (companyId: string) => ({ gsi1pk: `COMPANY#${companyId}#INVITATIONS` }),
  /** Which invitation of a company to an address (lower case) is the valid one: the one sent last. */
  currentInvitation: (companyId: string, email: string) => ({ pk: `COMPANY#${companyId}`, sk: `INVITEE#${email.trim().toLowerCase()}` }),
  /** How many invitations a company mailed on one UTC day (`YYYY-MM-DD`): the daily cap's counter. */
  invitationsMailed: (companyId: string, day: string) => ({ pk: `COMPANY#${companyId}`, sk: `INVITESENT#${day}` }),
  // Google Drive and Dropbox imports: OAuth states (by SHA-256 of the state, TTL), one import per company and
  // service, listed for the schedule in gsi1 while it has a folder.
  oauthState: (stateHash: string) => ({ pk: `OAUTHSTATE#${stateHash}`, sk: 'META' }),
  driveImport: (companyId: string, service: string) => ({ pk: `COMPANY#${companyId}`, sk: `DRIVEIMPORT#${service}` }),
  driveImportActiveIndex: (companyId: string, service: string) => ({ gsi1pk: 'DRIVEIMPORTS#ACTIVE', gsi1sk: `${service}#${companyId}` }),
  driveImportActivePartition: () => ({ gsi1pk: 'DRIVEIMPORTS#ACTIVE' }),
  // Master-data imports (SQL, Rivile): the state of one import of a company (mapping, last run, lease, position);
  // while the import is on, gsi1 lists it for the schedule.
  syncState: (companyId: string, type: string) => ({ pk: `COMPANY#${companyId}`, sk: `MDSYNC#${type}` }),
  syncEnabledIndex: (type: string, companyId: string) => ({ gsi1pk: 'MDSYNC#ENABLED', gsi1sk: `${type}#${companyId}` }),
  syncEnabledPartition: () => ({ index: 'gsi1', pk: 'MDSYNC#ENABLED' }) as const,
} as const;

/**
 * Ends the name in a master-data sort key: below every character a folded name holds (control characters are
 * left out of the key's name), so a name sorts before the longer names it starts ("office" before "office supplies",
 * whose space would sort before a `#`).
 */
export const MASTER_SORT_NAME_END = '\u0001';

/** Sort keys of master-data lists: the folded name (bounded, so that a key stays under 1024 bytes), then the id. */
function masterSortKey(nameKey: string, id: string): string {
  return `${nameKey.slice(0, 200).replace(/[\u0000-\u001f]/g, '')}${MASTER_SORT_NAME_END}${id}`;
}

function masterSearchKey(companyId: string, kind: string, source: 'own' | 'external', sortKey: string) {
  return { pk: `MDS#${companyId}#${kind}#all`, sk: sortKey, gsi1pk: `MDS#${companyId}#${kind}#${source}`, gsi1sk: sortKey };
}

export type Key = { pk: string; sk: string };
