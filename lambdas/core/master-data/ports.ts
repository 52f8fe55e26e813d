/**
 * What master-data rules need from storage. The DynamoDB adapter (lambdas/adapters/ddb/master-data-store.ts)
 * implements it; unit tests may pass an in-memory fake.
 *
 * Uniqueness (per company and type): a stakeholder's code and its name key, a category's name key
 * (and its code when not empty), an item's name_id. A write that would break it rejects with
 * DuplicateKeyError naming the field; the check is part of the write's own transaction.
 * Updates and deletes are conditioned on the `version` of `previous` (stale → ConditionalCheckFailed → 409).
 */
import type { StakeholderType } from '../../../shared/schemas/master-data';
import type { CategoryRecord, ItemRecord, ListRequest, Page, StakeholderRecord } from './types';

export class DuplicateKeyError extends Error {
  constructor(readonly field: 'name' | 'code') {
    super(`duplicate ${field}`);
    this.name = 'DuplicateKeyError';
  }
}

export interface MasterDataStore {
  // ---- stakeholders
  /** Creates (no previous) or replaces (previous = the stored record the change was made from). */
  putStakeholder(next: StakeholderRecord, previous?: StakeholderRecord): Promise<void>;
  deleteStakeholder(record: StakeholderRecord): Promise<void>;
  getStakeholder(companyId: string, id: string): Promise<StakeholderRecord | undefined>;
  /** Sorted by name, case-insensitively; `type` undefined lists both types. */
  listStakeholders(request: ListRequest & { type?: StakeholderType }): Promise<Page<StakeholderRecord>>;
  /**
   * Exact look-ups used by matching and imports. `vat` and `code` compare compacted identifiers
   * (upper case, no spaces or punctuation), `name` the name key (nameKey). Several hits: the oldest wins.
   */
  findStakeholder(companyId: string, type: StakeholderType, by: 'vat' | 'code' | 'name', value: string): Promise<StakeholderRecord | undefined>;
  /**
   * The stakeholders whose recognition names equal this name's (`match_name`: the normalised company name, legal
   * forms dropped), oldest first, at most `limit`.
   */
  sameNameStakeholders(companyId: string, type: StakeholderType, name: string, limit: number): Promise<StakeholderRecord[]>;
  /** The stakeholders with this VAT ID (compacted, as `findStakeholder` compares it), oldest first, at most `limit`. */
  sameVatStakeholders(companyId: string, type: StakeholderType, vatId: string, limit: number): Promise<StakeholderRecord[]>;

  // ---- categories
  putCategory(next: CategoryRecord, previous?: CategoryRecord): Promise<void>;
  deleteCategory(record: CategoryRecord): Promise<void>;
  getCategory(companyId: string, id: string): Promise<CategoryRecord | undefined>;
  getCategories(companyId: string, ids: string[]): Promise<CategoryRecord[]>;
  listCategories(request: ListRequest): Promise<Page<CategoryRecord>>;
  findCategory(companyId: string, by: 'code' | 'name', value: string): Promise<CategoryRecord | undefined>;

  // ---- items
  putItem(next: ItemRecord, previous?: ItemRecord): Promise<void>;
  deleteItem(record: ItemRecord): Promise<void>;
  getItem(companyId: string, nameId: string): Promise<ItemRecord | undefined>;
  listItems(request: ListRequest): Promise<Page<ItemRecord>>;
  /** Items having any of these words (folded), for matching line items; at most `limit` items. */
  findItemsByWords(companyId: string, words: string[], limit: number): Promise<ItemRecord[]>;
}
