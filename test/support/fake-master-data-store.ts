/**
 * In-memory MasterDataStore for core unit tests: the port's contract (uniqueness per company and type,
 * version checks, lists sorted by folded name, word search, look-ups) without DynamoDB.
 * `writes` counts the write calls, so tests can tell that nothing was stored.
 */
import { badRequest } from '../../shared/errors';
import type { StakeholderType } from '../../shared/schemas/master-data';
import { identifierKey, matchNameKey, nameKey, nameSearchWords as searchWords } from '../../lambdas/core/master-data/keys';
import { DuplicateKeyError, type MasterDataStore } from '../../lambdas/core/master-data/ports';
import type { CategoryRecord, ItemRecord, ListRequest, Page, StakeholderRecord } from '../../lambdas/core/master-data/types';

type AnyRecord = StakeholderRecord | CategoryRecord | ItemRecord;

class StaleVersion extends Error {
  constructor() {
    super('The conditional request failed');
    this.name = 'ConditionalCheckFailedException';
  }
}

const codeKey = (code: string) => identifierKey(code) || nameKey(code);
const idOf = (r: AnyRecord) => ('name_id' in r ? r.name_id : r.id);
const sortKeyOf = (r: AnyRecord) => `${nameKey(r.name)}#${idOf(r)}`;

function matches(r: AnyRecord, search: string | undefined): boolean {
  const wanted = searchWords(search ?? '');
  const have = searchWords(r.name);
  return wanted.every((w) => have.some((h) => h.startsWith(w)));
}

function page<T extends AnyRecord>(all: T[], request: ListRequest): Page<T> {
  const source = request.source;
  const rows = all
    .filter((r) => r.company_id === request.companyId)
    .filter((r) => source === 'all' || (source === 'external') === r.external)
    .filter((r) => matches(r, request.search))
    .sort((a, b) => (sortKeyOf(a) < sortKeyOf(b) ? -1 : sortKeyOf(a) > sortKeyOf(b) ? 1 : 0));
  let start = 0;
  if (request.cursor) {
    let after: string;
    try {
      after = JSON.parse(Buffer.from(request.cursor, 'base64url').toString('utf8')).a;
    } catch {
      throw badRequest('Invalid next cursor');
    }
    if (typeof after !== 'string') throw badRequest('Invalid next cursor');
    start = rows.findIndex((r) => sortKeyOf(r) > after);
    if (start < 0) start = rows.length;
  }
  const items = rows.slice(start, start + request.limit);
  const more = start + request.limit < rows.length;
  return { items: structuredClone(items), cursor: more ? Buffer.from(JSON.stringify({ a: sortKeyOf(items[items.length - 1]!) })).toString('base64url') : null };
}

export class FakeMasterDataStore implements MasterDataStore {
  stakeholders = new Map<string, StakeholderRecord>();
  categories = new Map<string, CategoryRecord>();
  items = new Map<string, ItemRecord>();
  writes = 0;

  private checkVersion(stored: AnyRecord | undefined, previous: AnyRecord | undefined) {
    if (previous && (!stored || stored.version !== previous.version)) throw new StaleVersion();
  }

  async putStakeholder(next: StakeholderRecord, previous?: StakeholderRecord) {
    this.writes += 1;
    const key = `${next.company_id}|${next.id}`;
    this.checkVersion(this.stakeholders.get(key), previous);
    if (!previous && this.stakeholders.has(key)) throw new StaleVersion();
    for (const other of this.stakeholders.values()) {
      if (other.id === next.id || other.company_id !== next.company_id || other.type !== next.type) continue;
      if (nameKey(other.name) === nameKey(next.name)) throw new DuplicateKeyError('name');
      if (next.code && other.code && codeKey(other.code) === codeKey(next.code)) throw new DuplicateKeyError('code');
    }
    this.stakeholders.set(key, structuredClone(next));
  }
  async deleteStakeholder(record: StakeholderRecord) {
    this.writes += 1;
    const key = `${record.company_id}|${record.id}`;
    this.checkVersion(this.stakeholders.get(key), record);
    this.stakeholders.delete(key);
  }
  async getStakeholder(companyId: string, id: string) {
    const r = this.stakeholders.get(`${companyId}|${id}`);
    return r ? structuredClone(r) : undefined;
  }
  async listStakeholders(request: ListRequest & { type?: StakeholderType }) {
    return page([...this.stakeholders.values()].filter((r) => !request.type || r.type === request.type), request);
  }
  async findStakeholder(companyId: string, type: StakeholderType, by: 'vat' | 'code' | 'name', value: string) {
    const key = (r: StakeholderRecord) => (by === 'vat' ? identifierKey(r.vat_id) : by === 'code' ? codeKey(r.code) : nameKey(r.name));
    const wanted = by === 'vat' ? identifierKey(value) : by === 'code' ? codeKey(value) : nameKey(value);
    if (!wanted) return undefined;
    const hits = [...this.stakeholders.values()]
      .filter((r) => r.company_id === companyId && r.type === type && key(r) === wanted)
      .sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
    return hits[0] ? structuredClone(hits[0]) : undefined;
  }
  async sameNameStakeholders(companyId: string, type: StakeholderType, name: string, limit: number) {
    const wanted = matchNameKey(name);
    if (!wanted) return [];
    return [...this.stakeholders.values()]
      .filter((r) => r.company_id === companyId && r.type === type && matchNameKey(r.name) === wanted)
      .sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0))
      .slice(0, limit)
      .map((r) => structuredClone(r));
  }

  async sameVatStakeholders(companyId: string, type: StakeholderType, vatId: string, limit: number) {
    const wanted = identifierKey(vatId);
    if (!wanted) return [];
    return [...this.stakeholders.values()]
      .filter((r) => r.company_id === companyId && r.type === type && identifierKey(r.vat_id) === wanted)
      .sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0))
      .slice(0, limit)
      .map((r) => structuredClone(r));
  }

  async putCategory(next: CategoryRecord, previous?: CategoryRecord) {
    this.writes += 1;
    const key = `${next.company_id}|${next.id}`;
    this.checkVersion(this.categories.get(key), previous);
    for (const other of this.categories.values()) {
      if (other.id === next.id || other.company_id !== next.company_id) continue;
      if (nameKey(other.name) === nameKey(next.name)) throw new DuplicateKeyError('name');
      if (next.category_code && other.category_code && codeKey(other.category_code) === codeKey(next.category_code)) throw new DuplicateKeyError('code');
    }
    this.categories.set(key, structuredClone(next));
  }
  async deleteCategory(record: CategoryRecord) {
    this.writes += 1;
    const key = `${record.company_id}|${record.id}`;
    this.checkVersion(this.categories.get(key), record);
    this.categories.delete(key);
  }
  async getCategory(companyId: string, id: string) {
    const r = this.categories.get(`${companyId}|${id}`);
    return r ? structuredClone(r) : undefined;
  }
  async getCategories(companyId: string, ids: string[]) {
    return [...new Set(ids)].flatMap((id) => {
      const r = this.categories.get(`${companyId}|${id}`);
      return r ? [structuredClone(r)] : [];
    });
  }
  async listCategories(request: ListRequest) {
    return page([...this.categories.values()], request);
  }
  async findCategory(companyId: string, by: 'code' | 'name', value: string) {
    const wanted = by === 'code' ? codeKey(value) : nameKey(value);
    if (!wanted) return undefined;
    const hit = [...this.categories.values()].find(
      (r) => r.company_id === companyId && (by === 'code' ? r.category_code !== '' && codeKey(r.category_code) === wanted : nameKey(r.name) === wanted),
    );
    return hit ? structuredClone(hit) : undefined;
  }

  async putItem(next: ItemRecord, previous?: ItemRecord) {
    this.writes += 1;
    const key = `${next.company_id}|${next.name_id}`;
    if (previous) this.checkVersion(this.items.get(`${previous.company_id}|${previous.name_id}`), previous);
    if (this.items.has(key) && (!previous || previous.name_id !== next.name_id)) throw new DuplicateKeyError('name');
    if (previous) this.items.delete(`${previous.company_id}|${previous.name_id}`);
    this.items.set(key, structuredClone(next));
  }
  async deleteItem(record: ItemRecord) {
    this.writes += 1;
    const key = `${record.company_id}|${record.name_id}`;
    this.checkVersion(this.items.get(key), record);
    this.items.delete(key);
  }
  async getItem(companyId: string, nameId: string) {
    const r = this.items.get(`${companyId}|${nameId}`);
    return r ? structuredClone(r) : undefined;
  }
  async listItems(request: ListRequest) {
    return page([...this.items.values()], { ...request, source: 'all' });
  }
  async findItemsByWords(companyId: string, words: string[], limit: number) {
    const wanted = new Set(words.map(nameKey).filter(Boolean));
    return [...this.items.values()]
      .filter((r) => r.company_id === companyId && r.words.some((w) => wanted.has(nameKey(w))))
      .slice(0, limit)
      .map((r) => structuredClone(r));
  }
}
