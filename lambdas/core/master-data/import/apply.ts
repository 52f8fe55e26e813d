/**
 * Applying validated import rows to the company's master data: insert or update by code (suppliers,
 * customers; categories by code, or by name when the row has no code) and by name (items). Uniqueness is
 * the store's (DuplicateKeyError from the write's own transaction). A row whose values the record already holds
 * changes nothing and counts as unchanged (a file imported again reports what it changed, not every row). Applying
 * a row twice changes nothing the second time: it finds the record it wrote, so a retried import never creates twice
 * (a chunk retried after a crash counts the rows its first attempt wrote as unchanged). A create that loses a uniqueness race (two imports of one file at the same moment) looks
 * its code up again and is applied as an update of the record that won; a name held by a record of another code
 * stays a rejected row.
 */
import type { Clock, IdGenerator } from '../../ports';
import { codeKey, nameKey } from '../keys';
import { DuplicateKeyError, type MasterDataStore } from '../ports';
import type { CategoryRecord, ItemRecord, StakeholderRecord } from '../types';
import type { ImportType } from '../../../../shared/schemas/master-data';
import { reasonText, type ParsedRow, type RejectedRow, type StakeholderRowInput } from './rows';

export interface ApplyDeps {
  masterData: MasterDataStore;
  clock: Clock;
  ids: IdGenerator;
}

export type RowOutcome = { row: number; outcome: 'created' | 'updated' | 'unchanged' } | ({ outcome: 'rejected' } & RejectedRow);

/** A stale write (the record changed between read and write) is retried this many times. */
const WRITE_ATTEMPTS = 3;

const DUPLICATE: Record<ImportType, string> = {
  suppliers: 'This supplier already exists',
  customers: 'This customer already exists',
  categories: 'This category already exists',
  items: 'This item already exists',
};

function isStaleWrite(error: unknown): boolean {
  const name = (error as { name?: string })?.name;
  return name === 'ConditionalCheckFailedException' || name === 'TransactionCanceledException';
}

function duplicateReason(type: ImportType, error: DuplicateKeyError): string {
  return `${error.field === 'code' ? 'Code' : 'Name'}: ${DUPLICATE[type]}`;
}

/** Category cells of supplier/customer rows, resolved once per import: by code first, then by name. */
export class CategoryResolver {
  private readonly cache = new Map<string, Promise<CategoryRecord | undefined>>();
  constructor(
    private readonly store: MasterDataStore,
    private readonly companyId: string,
  ) {}

  resolve(text: string): Promise<CategoryRecord | undefined> {
    const key = nameKey(text);
    let found = this.cache.get(key);
    if (!found) {
      found = (async () =>
        (await this.store.findCategory(this.companyId, 'code', text)) ?? (await this.store.findCategory(this.companyId, 'name', text)))();
      this.cache.set(key, found);
    }
    return found;
  }
}

const STAKEHOLDER_FIELDS = [
  'name',
  'code',
  'vat_id',
  'street',
  'city',
  'zipcode',
  'country',
  'email',
  'delivery',
  'selected_date_format',
  'recognise_details',
] as const;

/** The record with the row's fields; `changed` false when the row says nothing new. */
function mergeStakeholder(existing: StakeholderRecord, input: StakeholderRowInput, categoryId: string | undefined) {
  const next: StakeholderRecord = { ...existing };
  let changed = false;
  for (const field of STAKEHOLDER_FIELDS) {
    const value = input[field];
    if (value === undefined || next[field] === value) continue;
    (next as unknown as Record<string, unknown>)[field] = value;
    changed = true;
  }
  if (categoryId !== undefined && next.category_id !== categoryId) {
    next.category_id = categoryId;
    changed = true;
  }
  return { next, changed };
}

async function applyStakeholder(
  deps: ApplyDeps,
  companyId: string,
  type: 'suppliers' | 'customers',
  row: number,
  input: StakeholderRowInput,
  category: string,
  categories: CategoryResolver,
): Promise<RowOutcome> {
  const stakeholderType = type === 'suppliers' ? 'supplier' : 'customer';
  let categoryId: string | undefined;
  if (category !== '') {
    const found = await categories.resolve(category);
    if (!found) return { outcome: 'rejected', row, reason: reasonText(`Category: no category "${category}" in this company`) };
    categoryId = found.id;
  }
  let lost: DuplicateKeyError | undefined;
  for (let attempt = 1; ; attempt++) {
    const existing = await deps.masterData.findStakeholder(companyId, stakeholderType, 'code', input.code);
    // A create that lost to another writer is an update of the record of its code; without one, the clash is real.
    if (lost && !existing) return { outcome: 'rejected', row, reason: duplicateReason(type, lost) };
    const now = deps.clock.now().toISOString();
    try {
      if (existing) {
        const { next, changed } = mergeStakeholder(existing, input, categoryId);
        if (!changed) return { outcome: 'unchanged', row };
        await deps.masterData.putStakeholder({ ...next, updated_at: now, version: existing.version + 1 }, existing);
        return { outcome: 'updated', row };
      }
      const record: StakeholderRecord = {
        id: deps.ids.newId(),
        type: stakeholderType,
        name: input.name,
        code: input.code,
        vat_id: input.vat_id ?? '',
        street: input.street ?? '',
        city: input.city ?? '',
        zipcode: input.zipcode ?? '',
        country: input.country ?? '',
        email: input.email ?? '',
        delivery: input.delivery ?? '',
        category_id: categoryId ?? null,
        selected_date_format: input.selected_date_format ?? null,
        recognise_details: input.recognise_details ?? false,
        company_id: companyId,
        external: false,
        created_at: now,
        updated_at: now,
        version: 1,
      };
      await deps.masterData.putStakeholder(record);
      return { outcome: 'created', row };
    } catch (error) {
      // A create refused by a uniqueness guard: another writer may have created this code since the look-up (a second
      // import of the same file), holding the name guard too — the store names either field. Look the code up again.
      if (error instanceof DuplicateKeyError && !existing && attempt < WRITE_ATTEMPTS) {
        lost = error;
        continue;
      }
      if (isStaleWrite(error) && attempt < WRITE_ATTEMPTS) continue;
      if (error instanceof DuplicateKeyError) return { outcome: 'rejected', row, reason: duplicateReason(type, error) };
      if (isStaleWrite(error)) return { outcome: 'rejected', row, reason: 'Changed by someone else during the import; import the file again' };
      throw error;
    }
  }
}

async function applyCategory(deps: ApplyDeps, companyId: string, row: number, input: { name: string; category_code: string }): Promise<RowOutcome> {
  let lost: DuplicateKeyError | undefined;
  for (let attempt = 1; ; attempt++) {
    const existing =
      input.category_code !== ''
        ? await deps.masterData.findCategory(companyId, 'code', input.category_code)
        : await deps.masterData.findCategory(companyId, 'name', input.name);
    // As for stakeholders: a lost create updates the record it lost to when that record has the row's key.
    if (lost && !existing) return { outcome: 'rejected', row, reason: duplicateReason('categories', lost) };
    const now = deps.clock.now().toISOString();
    try {
      if (existing) {
        // Found by its name (a row without a code): the name stays as stored — the row's spelling differs at most in
        // case or accents, and an import does not rewrite a category's name by that (found by its code, it renames).
        const name = input.category_code === '' ? existing.name : input.name;
        const next: CategoryRecord = { ...existing, name, category_code: input.category_code || existing.category_code };
        if (next.name === existing.name && next.category_code === existing.category_code) return { outcome: 'unchanged', row };
        await deps.masterData.putCategory({ ...next, updated_at: now, version: existing.version + 1 }, existing);
        return { outcome: 'updated', row };
      }
      await deps.masterData.putCategory({
        id: deps.ids.newId(),
        name: input.name,
        category_code: input.category_code,
        company_id: companyId,
        external: false,
        created_at: now,
        updated_at: now,
        version: 1,
      });
      return { outcome: 'created', row };
    } catch (error) {
      if (error instanceof DuplicateKeyError && !existing && attempt < WRITE_ATTEMPTS) {
        lost = error;
        continue;
      }
      if (isStaleWrite(error) && attempt < WRITE_ATTEMPTS) continue;
      if (error instanceof DuplicateKeyError) return { outcome: 'rejected', row, reason: duplicateReason('categories', error) };
      if (isStaleWrite(error)) return { outcome: 'rejected', row, reason: 'Changed by someone else during the import; import the file again' };
      throw error;
    }
  }
}

const sameWords = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((w, i) => w === b[i]);

async function applyItem(deps: ApplyDeps, companyId: string, row: number, input: { name: string; words: string[] }): Promise<RowOutcome> {
  const nameId = nameKey(input.name);
  for (let attempt = 1; ; attempt++) {
    const existing = await deps.masterData.getItem(companyId, nameId);
    const now = deps.clock.now().toISOString();
    try {
      if (existing) {
        // The row's words replace the item's; a row without words keeps them.
        const words = input.words.length > 0 ? input.words : existing.words;
        if (existing.name === input.name && sameWords(existing.words, words)) return { outcome: 'unchanged', row };
        await deps.masterData.putItem({ ...existing, name: input.name, words, updated_at: now, version: existing.version + 1 }, existing);
        return { outcome: 'updated', row };
      }
      const record: ItemRecord = {
        name_id: nameId,
        name: input.name,
        words: input.words,
        company_id: companyId,
        external: false,
        created_at: now,
        updated_at: now,
        version: 1,
      };
      await deps.masterData.putItem(record);
      return { outcome: 'created', row };
    } catch (error) {
      const retry = (error instanceof DuplicateKeyError && !existing) || isStaleWrite(error);
      if (retry && attempt < WRITE_ATTEMPTS) continue;
      if (error instanceof DuplicateKeyError) return { outcome: 'rejected', row, reason: duplicateReason('items', error) };
      if (isStaleWrite(error)) return { outcome: 'rejected', row, reason: 'Changed by someone else during the import; import the file again' };
      throw error;
    }
  }
}

export function applyRow(
  deps: ApplyDeps,
  companyId: string,
  type: ImportType,
  parsed: ParsedRow,
  categories: CategoryResolver,
): Promise<RowOutcome> {
  if (!parsed.ok) return Promise.resolve({ outcome: 'rejected', row: parsed.row, reason: parsed.reason });
  if (parsed.kind === 'stakeholder') {
    return applyStakeholder(deps, companyId, type as 'suppliers' | 'customers', parsed.row, parsed.input, parsed.category, categories);
  }
  if (parsed.kind === 'category') return applyCategory(deps, companyId, parsed.row, parsed.input);
  return applyItem(deps, companyId, parsed.row, parsed.input);
}

/** The identities a row touches: rows sharing one are applied one after the other, in sheet order. */
export function rowKeys(parsed: ParsedRow): string[] {
  if (!parsed.ok) return [];
  if (parsed.kind === 'stakeholder') return [`code:${codeKey(parsed.input.code)}`, `name:${nameKey(parsed.input.name)}`];
  if (parsed.kind === 'category') {
    const keys = [`name:${nameKey(parsed.input.name)}`];
    if (parsed.input.category_code) keys.push(`code:${codeKey(parsed.input.category_code)}`);
    return keys;
  }
  return [`name:${nameKey(parsed.input.name)}`];
}

/** Rows grouped so that no two groups touch the same record (union of shared keys); each group in sheet order. */
export function independentGroups(rows: ParsedRow[]): ParsedRow[][] {
  const parent = rows.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  const owner = new Map<string, number>();
  rows.forEach((row, i) => {
    for (const key of rowKeys(row)) {
      const j = owner.get(key);
      if (j === undefined) owner.set(key, i);
      else parent[find(i)] = find(j);
    }
  });
  const groups = new Map<number, ParsedRow[]>();
  rows.forEach((row, i) => {
    const root = find(i);
    const group = groups.get(root);
    if (group) group.push(row);
    else groups.set(root, [row]);
  });
  return [...groups.values()];
}

/** Runs the tasks with at most `limit` at a time; after a failure no further task starts. */
export async function inParallel<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const item = items[next++]!;
      try {
        await task(item);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
