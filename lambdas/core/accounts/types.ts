import type { CompanyRole, StatusCounts } from '../../../shared/schemas';
import type { IntegrationFlag } from '../../../shared/schemas/company';

export type ReceiptType = 'receipt' | 'invoice';

export interface ProfileRecord {
  id: string;
  email: string;
  name: string;
  surname: string;
  phone: string;
  address: string;
  city: string;
  country: string;
  post_code: string;
  is_admin: boolean;
  created_at: string;
  last_login: string | null;
}

export interface CompanyRecord {
  company_id: string;
  name: string;
  code: string;
  unique_name: string;
  email: string;
  created_at: string;
  owner: { user_id: string; name: string; surname: string; email: string };
  available_documents: number;
  vat_account: string;
  integrations: Record<IntegrationFlag, boolean>;
  google_selected_import_folder_name: string | null;
  dropbox_selected_import_folder_name: string | null;
  /** Email-in takes mail from these senders only; absent or empty: from anyone (shared/schemas/company.ts). */
  email_in_senders?: string[];
}

export interface MembershipRecord {
  user_id: string;
  company_id: string;
  role: CompanyRole;
  joined_at: string;
}

export interface UsageRecord {
  used_documents: number;
  duplicated_documents: number;
  /**
   * The quota the month was counted against, as recorded on its usage item by the reservations and the admin's
   * quota changes; absent for a month without one (items written before it was kept, a month without uploads).
   */
  available_documents?: number;
}

export type CountsByType = Record<ReceiptType, StatusCounts>;
