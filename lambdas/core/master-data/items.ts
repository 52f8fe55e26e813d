/** Items (product.md 3): a name, unique per company by its folded form (name_id), and words that match line items. */
import { ITEM_WORDS_MAX } from '../../../shared/constants';
import { AppError, notFound } from '../../../shared/errors';
import type { AddItemWordInput, CreateItemInput, Item, ItemsQuery, ListPage, UpdateItemInput } from '../../../shared/schemas/master-data';
import { itemLookupWords, nameKey } from './keys';
import { IDENTIFIER_HITS_MAX, withIdentifierHits } from './identifier-search';
import { companyOf, listPage, publishChange, withDuplicates, type MasterDataCaller, type MasterDataDeps } from './lists';
import type { ItemRecord } from './types';
import { toItemView } from './views';

/** Blank words dropped, the rest trimmed, a word repeated (case and diacritics ignored) kept once. */
export function cleanWords(words: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of words) {
    const word = raw.trim();
    const key = nameKey(word);
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(word);
  }
  return out;
}

export function newItemRecord(deps: Pick<MasterDataDeps, 'clock'>, companyId: string, input: { name: string; words?: string[] }, extra: { external?: boolean; external_ref?: string } = {}): ItemRecord {
  const now = deps.clock.now().toISOString();
  const name = input.name.trim();
  return {
    name_id: nameKey(name),
    company_id: companyId,
    name,
    words: cleanWords(input.words ?? []),
    external: extra.external ?? false,
    ...(extra.external_ref ? { external_ref: extra.external_ref } : {}),
    created_at: now,
    updated_at: now,
    version: 1,
  };
}

function blankName(): AppError {
  return new AppError('ValidationFailed', 'At least 2 characters', [{ path: ['name'], message: 'At least 2 characters' }]);
}

/** POST item: 201 with the view; an item of the same name (case and diacritics ignored) → 'This item already exists'. */
export async function createItem(deps: MasterDataDeps, caller: MasterDataCaller, companyId: string, input: CreateItemInput): Promise<Item> {
  const company = await companyOf(deps.store, companyId);
  const record = newItemRecord(deps, companyId, input);
  if (record.name_id === '') throw blankName();
  await withDuplicates('item', () => deps.masterData.putItem(record));
  await publishChange(deps.live, companyId, { kind: 'item', id: record.name_id });
  return toItemView(record, company.name);
}

async function loadItem(deps: MasterDataDeps, companyId: string, nameOrId: string): Promise<ItemRecord> {
  const record = await deps.masterData.getItem(companyId, nameKey(nameOrId));
  if (!record) throw notFound('Item not found');
  return record;
}

async function save(deps: MasterDataDeps, companyId: string, current: ItemRecord, changes: Partial<ItemRecord>): Promise<ItemRecord> {
  if (Object.keys(changes).length === 0) return current;
  const next: ItemRecord = { ...current, ...changes, updated_at: deps.clock.now().toISOString(), version: current.version + 1 };
  await withDuplicates('item', () => deps.masterData.putItem(next, current));
  await publishChange(deps.live, companyId, { kind: 'item', id: next.name_id });
  return next;
}

const sameWords = (a: string[], b: string[]) => a.length === b.length && a.every((w, i) => w === b[i]);

/** PUT item: a new name moves the item to its new name_id; only changed fields are stored. */
export async function updateItem(deps: MasterDataDeps, caller: MasterDataCaller, companyId: string, input: UpdateItemInput): Promise<Item> {
  const company = await companyOf(deps.store, companyId);
  const current = await loadItem(deps, companyId, input.name_id);
  const changes: Partial<ItemRecord> = {};
  if (input.name !== undefined && input.name.trim() !== current.name) {
    changes.name = input.name.trim();
    changes.name_id = nameKey(changes.name);
    if (changes.name_id === '') throw blankName();
  }
  if (input.words !== undefined) {
    const words = cleanWords(input.words);
    if (!sameWords(words, current.words)) changes.words = words;
  }
  return toItemView(await save(deps, companyId, current, changes), company.name);
}

/** POST item/word: adds one word to the item whose name_id is `key` (a word it has already changes nothing). */
export async function addItemWord(deps: MasterDataDeps, caller: MasterDataCaller, companyId: string, input: AddItemWordInput): Promise<Item> {
  const company = await companyOf(deps.store, companyId);
  const current = await loadItem(deps, companyId, input.key);
  const words = cleanWords([...current.words, input.value]);
  if (words.length > ITEM_WORDS_MAX) {
    const message = `At most ${ITEM_WORDS_MAX} words`;
    throw new AppError('ValidationFailed', message, [{ path: ['value'], message }]);
  }
  const changes = sameWords(words, current.words) ? {} : { words };
  return toItemView(await save(deps, companyId, current, changes), company.name);
}

/** DELETE item: `name` is the item's name or name_id. */
export async function deleteItem(deps: MasterDataDeps, caller: MasterDataCaller, companyId: string, name: string): Promise<{ deleted: true; id: string }> {
  const record = await loadItem(deps, companyId, name);
  await deps.masterData.deleteItem(record);
  await publishChange(deps.live, companyId, { kind: 'item', id: record.name_id });
  return { deleted: true, id: record.name_id };
}

/** GET items: sorted by name, 50 a page, one company or all (selected=ALL). */
export async function listItems(deps: MasterDataDeps, caller: MasterDataCaller, query: ItemsQuery): Promise<ListPage<Item>> {
  return listPage(
    deps,
    caller,
    query,
    (company, cursor, limit) =>
      withIdentifierHits(
        {
          // M10: the items one of whose words is each typed word ("dyzelinas" finds Diesel), before the name hits
          textOf: (search) => (itemLookupWords(search ?? '').length > 0 ? search : undefined),
          hits: async (text) => (await deps.masterData.findItemsByWords(company.company_id, itemLookupWords(text), IDENTIFIER_HITS_MAX)).filter((r) => hasWordsOf(r, text)),
          matches: hasWordsOf,
        },
        { search: query.search_name, source: 'all', cursor, limit },
        (names) => deps.masterData.listItems({ companyId: company.company_id, search: query.search_name, source: 'all', limit: names, cursor }),
      ),
    async (records, companies) => records.map((r) => toItemView(r, companies.get(r.company_id)?.name ?? '')),
  );
}

/** Whether every word a search looks up (`itemLookupWords`) is one of the item's words, as its word index holds them. */
function hasWordsOf(item: ItemRecord, text: string): boolean {
  const own = new Set(item.words.flatMap(itemLookupWords));
  const typed = itemLookupWords(text);
  return typed.length > 0 && typed.every((w) => own.has(w));
}

/** Items whose words match a line item's words (recognition), at most `limit`. */
export async function matchItems(deps: Pick<MasterDataDeps, 'masterData'>, companyId: string, words: string[], limit = 10): Promise<ItemRecord[]> {
  return deps.masterData.findItemsByWords(companyId, words, limit);
}
