/**
 * An in-memory MasterDataStore for unit tests of master-data rules: the port's uniqueness (code and name key
 * per company and type; a category's name and non-empty code; an item's name_id) and version conditions.
 */
import type { StakeholderType } from '../../shared/schemas/master-data';
import { identifierKey, matchNameKey, nameKey, searchWords } from '../../lambdas/core/master-data/keys';
import { DuplicateKeyError, type MasterDataStore } from '../../lambdas/core/master-data/ports';
import type { CategoryRecord, ItemRecord, ListRequest, Page, StakeholderRecord } from '../../lambdas/core/master-data/types';

class StaleWrite extends Error {
  constructor() {
    super('The conditional request failed');
    this.name = 'ConditionalCheckFailedException';
  }
}

const byName = <T extends { name: string }>(a: T, b: T) => nameKey(a.name).localeCompare(nameKey(b.name)) || a.name.localeCompare(b.name);

function page<T extends { name: string; company_id: string; external: boolean }>(all: T[], request: ListRequest): Page<T> {
  const words = request.search ? searchWords(request.search) : [];
  const rows = all
    .filter((r) => r.company_id === request.companyId)
    .filter((r) => request.source === 'all' || (request.source === 'external') === r.external)
    .filter((r) => words.every((w) => searchWords(r.name).some((n) => n.startsWith(w))))
    .sort(byName);
  const start = request.cursor ? Number(request.cursor) : 0;
  const items = rows.slice(start, start + request.limit);
  return { items, cursor: start + request.limit < rows.length ? String(start + request.limit) : null };
}

export class FakeMasterDataStore implements MasterDataStore {
  readonly stakeholders = new Map<string, StakeholderRecord>();
  readonly categories = new Map<string, CategoryRecord>();
  readonly items = new Map<string, ItemRecord>();
  /** Writes done (puts and deletes), for tests that count them. */
  writes = 0;
  /** When set, called before every write (tests inject failures with it). */
  beforeWrite?: () => void;

  private write() {
    this.beforeWrite?.();
    this.writes += 1;
  }

  private checkVersion<T extends { version: number }>(stored: T | undefined, previous: T | undefined) {
    if (previous ? stored?.version !== previous.version : stored !== undefined) throw new StaleWrite();
  }

  async putStakeholder(next: StakeholderRecord, previous?: StakeholderRecord) {
    this.write();
    const id = `${next.company_id}/${next.id}`;
    this.checkVersion(this.stakeholders.get(id), previous);
    for (const other of this.stakeholders.values()) {
      if (other.company_id !== next.company_id || other.type !== next.type || other.id === next.id) continue;
      if (identifierKey(other.code) === identifierKey(next.code)) throw new DuplicateKeyError('code');
      if (nameKey(other.name) === nameKey(next.name)) throw new DuplicateKeyError('name');
    }
    this.stakeholders.set(id, structuredClone(next));
  }

  async deleteStakeholder(record: StakeholderRecord) {
    this.write();
    const id = `${record.company_id}/${record.id}`;
    this.checkVersion(this.stakeholders.get(id), record);
    this.stakeholders.delete(id);
  }

  async getStakeholder(companyId: string, id: string) {
    const found = this.stakeholders.get(`${companyId}/${id}`);
    return found && structuredClone(found);
  }

  async listStakeholders(request: ListRequest & { type?: StakeholderType }) {
    return page(
      [...this.stakeholders.values()].filter((s) => !request.type || s.type === request.type).map((s) => structuredClone(s)),
      request,
    );
  }

  async findStakeholder(companyId: string, type: StakeholderType, by: 'vat' | 'code' | 'name' | 'match_name', value: string) {
    const key = (s: StakeholderRecord) =>
      by === 'vat' ? identifierKey(s.vat_id) : by === 'code' ? identifierKey(s.code) : by === 'name' ? nameKey(s.name) : matchNameKey(s.name);
    const wanted = by === 'vat' || by === 'code' ? identifierKey(value) : by === 'name' ? nameKey(value) : matchNameKey(value);
    if (!wanted) return undefined;
    const hits = [...this.stakeholders.values()]
      .filter((s) => s.company_id === companyId && s.type === type && key(s) === wanted)
      .sort((a, b) => a.created_at.localeCompare(b.created_at));
    return hits[0] && structuredClone(hits[0]);
  }

  async putCategory(next: CategoryRecord, previous?: CategoryRecord) {
    this.write();
    const id = `${next.company_id}/${next.id}`;
    this.checkVersion(this.categories.get(id), previous);
    for (const other of this.categories.values()) {
      if (other.company_id !== next.company_id || other.id === next.id) continue;
      if (nameKey(other.name) === nameKey(next.name)) throw new DuplicateKeyError('name');
      if (next.category_code && identifierKey(other.category_code) === identifierKey(next.category_code)) throw new DuplicateKeyError('code');
    }
    this.categories.set(id, structuredClone(next));
  }

  async deleteCategory(record: CategoryRecord) {
    this.write();
    this.categories.delete(`${record.company_id}/${record.id}`);
  }

  async getCategory(companyId: string, id: string) {
    const found = this.categories.get(`${companyId}/${id}`);
    return found && structuredClone(found);
  }

  async getCategories(companyId: string, ids: string[]) {
    return ids.flatMap((id) => {
      const found = this.categories.get(`${companyId}/${id}`);
      return found ? [structuredClone(found)] : [];
    });
  }

  async listCategories(request: ListRequest) {
    return page([...this.categories.values()].map((c) => structuredClone(c)), request);
  }

  async findCategory(companyId: string, by: 'code' | 'name', value: string) {
    const wanted = by === 'code' ? identifierKey(value) : nameKey(value);
    if (!wanted) return undefined;
    const found = [...this.categories.values()].find(
      (c) => c.company_id === companyId && (by === 'code' ? identifierKey(c.category_code) : nameKey(c.name)) === wanted,
    );
    return found && structuredClone(found);
  }

  async putItem(next: ItemRecord, previous?: ItemRecord) {
    this.write();
    const id = `${next.company_id}/${next.name_id}`;
    const stored = this.items.get(id);
    if (!previous && stored) throw new DuplicateKeyError('name');
    this.checkVersion(stored, previous);
    this.items.set(id, structuredClone(next));
  }

  async deleteItem(record: ItemRecord) {
    this.write();
    this.items.delete(`${record.company_id}/${record.name_id}`);
  }

  async getItem(companyId: string, nameId: string) {
    const found = this.items.get(`${companyId}/${nameId}`);
    return found && structuredClone(found);
  }

  async listItems(request: ListRequest) {
    return page([...this.items.values()].map((i) => structuredClone(i)), request);
  }

  async findItemsByWords(companyId: string, words: string[], limit: number) {
    const wanted = new Set(words.map(nameKey));
    return [...this.items.values()]
      .filter((i) => i.company_id === companyId && i.words.some((w) => wanted.has(nameKey(w))))
      .slice(0, limit)
      .map((i) => structuredClone(i));
  }
}
