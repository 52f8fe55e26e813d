import type { CompanyRecord } from '../accounts/types';

/** A page of all companies, newest first (access pattern A7). `next` is opaque to core. */
export interface CompaniesPage {
  items: CompanyRecord[];
  next: string | null;
}

/** What the platform admin and the company settings need from the table, besides AccountsStore. */
export interface CompanyAdminStore {
  /** A7: companies newest first; throws BadRequest for a cursor it did not issue. */
  listCompanies(limit: number, next?: string): Promise<CompaniesPage>;
  /**
   * Sets the monthly quota, with `expected` only while the quota is still that one; undefined (nothing written) when
   * the company does not exist or its quota is another one.
   */
  setAvailableDocuments(companyId: string, available: number, expected?: number): Promise<CompanyRecord | undefined>;
  /** Sets the VAT account; undefined when the company does not exist. */
  setVatAccount(companyId: string, vatAccount: string): Promise<CompanyRecord | undefined>;
  /** Sets name and code; undefined when the company does not exist. */
  setNameAndCode(companyId: string, name: string, code: string): Promise<CompanyRecord | undefined>;
  /**
   * Resets a month's usage: used and duplicated documents to 0, `quota_taken` to the reservations still
   * held, in one atomic update (reservations and their later release or use stay consistent).
   */
  resetMonthUsage(companyId: string, month: string): Promise<void>;
}
