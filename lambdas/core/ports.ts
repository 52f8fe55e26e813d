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

export interface AccountsStore {
  getProfile(userId: string): Promise<ProfileRecord | undefined>;
  getProfiles(userIds: string[]): Promise<ProfileRecord[]>;
  updateProfile(userId: string, changes: Partial<ProfileRecord>): Promise<ProfileRecord>;
  getMembership(userId: string, companyId: string): Promise<MembershipRecord | undefined>;
  listMembershipsOfUser(userId: string): Promise<MembershipRecord[]>;
  listMembersOfCompany(companyId: string): Promise<MembershipRecord[]>;
  getCompanies(companyIds: string[]): Promise<CompanyRecord[]>;
  getCompanyStats(companyIds: string[], month: string): Promise<Map<string, { counts: CountsByType; usage: UsageRecord }>>;
  /** Writes profile, company, admin membership and email-in claim in one transaction; false if the profile exists. */
  provisionUser(profile: ProfileRecord, company: CompanyRecord): Promise<boolean>;
  /**
   * Writes company, admin membership and email-in claim in one transaction, with the creator's count of
   * created companies (`companies_created` on the profile) raised in it only while below `maxCreated`;
   * at the limit it rejects with CompanyLimitReached.
   */
  createCompany(company: CompanyRecord, membership: MembershipRecord, maxCreated: number): Promise<void>;
  deleteCompany(company: CompanyRecord, members: MembershipRecord[]): Promise<void>;
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
}

export interface Clock {
  now(): Date;
}

export interface IdGenerator {
  newId(): string;
}

export const systemClock: Clock = { now: () => new Date() };
