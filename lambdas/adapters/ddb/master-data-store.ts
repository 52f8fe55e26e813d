/**
 * Master data in the single table (docs/data-model.md, items "master-data …", patterns M1–M11).
 *
 * A record lives in its own item (M1) and in two list partitions through gsi1/gsi2 (every record / own or
 * external only). Derived items written in the SAME transaction as the record: uniqueness guards (name key,
 * code), stakeholder look-ups (VAT ID, recognition name), one search-word item per word of the name and, for
 * items, one item per matching word. Every derived item carries a copy of the record, so a list page, a
 * search page or a look-up is one request. An item's word items that do not fit in the record's transaction
 * follow in further transactions conditioned on the record's version (`masterWritePlan`).
 */
import { GetCommand, QueryCommand, TransactWriteCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { badRequest } from '../../../shared/errors';
import type { StakeholderType } from '../../../shared/schemas/master-data';
import { codeKey, identifierKey, itemLookupWords, matchNameKey, nameKey, nameSearchWords, searchWords } from '../../core/master-data/keys';
import { DuplicateKeyError, type MasterDataStore } from '../../core/master-data/ports';
import type { CategoryRecord, ItemRecord, ListRequest, Page, RecordSource, StakeholderRecord } from '../../core/master-data/types';
import { ddb } from './client';
import { keys } from './keys';
import { batchDelete, batchGet, tableName } from './table-ops';

/**
 * Words of a stakeholder's or category's name that get a search item. A transaction holds at most 100 items;
 * a stakeholder's update holds its record, 2 + 2 guards, 2 + 2 look-ups and the old and the new search words
 * (the name's and IDENTIFIER_SEARCH_WORDS_MAX of its codes): 9 + 2 × (40 + 5) = 99 (the backfill's deletes of a
 * former rule's search items follow in a batch where it has no room).
 */
export const SEARCH_WORDS_MAX = 40;
/** Words of a stakeholder's code and VAT ID, or a category's code, that get a search item besides the name's. */
export const IDENTIFIER_SEARCH_WORDS_MAX = 5;
/** Words of an item's name that get a search item: a rename's first transaction holds 2 records, 2 × 8 search words and the deletes of ITEM_INDEX_WORDS_MAX item words. */
export const ITEM_SEARCH_WORDS_MAX = 8;
/** The former word rule (`msv` missing) indexed the first 8 words, "&" kept inside a word ("a&b"): what the backfill removes too. */
export const LEGACY_SEARCH_WORDS_MAX = 8;
/** Typed words a search checks (every one must start a word of the name). */
export const QUERY_WORDS_MAX = 8;
/** Typed words whose first page is read to choose the rarest one as the query word (longest first). */
export const PLAN_WORDS_MAX = 3;
/**
 * Item-word items of one item (`itemIndexWords`): one per word of the item (ITEM_WORDS_MAX = 50), then the phrases'
 * other words. A rename's first transaction deletes them all: 2 records + 2 × 8 search words + 80 = 98.
 */
export const ITEM_INDEX_WORDS_MAX = 80;
/** Items one TransactWriteItems holds. */
const TRANSACTION_MAX = 100;
/** Distinct words one findItemsByWords call looks up (one query each). */
export const FIND_WORDS_MAX = 20;
/** Queries one list or search page may send. */
export const MAX_QUERIES_PER_PAGE = 4;

type Kind = StakeholderType | 'category' | 'item';
type Entity = 'STAKEHOLDER' | 'CATEGORY' | 'ITEM';
type AnyRecord = StakeholderRecord | CategoryRecord | ItemRecord;
type Item = Record<string, unknown>;

/** Attributes of an item that are not part of the record. */
const NON_RECORD = new Set(['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'gsi3pk', 'gsi3sk', 'ttl', 'entity', 'rid', 'sw', 'md', 'msv']);

/**
 * The rule a record's search items were written by, kept on the record's own item (`msv`): 4 = `recordSearchWords`
 * (the name's `nameSearchWords`, up to SEARCH_WORDS_MAX, "&" splits, then the words of its code and VAT ID) under
 * sort keys whose name ends in MASTER_SORT_NAME_END; 3 = the name's words alone under those keys; 2 = the name's
 * words under `<word>#<name>#<id>` (`keys.formerMasterSearch`); absent = the former word rule (`searchWords`, 8
 * words) under that key. The backfill (`search-backfill.ts`) rewrites records of an older rule and deletes their
 * former search items.
 */
export const MASTER_SEARCH_VERSION = 4;
/**
 * The same for items, whose record also says how its item words were written: 4 = version 3's search words and
 * the item words of `itemIndexWords` (every word, a phrase by its words); 3 = the same under the former search key;
 * 2 or absent = one item word per folded word or phrase, the first 40; 0 = a write whose later item-word
 * transactions have not all run. The backfill rewrites items below 4.
 */
export const ITEM_SEARCH_VERSION = 4;

/** The `msv` a record of this kind is written with. */
export const searchVersionOf = (kind: Kind): number => (kind === 'item' ? ITEM_SEARCH_VERSION : MASTER_SEARCH_VERSION);
/** Whether a record written by rule `msv` holds its search items under the former sort key (`keys.formerMasterSearch`). */
const underFormerSearchKey = (kind: Kind, msv: number): boolean => msv < (kind === 'item' ? 4 : 3);

export function recordOf<T>(item: Item): T {
  const out: Item = {};
  for (const [k, v] of Object.entries(item)) if (!NON_RECORD.has(k)) out[k] = v;
  return out as T;
}

const sourceOf = (r: AnyRecord): 'own' | 'external' => (r.external ? 'external' : 'own');
const idOf = (r: AnyRecord): string => ('name_id' in r ? r.name_id : r.id);
/** Items are identified by their folded name: their list sort key needs no id. */
const sortIdOf = (r: AnyRecord): string => ('name_id' in r ? '' : r.id);
const sortNameOf = (r: AnyRecord): string => ('name_id' in r ? r.name_id : nameKey(r.name));

// ------------------------------------------------------------------ item builders (also used by the bench)

interface Derived {
  item: Item;
  /** Set on uniqueness guards: which field a failed condition means. */
  guard?: 'name' | 'code';
  /** An item word: its Put may follow in a later transaction of the write. */
  itemWord?: true;
}

function kindOf(r: AnyRecord): Kind {
  if ('name_id' in r) return 'item';
  if ('type' in r) return r.type;
  return 'category';
}

function entityOf(kind: Kind): Entity {
  return kind === 'item' ? 'ITEM' : kind === 'category' ? 'CATEGORY' : 'STAKEHOLDER';
}

/** The record's own item (M1 + M2 list keys). */
export function masterRecordItem(r: AnyRecord): Item {
  const kind = kindOf(r);
  return {
    ...keys.masterRecord(r.company_id, entityOf(kind), idOf(r)),
    ...keys.masterLists(r.company_id, kind, sourceOf(r), sortNameOf(r), sortIdOf(r)),
    entity: `MD_${entityOf(kind)}`,
    ...r,
    msv: searchVersionOf(kind),
  };
}

/**
 * The words an item is indexed by for matching line items (M10): for each of its words the longest of the words
 * that word is looked up by (`itemLookupWords`: "car wash" by "wash"), so every word of the item finds it; then the
 * other words of its phrases ("car"), while fewer than ITEM_INDEX_WORDS_MAX. Distinct; a word without a word to
 * look up (a number, one letter) has none. `matchItem` still decides whether the line holds the whole phrase.
 */
export function itemIndexWords(words: string[]): string[] {
  const perWord = words.map(itemLookupWords);
  const out = new Set<string>();
  const add = (w: string) => {
    if (out.size < ITEM_INDEX_WORDS_MAX) out.add(w);
  };
  for (const ws of perWord) {
    const longest = ws.reduce<string | undefined>((a, w) => (a === undefined || w.length > a.length ? w : a), undefined);
    if (longest !== undefined) add(longest);
  }
  for (const ws of perWord) for (const w of ws) add(w);
  return [...out];
}

/**
 * Item-word keys the former rule wrote (each word or phrase folded whole, the first 40) that the current rule
 * never writes (`itemLookupWords` would not send them: "car wash", "post-it"): deleted with the item's next write.
 * A word the current rule writes too is deleted, when the item loses it, as the current rule's.
 */
function legacyItemWordKeys(r: ItemRecord): Item[] {
  const former = [...new Set(r.words.map(nameKey).filter((w) => w !== ''))].slice(0, 40);
  const current = (w: string) => {
    const looked = itemLookupWords(w);
    return looked.length === 1 && looked[0] === w;
  };
  return former.filter((w) => !current(w)).map((w) => keys.itemWord(r.company_id, w, r.name_id));
}

/** Every derived item of a record: guards, look-ups, search words, item words. */
export function masterDerivedItems(r: AnyRecord): Derived[] {
  const kind = kindOf(r);
  const id = idOf(r);
  const copy = { ...r, rid: id, entity: 'MD_INDEX' };
  const out: Derived[] = [];
  const sw = recordSearchWords(r);
  for (const word of sw) {
    out.push({ item: { ...keys.masterSearch(r.company_id, kind, sourceOf(r), word, sortNameOf(r), sortIdOf(r)), ...copy, sw } });
  }
  if (kind === 'item') {
    for (const word of itemIndexWords((r as ItemRecord).words)) out.push({ item: { ...keys.itemWord(r.company_id, word, id), ...copy }, itemWord: true });
    return out;
  }
  const nk = nameKey(r.name);
  if (nk) out.push({ item: { ...keys.masterGuard(r.company_id, kind, 'name', nk), ...copy }, guard: 'name' });
  const code = kind === 'category' ? (r as CategoryRecord).category_code : (r as StakeholderRecord).code;
  const ck = code ? codeKey(code) : '';
  if (ck) out.push({ item: { ...keys.masterGuard(r.company_id, kind, 'code', ck), ...copy }, guard: 'code' });
  if (kind !== 'category') {
    const s = r as StakeholderRecord;
    const vat = s.vat_id ? identifierKey(s.vat_id) : '';
    if (vat) out.push({ item: { ...keys.masterLookup(s.company_id, kind, 'vat', vat, s.created_at, s.id), ...copy } });
    const mn = matchNameKey(s.name);
    if (mn) out.push({ item: { ...keys.masterLookup(s.company_id, kind, 'match_name', mn.slice(0, 400), s.created_at, s.id), ...copy } });
  }
  return out;
}

/** The words of a name that get a search item: the first distinct ones, up to the kind's limit. */
export function indexedSearchWords(name: string, kind: Kind): string[] {
  return nameSearchWords(name).slice(0, kind === 'item' ? ITEM_SEARCH_WORDS_MAX : SEARCH_WORDS_MAX);
}

/**
 * The words a record is found by in a search (`sw`): its name's (`indexedSearchWords`), then, for a stakeholder, its
 * code and VAT ID written together ("K-1" as "k1", "LT 100" as "lt100"), the VAT ID's digits without the country
 * letters ("100"), then the words of the code as written ("k", "1"); for a category, its code so. The first
 * IDENTIFIER_SEARCH_WORDS_MAX not among the name's. A bookkeeper types the first digits of a company code or a VAT ID
 * as often as a name; the exact look-ups (identifier-search.ts) need the whole of one. The name's words come first
 * and whole, so a rule's words are those of the rule before and more.
 */
export function recordSearchWords(r: AnyRecord): string[] {
  const kind = kindOf(r);
  const names = indexedSearchWords(r.name, kind);
  if (kind === 'item') return names;
  const code = (kind === 'category' ? (r as CategoryRecord).category_code : (r as StakeholderRecord).code) ?? '';
  const vat = kind === 'category' ? '' : ((r as StakeholderRecord).vat_id ?? '');
  const whole = (v: string) => nameSearchWords(identifierKey(v));
  const candidates = [...whole(code), ...whole(vat), ...whole(identifierKey(vat).replace(/^[A-Z]{2}(?=\d)/, '')), ...nameSearchWords(code)];
  const taken = new Set(names);
  const identifiers = [...new Set(candidates)].filter((w) => !taken.has(w));
  return [...names, ...identifiers.slice(0, IDENTIFIER_SEARCH_WORDS_MAX)];
}

/**
 * The search items a record stored under an older rule (`msv` below its kind's version, M12) may have: the words of
 * both former word rules under the former sort key (`keys.formerMasterSearch`). The current rule writes none of them.
 */
function formerSearchKeys(r: AnyRecord): Item[] {
  const kind = kindOf(r);
  const words = new Set([...indexedSearchWords(r.name, kind), ...searchWords(r.name).slice(0, LEGACY_SEARCH_WORDS_MAX)]);
  return [...words].map((w) => keys.formerMasterSearch(r.company_id, kind, sourceOf(r), w, sortNameOf(r), sortIdOf(r)));
}

/** Every item a record is stored as (what a bulk load writes). */
export function masterItems(r: AnyRecord): Item[] {
  return [masterRecordItem(r), ...masterDerivedItems(r).map((d) => d.item)];
}

// ------------------------------------------------------------------ writes

interface Op {
  op: Record<string, unknown>;
  /** What a failed condition of this op means. */
  meaning: 'version' | 'name' | 'code';
  /** May go to a later transaction (`masterWritePlan`): an item word's Put, a Delete of a former-rule item. */
  later?: 'put' | 'legacy';
  /** The Put of the next record's own item. */
  record?: true;
}

const keyString = (i: Item) => `${i.pk as string}\u0000${i.sk as string}`;

/**
 * Every write that turns `previous` into `next` (either may be absent: create / delete), in one list; an item's
 * may be more than one transaction holds (`masterWritePlan` splits them). `storedRule` is the `msv` the stored
 * `previous` was written with, where the writer knows it (the backfill, M12): below the kind's version, the former
 * rules' search items are deleted too.
 */
export function masterTransaction(next: AnyRecord | undefined, previous: AnyRecord | undefined, storedRule?: number): Op[] {
  const TableName = tableName();
  const ops: Op[] = [];
  const nextRecord = next ? masterRecordItem(next) : undefined;
  const prevRecord = previous ? masterRecordItem(previous) : undefined;
  const sameRecordKey = nextRecord && prevRecord && keyString(nextRecord) === keyString(prevRecord);
  if (prevRecord && !sameRecordKey) {
    ops.push({
      op: { Delete: { TableName, Key: { pk: prevRecord.pk, sk: prevRecord.sk }, ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': previous!.version } } },
      meaning: 'version',
    });
  }
  if (nextRecord) {
    if (sameRecordKey) {
      ops.push({ op: { Put: { TableName, Item: nextRecord, ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': previous!.version } } }, meaning: 'version', record: true });
    } else {
      // A new record key: the record is created, or an item is renamed (its name_id is its key).
      ops.push({ op: { Put: { TableName, Item: nextRecord, ConditionExpression: 'attribute_not_exists(pk)' } }, meaning: kindOf(next!) === 'item' ? 'name' : 'version', record: true });
    }
  }
  const nextDerived = next ? masterDerivedItems(next) : [];
  const kept = new Set(nextDerived.map((d) => keyString(d.item)));
  for (const d of previous ? masterDerivedItems(previous) : []) {
    if (!kept.has(keyString(d.item))) ops.push({ op: { Delete: { TableName, Key: { pk: d.item.pk, sk: d.item.sk } } }, meaning: 'version' });
  }
  // Search items of a former rule ("a&b", the former sort key): deleted with the record where its transaction has
  // room, the rest after it without condition (no current write puts those keys).
  const deleted = new Set(ops.flatMap((o) => (o.op.Delete ? [keyString((o.op.Delete as { Key: Item }).Key)] : [])));
  const formerRule = previous !== undefined && storedRule !== undefined && underFormerSearchKey(kindOf(previous), storedRule);
  for (const k of formerRule ? formerSearchKeys(previous) : []) {
    if (kept.has(keyString(k)) || deleted.has(keyString(k))) continue;
    ops.push({ op: { Delete: { TableName, Key: { pk: k.pk, sk: k.sk } } }, meaning: 'version', later: 'legacy' });
  }
  for (const k of previous && kindOf(previous) === 'item' ? legacyItemWordKeys(previous as ItemRecord) : []) {
    if (kept.has(keyString(k)) || deleted.has(keyString(k))) continue;
    ops.push({ op: { Delete: { TableName, Key: { pk: k.pk, sk: k.sk } } }, meaning: 'version', later: 'legacy' });
  }
  for (const d of nextDerived) {
    if (d.guard) {
      ops.push({
        op: { Put: { TableName, Item: d.item, ConditionExpression: 'attribute_not_exists(pk) OR rid = :rid', ExpressionAttributeValues: { ':rid': d.item.rid } } },
        meaning: d.guard,
      });
    } else {
      ops.push({ op: { Put: { TableName, Item: d.item } }, meaning: 'version', ...(d.itemWord ? { later: 'put' as const } : {}) });
    }
  }
  return ops;
}

export interface MasterWritePlan {
  /**
   * The record's transaction: the record's own item with its condition, its guards, look-ups and search words,
   * and every delete of a derived item the record no longer has (so no stale copy outlives it); item-word Puts
   * and former-rule deletes as far as the 100 items leave room.
   */
  first: Op[];
  /**
   * The item-word Puts the first had no room for, 99 a transaction, each conditioned on the record's version (a
   * later write of the record owns its index); while they are pending the record's `msv` is 0, the last sets
   * ITEM_SEARCH_VERSION. An interrupted write is completed by the item's next write or the backfill (M12).
   */
  later: Op[][];
  /** Former-rule item-word keys the first had no room for: deleted without condition (no current rule writes them). */
  legacy: Item[];
}

/** `masterTransaction` in transactions of at most 100 items (M5). */
export function masterWritePlan(next: AnyRecord | undefined, previous: AnyRecord | undefined, storedRule?: number): MasterWritePlan {
  const ops = masterTransaction(next, previous, storedRule);
  const first = ops.filter((o) => !o.later);
  const puts = ops.filter((o) => o.later === 'put');
  const legacy = ops.filter((o) => o.later === 'legacy');
  first.push(...puts.splice(0, Math.max(0, TRANSACTION_MAX - first.length)));
  first.push(...legacy.splice(0, Math.max(0, TRANSACTION_MAX - first.length)));
  const later: Op[][] = [];
  if (puts.length > 0 && next) {
    const TableName = tableName();
    const i = first.findIndex((o) => o.record);
    const put = first[i]!.op.Put as { Item: Item };
    first[i] = { ...first[i]!, op: { Put: { ...put, Item: { ...put.Item, msv: 0 } } } };
    const Key = { pk: put.Item.pk, sk: put.Item.sk };
    const size = TRANSACTION_MAX - 1;
    for (let n = 0; n < puts.length; n += size) {
      const last = n + size >= puts.length;
      const guard = last
        ? { Update: { TableName, Key, UpdateExpression: 'SET msv = :msv', ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':msv': searchVersionOf(kindOf(next)), ':v': next.version } } }
        : { ConditionCheck: { TableName, Key, ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': next.version } } };
      later.push([{ op: guard, meaning: 'version' }, ...puts.slice(n, n + size)]);
    }
  }
  return { first, later, legacy: legacy.map((o) => (o.op.Delete as { Key: Item }).Key) };
}

interface CancellationReason {
  Code?: string;
}

async function runTransaction(ops: Op[]): Promise<void> {
  if (ops.length > 100) throw new Error(`master-data transaction of ${ops.length} items`);
  try {
    await ddb().send(new TransactWriteCommand({ TransactItems: ops.map((o) => o.op) }));
  } catch (error) {
    const reasons = (error as { CancellationReasons?: CancellationReason[] }).CancellationReasons;
    if ((error as Error)?.name === 'TransactionCanceledException' && Array.isArray(reasons)) {
      const failed = reasons.flatMap((r, i) => (r?.Code === 'ConditionalCheckFailed' ? [ops[i]?.meaning] : []));
      const field = failed.find((m) => m === 'name') ?? failed.find((m) => m === 'code');
      if (field === 'name' || field === 'code') throw new DuplicateKeyError(field);
    }
    throw error;
  }
}

const conditionFailed = (error: unknown) =>
  (error as Error)?.name === 'TransactionCanceledException' &&
  ((error as { CancellationReasons?: CancellationReason[] }).CancellationReasons ?? []).some((r) => r?.Code === 'ConditionalCheckFailed');

/**
 * Writes a record (`masterWritePlan`): the record's transaction, then its later item-word transactions; one whose
 * record has changed meanwhile is left to that change, which writes all of its own.
 */
export async function writeMasterRecord(next: AnyRecord | undefined, previous: AnyRecord | undefined, storedRule?: number): Promise<void> {
  const plan = masterWritePlan(next, previous, storedRule);
  await runTransaction(plan.first);
  for (const ops of plan.later) {
    try {
      await ddb().send(new TransactWriteCommand({ TransactItems: ops.map((o) => o.op) as never }));
    } catch (error) {
      if (!conditionFailed(error)) throw error;
      break;
    }
  }
  if (plan.legacy.length > 0) await batchDelete(plan.legacy as never);
}

const put = (next: AnyRecord, previous?: AnyRecord) => writeMasterRecord(next, previous);
const remove = (record: AnyRecord) => writeMasterRecord(undefined, record);

// ------------------------------------------------------------------ reads

async function getByKey<T>(key: { pk: string; sk: string }): Promise<T | undefined> {
  const res = await ddb().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  return res.Item ? recordOf<T>(res.Item) : undefined;
}

/** The opaque `next` of a list or search page: where the previous page stopped, and for which search. */
interface Cursor {
  /** Sort key of the last item the previous page processed. */
  a: string;
  /** The search word the page was queried with ('' for a plain list). */
  w: string;
}

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c), 'utf8').toString('base64url');
}

/**
 * A cursor that is not one of ours (tampered, or of another search) is a 400, never a 500. `word` is the
 * search word the cursor must name, or the typed words a search may have chosen its query word from.
 */
export function decodeCursor(raw: string | undefined, word: string | readonly string[]): Cursor | undefined {
  if (raw === undefined || raw === '') return undefined;
  const invalid = () => badRequest('Invalid next cursor');
  if (raw.length > 2048 || !/^[A-Za-z0-9_-]+$/.test(raw)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const c = parsed as Partial<Cursor> | null;
  if (!c || typeof c !== 'object' || Array.isArray(c) || typeof c.a !== 'string' || typeof c.w !== 'string') throw invalid();
  const allowed = typeof word === 'string' ? [word] : word;
  if (Object.keys(c).length !== 2 || c.a.length === 0 || c.a.length > 1200 || !allowed.includes(c.w)) throw invalid();
  // A search cursor is a search item's sort key of the same word range (`<word…>#…`, below `<word>~`).
  if (c.w !== '' && (!c.a.startsWith(c.w) || !/^[a-z0-9&]+#/.test(c.a) || c.a >= `${c.w}~`)) throw invalid();
  return { a: c.a, w: c.w };
}

interface Stream {
  index: string | undefined;
  pkName: string;
  skName: string;
  pk: string;
}

interface StreamState extends Stream {
  buffer: Item[];
  startKey: Item | undefined;
  exhausted: boolean;
}

interface ReadOptions {
  limit: number;
  /** Search: the prefix all sort keys start with. */
  prefix?: string;
  after?: string;
  /** Items per query. */
  queryLimit: number;
  accept(item: Item): boolean;
}

/** Counted reads of one page (for the bench and tests). */
export interface PageStats {
  queries: number;
  scanned: number;
}
export let lastPageStats: PageStats = { queries: 0, scanned: 0 };

async function fill(s: StreamState, o: ReadOptions, stats: PageStats): Promise<void> {
  const values: Record<string, unknown> = { ':pk': s.pk };
  let condition = `${s.pkName} = :pk`;
  if (o.prefix !== undefined) {
    if (o.after !== undefined && !s.startKey) {
      condition += ` AND ${s.skName} BETWEEN :lo AND :hi`;
      values[':lo'] = o.after;
      values[':hi'] = `${o.prefix}~`;
    } else {
      condition += ` AND begins_with(${s.skName}, :prefix)`;
      values[':prefix'] = o.prefix;
    }
  } else if (o.after !== undefined) {
    condition += ` AND ${s.skName} > :after`;
    values[':after'] = o.after;
  }
  const input: QueryCommandInput = {
    TableName: tableName(),
    IndexName: s.index,
    KeyConditionExpression: condition,
    ExpressionAttributeValues: values,
    Limit: o.queryLimit,
    ExclusiveStartKey: s.startKey,
  };
  const res = await ddb().send(new QueryCommand(input));
  stats.queries += 1;
  stats.scanned += res.ScannedCount ?? res.Items?.length ?? 0;
  let items = res.Items ?? [];
  // A later page starts BETWEEN the previous page's last key (inclusive) and the prefix's end.
  if (o.after !== undefined) items = items.filter((i) => (i[s.skName] as string) > o.after!);
  s.buffer.push(...items);
  s.startKey = res.LastEvaluatedKey;
  s.exhausted = !res.LastEvaluatedKey;
}

/**
 * Reads one page from one or more partitions sorted by the same sort key, merged in order: every
 * stream is read before its items are compared, at most MAX_QUERIES_PER_PAGE queries; the cursor is
 * the last sort key processed, so a page cut short by the query budget continues where it stopped.
 */
function openStreams(streams: Stream[]): StreamState[] {
  return streams.map((s) => ({ ...s, buffer: [], startKey: undefined, exhausted: false }));
}

async function readPage(
  states: StreamState[],
  o: ReadOptions,
  stats: PageStats = { queries: 0, scanned: 0 },
  budget = MAX_QUERIES_PER_PAGE,
): Promise<{ items: Item[]; cursor: string | undefined }> {
  const out: Item[] = [];
  let last: string | undefined;
  try {
    while (out.length < o.limit) {
      for (const s of states) {
        if (s.buffer.length > 0 || s.exhausted) continue;
        if (stats.queries >= budget) return { items: out, cursor: last ?? o.after };
        await fill(s, o, stats);
      }
      // A stream emptied by its own filter and still open is read again before anything is compared.
      if (states.some((s) => s.buffer.length === 0 && !s.exhausted)) continue;
      let head: StreamState | undefined;
      for (const s of states) {
        if (s.buffer.length === 0) continue;
        if (!head || (s.buffer[0]![s.skName] as string) < (head.buffer[0]![head.skName] as string)) head = s;
      }
      if (!head) return { items: out, cursor: undefined };
      const item = head.buffer.shift()!;
      last = item[head.skName] as string;
      if (o.accept(item)) out.push(item);
    }
    const more = states.some((s) => s.buffer.length > 0 || !s.exhausted);
    return { items: out, cursor: more ? last : undefined };
  } finally {
    lastPageStats = stats;
  }
}

/** The typed search words (every one must start a word of the name), longest first. */
export function typedSearchWords(search: string | undefined): string[] {
  return nameSearchWords(search ?? '')
    .slice(0, QUERY_WORDS_MAX)
    .sort((a, b) => b.length - a.length || a.localeCompare(b));
}

interface SearchPlan {
  /** The word whose search items are read (`begins_with(sk, word)`). */
  word: string;
  /** The other typed words, checked on each hit's `sw`. */
  others: string[];
  /** The streams of `word`, already read when the plan compared words. */
  states: StreamState[];
  /** Queries sent to compare words that are not the page's (added to the page's budget). */
  extra: number;
}

/**
 * Which typed word a search page queries. A later page keeps the word its cursor names. A first page of one
 * word queries it; of several, the first page of each of the PLAN_WORDS_MAX longest is read (one query per
 * list each) and the rarest is chosen: the one whose partitions ended with the fewest items, else the longest.
 * The chosen word's items read so far are the page's first items, so no item is read twice.
 */
async function planSearch(words: string[], streams: Stream[], o: Omit<ReadOptions, 'prefix' | 'accept'>, cursor: Cursor | undefined, stats: PageStats): Promise<SearchPlan> {
  const plan = (word: string, states: StreamState[], extra: number): SearchPlan => ({ word, others: words.filter((w) => w !== word), states, extra });
  if (cursor) return plan(cursor.w, openStreams(streams), 0);
  const candidates = words.slice(0, PLAN_WORDS_MAX);
  if (candidates.length === 1) return plan(candidates[0]!, openStreams(streams), 0);
  const probes = await Promise.all(
    candidates.map(async (word) => {
      const states = openStreams(streams);
      for (const s of states) await fill(s, { ...o, prefix: word, accept: () => true }, stats);
      return { word, states, ended: states.every((s) => s.exhausted), count: states.reduce((n, s) => n + s.buffer.length, 0) };
    }),
  );
  const ended = probes.filter((p) => p.ended).sort((a, b) => a.count - b.count);
  const chosen = ended[0] ?? probes[0]!;
  return plan(chosen.word, chosen.states, (probes.length - 1) * streams.length);
}

async function listRecords<T>(companyId: string, kinds: Kind[], request: ListRequest): Promise<Page<T>> {
  const source: RecordSource = kinds.includes('item') ? 'all' : request.source;
  const limit = Math.max(1, Math.min(request.limit, 100));
  const words = typedSearchWords(request.search);
  const cursor = decodeCursor(request.cursor, words.length > 0 ? words : '');
  let page: { items: Item[]; cursor: string | undefined };
  let word = '';
  if (words.length === 0) {
    const streams = kinds.map((k) => keys.masterList(companyId, k, source));
    page = await readPage(openStreams(streams), { limit, after: cursor?.a, queryLimit: limit + 1, accept: () => true });
  } else {
    const streams = kinds.map((k) => keys.masterSearchPartition(companyId, k, source));
    const stats: PageStats = { queries: 0, scanned: 0 };
    const base = { limit, after: cursor?.a, queryLimit: words.length > 1 ? 200 : limit + 1 };
    const plan = await planSearch(words, streams, base, cursor, stats);
    word = plan.word;
    page = await readPage(plan.states, {
      ...base,
      prefix: plan.word,
      accept: (item) => {
        const sw = (item.sw as string[] | undefined) ?? [];
        const sk = (item.sk as string).slice(0, (item.sk as string).indexOf('#'));
        // Kept once: under the first word of the name that the search word starts.
        if (sw.filter((w) => w.startsWith(plan.word)).sort()[0] !== sk) return false;
        return plan.others.every((o) => sw.some((w) => w.startsWith(o)));
      },
    }, stats, MAX_QUERIES_PER_PAGE + plan.extra);
  }
  return {
    items: page.items.map((i) => recordOf<T>(i)),
    cursor: page.cursor === undefined ? null : encodeCursor({ a: page.cursor, w: word }),
  };
}

async function queryFirst<T>(pk: string, limit = 1): Promise<T[]> {
  const res = await ddb().send(
    new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, Limit: limit }),
  );
  return (res.Items ?? []).map((item) => recordOf<T>(item));
}

export const ddbMasterDataStore: MasterDataStore = {
  // ---- stakeholders
  putStakeholder: put,
  deleteStakeholder: remove,
  getStakeholder: (companyId, id) => getByKey<StakeholderRecord>(keys.masterRecord(companyId, 'STAKEHOLDER', id)),
  listStakeholders: (request) => listRecords<StakeholderRecord>(request.companyId, request.type ? [request.type] : ['supplier', 'customer'], request),
  async findStakeholder(companyId, type, by, value) {
    if (by === 'code' || by === 'name') {
      const v = by === 'code' ? codeKey(value) : nameKey(value);
      return v ? getByKey<StakeholderRecord>(keys.masterGuard(companyId, type, by, v)) : undefined;
    }
    const v = identifierKey(value);
    return v ? (await queryFirst<StakeholderRecord>(keys.masterLookupPartition(companyId, type, by, v).pk))[0] : undefined;
  },
  async sameNameStakeholders(companyId, type, name, limit) {
    const v = matchNameKey(name).slice(0, 400);
    return v ? queryFirst<StakeholderRecord>(keys.masterLookupPartition(companyId, type, 'match_name', v).pk, limit) : [];
  },
  async sameVatStakeholders(companyId, type, vatId, limit) {
    const v = identifierKey(vatId);
    return v ? queryFirst<StakeholderRecord>(keys.masterLookupPartition(companyId, type, 'vat', v).pk, Math.max(1, Math.min(limit, 100))) : [];
  },

  // ---- categories
  putCategory: put,
  deleteCategory: remove,
  getCategory: (companyId, id) => getByKey<CategoryRecord>(keys.masterRecord(companyId, 'CATEGORY', id)),
  async getCategories(companyId, ids) {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return [];
    const items = await batchGet(unique.map((id) => keys.masterRecord(companyId, 'CATEGORY', id)));
    return items.map((i) => recordOf<CategoryRecord>(i));
  },
  listCategories: (request) => listRecords<CategoryRecord>(request.companyId, ['category'], request),
  async findCategory(companyId, by, value) {
    const v = by === 'code' ? codeKey(value) : nameKey(value);
    return v ? getByKey<CategoryRecord>(keys.masterGuard(companyId, 'category', by, v)) : undefined;
  },

  // ---- items
  putItem: put,
  deleteItem: remove,
  getItem: (companyId, nameId) => getByKey<ItemRecord>(keys.masterRecord(companyId, 'ITEM', nameId)),
  listItems: (request) => listRecords<ItemRecord>(request.companyId, ['item'], request),
  /**
   * Every word is looked up, each with its share of the limit (one query per word): a word many items have
   * ("paslauga") cannot fill the limit before the others ("lavazza") are read. The words' items are taken in
   * turn (the first of each word, then the second, …), each item once, at most `limit`.
   */
  async findItemsByWords(companyId, words, limit) {
    const distinct = [...new Set(words.map(nameKey).filter((w) => w !== ''))].slice(0, FIND_WORDS_MAX);
    if (distinct.length === 0) return [];
    const max = Math.max(1, Math.min(limit, 100));
    const share = Math.ceil(max / distinct.length);
    const perWord = await Promise.all(
      distinct.map(async (word) => {
        const res = await ddb().send(
          new QueryCommand({
            TableName: tableName(),
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': keys.itemWordPartition(companyId, word).pk },
            Limit: share,
          }),
        );
        return (res.Items ?? []).map((i) => recordOf<ItemRecord>(i));
      }),
    );
    const found = new Map<string, ItemRecord>();
    for (let n = 0; n < share && found.size < max; n++) {
      for (const items of perWord) {
        const r = items[n];
        if (r && found.size < max && !found.has(r.name_id)) found.set(r.name_id, r);
      }
    }
    return [...found.values()];
  },
};
