/**
 * What core business rules need from the outside world. Adapters implement these;
 * tests may pass fakes. Core never imports an adapter.
 */
import type {
  CompanyRecord,
  CountsByType,
  MembershipRecord,
  ProfileRecord,
  UsageRecord,
} from './accounts/types';
import type { PurgeMessage } from './accounts/purge-message';

export interface AccountsStore {
  getProfile(userId: string): Promise<ProfileRecord | undefined>;
  getProfiles(userIds: string[]): Promise<ProfileRecord[]>;
  updateProfile(userId: string, changes: Partial<ProfileRecord>): Promise<ProfileRecord>;
  getMembership(userId: string, companyId: string): Promise<MembershipRecord | undefined>;
  listMembershipsOfUser(userId: string): Promise<MembershipRecord[]>;
  listMembersOfCompany(companyId: string): Promise<MembershipRecord[]>;
  /** A6's company items; `consistent`: read with ConsistentRead (PUT /company, before its write conditioned on the code). */
  getCompanies(companyIds: string[], options?: { consistent?: boolean }): Promise<CompanyRecord[]>;
  getCompanyStats(companyIds: string[], month: string): Promise<Map<string, { counts: CountsByType; usage: UsageRecord }>>;
  /** Writes profile, company, admin membership and email-in claim in one transaction; false if the profile exists. */
  provisionUser(profile: ProfileRecord, company: CompanyRecord): Promise<boolean>;
  /**
   * Writes company, admin membership and email-in claim in one transaction, with the creator's count of
   * created companies (`companies_created` on the profile) raised in it only while below `maxCreated`;
   * at the limit it rejects with CompanyLimitReached. The creator's company-code guard (A8: one company per code
   * and creator, `companyCodeKey`) is put in the same transaction only while there is none, or, with `replacing`,
   * while the guard there names that company (a stale guard: its company is gone or has another code now); a guard
   * there rejects with CompanyCodeTaken.
   */
  createCompany(company: CompanyRecord, membership: MembershipRecord, maxCreated: number, replacing?: string): Promise<void>;
  /**
   * A25: deletes the company's META item (the company is gone for everybody) only while the caller keeps another
   * company: their membership of `kept.companyId` and that company's META item must both be there, in the same
   * transaction. 'kept' when either is not (that company was deleted or left meanwhile), 'gone' when this company's
   * META item is already gone; nothing is deleted then. `kept` null: the company goes with its only member's account
   * (no company is kept), the delete is conditioned on the META item only.
   */
  deleteCompanyRecord(companyId: string, kept: { userId: string; companyId: string } | null): Promise<CompanyDeleteFailure | undefined>;
  /**
   * Everything else that made the company visible (memberships, Email-in claims, counts, credentials, imports), and
   * its creator's company-code guard while the guard names this company.
   */
  deleteCompany(company: CompanyRecord, members: MembershipRecord[]): Promise<void>;
  /**
   * A30: every item of the user's own partition (`USER#<sub>`: profile — and with it the e-mail look-up, A2 —,
   * memberships left, company-code guards, unassigned counts, holds), when their account is deleted.
   */
  deleteUserItems(userId: string): Promise<void>;
  /**
   * A31: hands the company over to `newOwner` (its META item's `owner`), only while `company.owner` still owns it
   * ('changed' otherwise, or when it is gone) and `newOwner` is an administrator member of it ('not-admin'), with the
   * company-code guard moved from the old owner to the new one in the same transaction (as A29 moves it with a code:
   * refused with CompanyCodeTaken when the new owner has another company with this code; `replacing` a stale guard).
   */
  transferCompanyOwner(
    company: CompanyRecord,
    newOwner: CompanyRecord['owner'],
    replacing?: string,
  ): Promise<'changed' | 'not-admin' | undefined>;
  /** The owner's name on a company they own (the company's copy, shown by /admin and the companies list). */
  renameCompanyOwner(companyId: string, ownerId: string, name: { name: string; surname: string }): Promise<void>;
}

/** Why DELETE /company deleted nothing (A25). */
export type CompanyDeleteFailure = 'kept' | 'gone';

/** The purge queue (SQS; local mode answers the same calls): one message per purge run of a deleted company. */
export interface PurgeQueue {
  send(message: PurgeMessage, delaySeconds?: number): Promise<void>;
}

/** One page of deletes: how many items went, and where the next page starts (null: nothing left). */
export interface PurgePage {
  deleted: number;
  next: string | null;
}

/** What the purge needs of an email record: whose it is and the raw message it names. */
export interface PurgeEmail {
  email_id: string;
  company_id: string;
  raw_key: string;
  message_id: string | null;
  content_hash: string;
  /** Every company the message was addressed to; absent on records received before it was kept. */
  to_companies?: string[];
}

/**
 * What the purge of a deleted company removes beside documents and master data (which go through their own stores'
 * deletes). Every call is idempotent: what is already gone is skipped. Cursors are opaque strings.
 */
export interface CompanyPurgeStore {
  /** Whether the company's META item is there (a consistent read): a purge never runs on a company that exists. */
  companyExists(companyId: string): Promise<boolean>;
  /** Pending uploads of the company (gsi1 `UPLOADS#<companyId>`): a page deleted; `latest_expiry` of those deleted. */
  deletePendingUploads(companyId: string, cursor: string | null, limit: number): Promise<PurgePage & { latest_expiry: string | null }>;
  /** An upload record (a consumed one a document names), unless it belongs to another company. */
  deleteUpload(uploadId: string, companyId: string): Promise<void>;
  /** What is left of a document's partition `DOC#<id>` once it and its history are deleted (export markers, anything else). */
  deleteDocumentItems(receiptId: string): Promise<void>;
  /** An email record, only when it is this company's (`company_id`); false when it was not there or not the company's. */
  deleteEmail(emailId: string, companyId: string): Promise<boolean>;
  /** An email record by id (consistent), any company's. */
  getEmail(emailId: string): Promise<PurgeEmail | undefined>;
  /** A page of the company's email records (gsi1 `COMPANY#<companyId>#EMAILS`), read, not deleted. */
  companyEmails(companyId: string, cursor: string | null, limit: number): Promise<{ items: PurgeEmail[]; next: string | null }>;
  /** Invitations of the company (gsi1 `COMPANY#<companyId>#INVITATIONS`): a page deleted. */
  deleteInvitations(companyId: string, cursor: string | null, limit: number): Promise<PurgePage>;
  /** The partition `COMPANY#<companyId>`: a page of its items deleted. */
  deleteCompanyItems(companyId: string, cursor: string | null, limit: number): Promise<PurgePage>;
}

/** The creator already has a company-code guard for this code (A8); `holder`: the company it names, if still there. */
export class CompanyCodeTaken extends Error {
  constructor(readonly holder: string | undefined) {
    super('company code guard taken');
    this.name = 'CompanyCodeTaken';
  }
}

export class CompanyLimitReached extends Error {
  constructor(readonly limit: number) {
    super(`company limit ${limit} reached`);
    this.name = 'CompanyLimitReached';
  }
}

export type LiveEventName =
  | 'receipt'
  | 'receipt-update'
  | 'receipt-delete'
  | 'company'
  | 'company-delete'
  // A member's own role in a company changed: payload {company_id, role}, on that member's own channel only
  | 'membership'
  // Master data: payload {kind: 'stakeholder' | 'category' | 'item', type?, id}
  | 'master-data';

export interface LiveEvents {
  /** Sends an event to every open connection of the company's members. */
  publish(companyId: string, event: LiveEventName, payload: unknown): Promise<void>;
  /** Sends an event to every open connection of one user (their unassigned documents). */
  publishToUser(userId: string, event: LiveEventName, payload: unknown): Promise<void>;
  /**
   * Many events at once (a bulk action's): the connections of each channel are looked up once, when the events are
   * sent, and the events go out in no particular order. Optional: without it they go one by one.
   */
  publishAll?(events: LiveEvent[]): Promise<void>;
}

/** One event of `publishAll`: to a company's members (`companyId`) or to one user's own channel (`userId`). */
export type LiveEvent = { event: LiveEventName; payload: unknown } & ({ companyId: string } | { userId: string });

export interface Clock {
  now(): Date;
}

export interface IdGenerator {
  newId(): string;
}

export const systemClock: Clock = { now: () => new Date() };

/** The identity provider's users (Cognito; local mode's stand-in answers the same calls). */
export interface IdentityDirectory {
  /** Deletes the user's sign-in (their refresh tokens end with it); a user already gone is no error. */
  deleteUser(userId: string): Promise<void>;
}
