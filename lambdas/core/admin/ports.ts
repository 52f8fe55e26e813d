import type { CompanyRecord, UsageRecord } from '../accounts/types';

/** A page of all companies, newest first (access pattern A7). `next` is opaque to core. */
export interface CompaniesPage {
  items: CompanyRecord[];
  next: string | null;
}

/** What the platform admin and the company settings need from the table, besides AccountsStore. */
export interface CompanyAdminStore {
  /**
   * A7: companies newest first; throws BadRequest for a cursor it did not issue. `createdBefore` (an ISO instant):
   * only the companies created before it.
   */
  listCompanies(limit: number, next?: string, createdBefore?: string): Promise<CompaniesPage>;
  /**
   * Sets the monthly quota, with `expected` only while the quota is still that one; undefined (nothing written) when
   * the company does not exist or its quota is another one. The same write records it as the quota of `month` (the
   * current one) on that month's usage item, creating the item when the month has none.
   */
  setAvailableDocuments(companyId: string, available: number, expected: number | undefined, month: string): Promise<CompanyRecord | undefined>;
  /** Sets the VAT account; undefined when the company does not exist. */
  setVatAccount(companyId: string, vatAccount: string): Promise<CompanyRecord | undefined>;
  /** Sets the senders Email-in takes mail from (empty: anyone); undefined when the company does not exist. */
  setEmailInSenders(companyId: string, senders: string[]): Promise<CompanyRecord | undefined>;
  /**
   * Sets name and code of `current` (as just read) only while its code is still `current.code` (undefined, nothing
   * written, when the company is gone or its code changed meanwhile). A code with another `companyCodeKey` moves the
   * creator's company-code guard in the same transaction (A29): the new code's guard is put while there is none, it
   * names this company or, with `replacing`, that company (else CompanyCodeTaken with the company it names); the old
   * code's guard is deleted while it names this company.
   */
  setNameAndCode(
    current: Pick<CompanyRecord, 'company_id' | 'code' | 'owner' | 'created_at'>,
    name: string,
    code: string,
    replacing?: string,
  ): Promise<CompanyRecord | undefined>;
  /**
   * Resets a month's usage: used and duplicated documents to 0, `quota_taken` to the reservations still
   * held, in one atomic update (reservations and their later release or use stay consistent).
   */
  resetMonthUsage(companyId: string, month: string): Promise<void>;
  /**
   * P7: the company's usage of the months `from` to `to` (`YYYY-MM`, both included), by month, each with its recorded
   * quota when it has one; months without an item are absent.
   */
  listMonthUsage(companyId: string, from: string, to: string): Promise<Map<string, UsageRecord>>;
}
