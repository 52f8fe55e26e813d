/**
 * An in-memory MasterDataStore for unit tests of rules that use master data (matching, confirm, type change).
 * Same comparisons as the port describes (keys.ts); counts every call so tests can check look-ups stay bounded.
 */
import type { StakeholderType } from '../../shared/schemas/master-data';
import { identifierKey, matchNameKey, nameKey, searchWords } from '../../lambdas/core/master-data/keys';
import { DuplicateKeyError, type MasterDataStore } from '../../lambdas/core/master-data/ports';
import type { CategoryRecord, ItemRecord, ListRequest, Page, StakeholderRecord } from '../../lambdas/core/master-data/types';

const byName = <T extends { name: string }>(a: T, b: T) => nameKey(a.name).localeCompare(nameKey(b.name));

function page<T extends { name: string }>(all: T[], req: ListRequest): Page<T> {
  const words = req.search ? searchWords(req.search) : [];
  const hits = all
    .filter((r) => words.every((w) => searchWords(r.name).some((x) => x.startsWith(w))))
    .filter((r) => req.source === 'all' || (req.source === 'external') === Boolean((r as { external?: boolean }).external))
    .sort(byName);
  const start = req.cursor ? Number(req.cursor) : 0;
  const items = hits.slice(start, start + req.limit);
  return { items, cursor: start + req.limit < hits.length ? String(start + req.limit) : null };
}

export class FakeMasterDataStore implements MasterDataStore {
  stakeholders = new Map<string, StakeholderRecord>();
  categories = new Map<string, CategoryRecord>();
  items = new Map<string, ItemRecord>();
  /** Calls per method name. */
  calls: Record<string, number> = {};

  private count(name: string) {
    this.calls[name] = (this.calls[name] ?? 0) + 1;
  }
  totalCalls(): number {
    return Object.values(this.calls).reduce((s, n) => s + n, 0);
  }

  async putStakeholder(next: StakeholderRecord): Promise<void> {
    this.count('putStakeholder');
    for (const s of this.stakeholders.values()) {
      if (s.id === next.id || s.company_id !== next.company_id || s.type !== next.type) continue;
      if (identifierKey(s.code) === identifierKey(next.code)) throw new DuplicateKeyError('code');
      if (nameKey(s.name) === nameKey(next.name)) throw new DuplicateKeyError('name');
    }
    this.stakeholders.set(next.id, structuredClone(next));
  }
  async deleteStakeholder(record: StakeholderRecord): Promise<void> {
    this.count('deleteStakeholder');
    this.stakeholders.delete(record.id);
  }
  async getStakeholder(companyId: string, id: string) {
    this.count('getStakeholder');
    const s = this.stakeholders.get(id);
    return s && s.company_id === companyId ? structuredClone(s) : undefined;
  }
  async listStakeholders(req: ListRequest & { type?: StakeholderType }) {
    this.count('listStakeholders');
    return page([...this.stakeholders.values()].filter((s) => s.company_id === req.companyId && (!req.type || s.type === req.type)), req);
  }
  async findStakeholder(companyId: string, type: StakeholderType, by: 'vat' | 'code' | 'name' | 'match_name', value: string) {
    this.count('findStakeholder');
    const key = (s: StakeholderRecord) =>
      by === 'vat' ? identifierKey(s.vat_id) : by === 'code' ? identifierKey(s.code) : by === 'name' ? nameKey(s.name) : matchNameKey(s.name);
    const want = by === 'vat' || by === 'code' ? identifierKey(value) : by === 'name' ? nameKey(value) : matchNameKey(value);
    if (!want) return undefined;
    const hits = [...this.stakeholders.values()]
      .filter((s) => s.company_id === companyId && s.type === type && key(s) === want)
      .sort((a, b) => a.created_at.localeCompare(b.created_at));
    return hits[0] ? structuredClone(hits[0]) : undefined;
  }

  async putCategory(next: CategoryRecord): Promise<void> {
    this.count('putCategory');
    for (const c of this.categories.values()) {
      if (c.id !== next.id && c.company_id === next.company_id && nameKey(c.name) === nameKey(next.name)) throw new DuplicateKeyError('name');
    }
    this.categories.set(next.id, structuredClone(next));
  }
  async deleteCategory(record: CategoryRecord): Promise<void> {
    this.count('deleteCategory');
    this.categories.delete(record.id);
  }
  async getCategory(companyId: string, id: string) {
    this.count('getCategory');
    const c = this.categories.get(id);
    return c && c.company_id === companyId ? structuredClone(c) : undefined;
  }
  async getCategories(companyId: string, ids: string[]) {
    this.count('getCategories');
    return ids.map((id) => this.categories.get(id)).filter((c): c is CategoryRecord => !!c && c.company_id === companyId);
  }
  async listCategories(req: ListRequest) {
    this.count('listCategories');
    return page([...this.categories.values()].filter((c) => c.company_id === req.companyId), req);
  }
  async findCategory(companyId: string, by: 'code' | 'name', value: string) {
    this.count('findCategory');
    return [...this.categories.values()].find(
      (c) => c.company_id === companyId && (by === 'code' ? c.category_code !== '' && identifierKey(c.category_code) === identifierKey(value) : nameKey(c.name) === nameKey(value)),
    );
  }

  async putItem(next: ItemRecord): Promise<void> {
    this.count('putItem');
    this.items.set(`${next.company_id}#${next.name_id}`, structuredClone(next));
  }
  async deleteItem(record: ItemRecord): Promise<void> {
    this.count('deleteItem');
    this.items.delete(`${record.company_id}#${record.name_id}`);
  }
  async getItem(companyId: string, nameId: string) {
    this.count('getItem');
    return this.items.get(`${companyId}#${nameId}`);
  }
  async listItems(req: ListRequest) {
    this.count('listItems');
    return page([...this.items.values()].filter((i) => i.company_id === req.companyId), req);
  }
  async findItemsByWords(companyId: string, words: string[], limit: number) {
    this.count('findItemsByWords');
    const wanted = new Set(words.map(nameKey));
    return [...this.items.values()]
      .filter((i) => i.company_id === companyId && i.words.some((w) => wanted.has(nameKey(w)) || searchWords(w).some((x) => wanted.has(x))))
      .slice(0, limit);
  }
}

const NOW = '2026-01-01T00:00:00.000Z';

export function stakeholderRecord(companyId: string, partial: Partial<StakeholderRecord> & { id: string; name: string }): StakeholderRecord {
  return {
    company_id: companyId,
    type: 'supplier',
    code: '',
    vat_id: '',
    street: '',
    city: '',
    zipcode: '',
    country: '',
    email: '',
    delivery: '',
    category_id: null,
    selected_date_format: null,
    recognise_details: false,
    external: false,
    created_at: NOW,
    updated_at: NOW,
    version: 1,
    ...partial,
  };
}

export function categoryRecord(companyId: string, partial: Partial<CategoryRecord> & { id: string; name: string }): CategoryRecord {
  return { company_id: companyId, category_code: '', external: false, created_at: NOW, updated_at: NOW, version: 1, ...partial };
}

export function itemRecord(companyId: string, name: string, words: string[]): ItemRecord {
  return { company_id: companyId, name_id: nameKey(name), name, words, external: false, created_at: NOW, updated_at: NOW, version: 1 };
}
