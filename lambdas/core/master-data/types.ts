/** Stored shapes of master data (what the store keeps; the API views are in shared/schemas/master-data.ts). */
import type { StakeholderDateFormat, StakeholderType } from '../../../shared/schemas/master-data';

interface Versioned {
  company_id: string;
  /** Imported from an integration (shown as DB); `external_ref` is the record's id there. */
  external: boolean;
  external_ref?: string;
  created_at: string;
  updated_at: string;
  /** Starts at 1; every update is conditioned on it. */
  version: number;
}

export interface StakeholderRecord extends Versioned {
  id: string;
  type: StakeholderType;
  name: string;
  code: string;
  vat_id: string;
  street: string;
  city: string;
  zipcode: string;
  country: string;
  email: string;
  delivery: string;
  category_id: string | null;
  selected_date_format: StakeholderDateFormat | null;
  recognise_details: boolean;
}

export interface CategoryRecord extends Versioned {
  id: string;
  name: string;
  category_code: string;
}

export interface ItemRecord extends Versioned {
  /** The folded name (see nameKey): the item's identity within the company. */
  name_id: string;
  name: string;
  words: string[];
}

/** Which records a list shows: every record, only the product's own, or only imported ones (DB). */
export type RecordSource = 'all' | 'own' | 'external';

export interface ListRequest {
  companyId: string;
  /** Words the name must contain a word starting with (case and diacritics ignored); empty lists everything. */
  search?: string;
  source: RecordSource;
  limit: number;
  /** Opaque cursor of the previous page of the same company. */
  cursor?: string;
}

export interface Page<T> {
  items: T[];
  cursor: string | null;
}
