/**
 * Documents and the company's master data (docs/recognition.md, "Master data"): the supplier (cost
 * documents) or customer (sales documents) recognised on a document is looked up in the company's
 * register in match.ts's order (VAT ID, code, normalised name, then a bounded fuzzy name step), and line
 * items are matched to the company's items by their words. Every look-up is an exact key or one bounded
 * page, so a document costs at most MAX_LOOKUPS register reads whatever the size of the register.
 */
import type { StakeholderDateFormat, StakeholderType } from '../../../shared/schemas/master-data';
import type { ContentDocument } from '../content/tree';
import { datapointBySchemaId, setValues, valueOf, type ValueUpdate } from '../content/tree';
import { identifierKey, itemLookupWords, matchNameKey } from '../master-data/keys';
import type { MasterDataStore } from '../master-data/ports';
import type { CategoryRecord, ItemRecord, StakeholderRecord } from '../master-data/types';
import {
  HOME_COUNTRY,
  isSureMatch,
  lookupStakeholder,
  matchItem,
  NAME_CANDIDATE_WORDS,
  NAME_CANDIDATES,
  partyKeys,
  SAME_NAME_LIMIT,
  SAME_VAT_LIMIT,
  type CatalogueItem,
  type PartyKeys,
  type StakeholderLookup,
} from '../recognition/match';
import type { ExtractedFields, HeaderFieldId, Stakeholder } from '../recognition/types';
import { READY_CONFIDENCE } from './content';
import type { ReceiptType } from './types';

/**
 * Port calls per document: stakeholder look-ups (VAT ID twice, code, name, a candidate page per word of the name:
 * 4 + NAME_CANDIDATE_WORDS), the category (1), the items (1).
 */
export const MAX_LOOKUPS = 4 + NAME_CANDIDATE_WORDS + 2;
/**
 * Words of the line descriptions sent to the item look-up (the store reads one word-index partition per
 * word: at most this many queries, FIND_WORDS_MAX of the DynamoDB adapter).
 */
export const ITEM_LOOKUP_WORDS = 20;
/** Items read for one document's lines. */
export const ITEM_LOOKUP_LIMIT = 50;

/** A cost document (receipt) has a supplier; a sales document (invoice) a customer. */
export function stakeholderTypeOf(receiptType: ReceiptType): StakeholderType {
  return receiptType === 'receipt' ? 'supplier' : 'customer';
}

function asStakeholder(r: StakeholderRecord): Stakeholder {
  return {
    id: r.id,
    name: r.name,
    ...(r.code ? { code: r.code } : {}),
    ...(r.vat_id ? { vat_id: r.vat_id } : {}),
    ...(r.category_id ? { category_id: r.category_id } : {}),
    ...(r.selected_date_format ? { date_format: r.selected_date_format } : {}),
  };
}

/** match.ts's look-up port over the master-data store, remembering the records it saw. */
function registerLookup(store: MasterDataStore, companyId: string, type: StakeholderType, seen: Map<string, StakeholderRecord>): StakeholderLookup {
  const keep = (r: StakeholderRecord | undefined) => {
    if (!r) return undefined;
    seen.set(r.id, r);
    return asStakeholder(r);
  };
  return {
    byVat: async (vat) => (await store.sameVatStakeholders(companyId, type, identifierKey(vat), SAME_VAT_LIMIT)).map((r) => keep(r)!),
    byCode: async (code) => keep(await store.findStakeholder(companyId, type, 'code', identifierKey(code))),
    byName: async (name) => (await store.sameNameStakeholders(companyId, type, matchNameKey(name), SAME_NAME_LIMIT)).map((r) => keep(r)!),
    nameCandidates: async (prefix) => {
      const page = await store.listStakeholders({ companyId, type, search: prefix, source: 'all', limit: NAME_CANDIDATES });
      return page.items.map((r) => keep(r)!);
    },
  };
}

export interface CounterpartyMatch {
  stakeholder: StakeholderRecord;
  by: 'vat_id' | 'code' | 'name';
  /**
   * The party is surely the stakeholder (match.ts `isSureMatch`: its VAT ID or code, or the same normalised name);
   * false for a name only nearly equal, which suggests the stakeholder for review.
   */
  sure: boolean;
}

/** The register's stakeholder of the party recognised on a document (none: the party is new). */
export async function matchCounterparty(store: MasterDataStore, companyId: string, receiptType: ReceiptType, fields: ExtractedFields): Promise<CounterpartyMatch | undefined> {
  return matchParty(store, companyId, stakeholderTypeOf(receiptType), partyKeys(fields, stakeholderTypeOf(receiptType)));
}

/** The party's name, code and VAT ID as the document's content has them (supplier_* or customer_*). */
export function partyKeysOfContent(content: ContentDocument, type: StakeholderType): PartyKeys {
  const out: PartyKeys = {};
  const name = valueOf(content, `${type}_name`).trim();
  const code = valueOf(content, `${type}_code`).trim();
  const vat = valueOf(content, `${type}_vat_id`).trim();
  if (name) out.name = name;
  if (code) out.code = code;
  if (vat) out.vat_id = vat;
  return out;
}

/**
 * The register's stakeholder of a party (none: the party is new). `homeCountry`: the VAT prefix of a VAT ID printed
 * without one — the company's country; the company record keeps none, so the product's home (LT).
 */
export async function matchParty(
  store: MasterDataStore,
  companyId: string,
  type: StakeholderType,
  keys: PartyKeys,
  homeCountry: string = HOME_COUNTRY,
): Promise<CounterpartyMatch | undefined> {
  if (!keys.name && !keys.code && !keys.vat_id) return undefined;
  const seen = new Map<string, StakeholderRecord>();
  const m = await lookupStakeholder(keys, registerLookup(store, companyId, type, seen), homeCountry);
  if (m.isNew) return undefined;
  const stakeholder = seen.get(m.stakeholder.id);
  return stakeholder ? { stakeholder, by: m.by, sure: isSureMatch(m) } : undefined;
}

/**
 * The party's identity on the document as the register writes it: name, code and VAT ID from the
 * stakeholder (the place on the page kept), so the ready rule and the edit screen see a known party. A sure match
 * (`CounterpartyMatch.sure`) marks them read with full confidence; a name only nearly equal to the register's
 * (`sure` false) is a suggestion: the name stays under the ready rule's confidence, so the document waits for a
 * person to confirm the supplier — another shop of a similar name is not taken for a registered one.
 */
export function withStakeholderFields(fields: ExtractedFields, s: StakeholderRecord, sure = true): ExtractedFields {
  const role = s.type;
  const out: ExtractedFields = { ...fields };
  const set = (id: HeaderFieldId, value: string) => {
    const current = out[id];
    if (value && current) out[id] = { ...current, value, confidence: sure ? 100 : Math.min(current.confidence, READY_CONFIDENCE - 1) };
  };
  set(`${role}_name`, s.name);
  set(`${role}_code`, s.code);
  set(`${role}_vat_id`, s.vat_id);
  return out;
}

/**
 * The content's party fields filled from the stakeholder: name, code and VAT ID always (the register's
 * spelling), street, city, zip code and country where nothing was read, and the date format.
 */
export function applyStakeholderToContent(content: ContentDocument, s: StakeholderRecord): ContentDocument {
  const role = s.type;
  const updates: ValueUpdate[] = [];
  const put = (field: string, value: string, onlyWhenEmpty: boolean) => {
    const dp = datapointBySchemaId(content, `${role}_${field}`);
    if (!dp || !value) return;
    const current = valueOf(content, `${role}_${field}`);
    if (current === value || (onlyWhenEmpty && current.trim())) return;
    updates.push({ id: dp.id, value, confidence: current ? (dp.content?.confidence ?? null) : null });
  };
  put('name', s.name, false);
  put('code', s.code, false);
  put('vat_id', s.vat_id, false);
  put('street', s.street, true);
  put('city', s.city, true);
  put('zipcode', s.zipcode, true);
  put('country', s.country, true);
  put('date_format', s.selected_date_format ?? '', false);
  return updates.length ? setValues(content, updates) : content;
}

/** What a matched stakeholder sets on the document record. */
export interface CounterpartyFacts {
  stakeholder_id: string | null;
  category_id: string | null;
  category: string | null;
  stakeholder_date_format: StakeholderDateFormat | null;
}

/** The stakeholder's category (one GetItem); a category deleted since is none. */
export async function counterpartyFacts(store: MasterDataStore, companyId: string, s: StakeholderRecord): Promise<CounterpartyFacts> {
  const category: CategoryRecord | undefined = s.category_id ? await store.getCategory(companyId, s.category_id) : undefined;
  return {
    stakeholder_id: s.id,
    category_id: category?.id ?? null,
    category: category?.name ?? null,
    stakeholder_date_format: s.selected_date_format ?? null,
  };
}


/** The words of the lines' descriptions sent to the item look-up (`itemLookupWords`): each once, at most ITEM_LOOKUP_WORDS. */
export function lineWords(fields: ExtractedFields): string[] {
  const words = new Set<string>();
  for (const li of fields.line_items) {
    for (const w of itemLookupWords(li.description?.value ?? '')) {
      words.add(w);
      if (words.size >= ITEM_LOOKUP_WORDS) return [...words];
    }
  }
  return [...words];
}

function asCatalogueItem(i: ItemRecord): CatalogueItem {
  return { id: i.name_id, name: i.name, words: i.words };
}

/**
 * Line items matched to the company's items (one bounded look-up by the descriptions' words): a matched
 * line's description becomes the item's name, as the register writes it; its place on the page is kept.
 * Returns the fields and how many lines matched.
 */
export async function matchLineItemsToRegister(store: MasterDataStore, companyId: string, fields: ExtractedFields): Promise<{ fields: ExtractedFields; matched: number }> {
  const words = lineWords(fields);
  if (!words.length) return { fields, matched: 0 };
  const items = await store.findItemsByWords(companyId, words, ITEM_LOOKUP_LIMIT);
  if (!items.length) return { fields, matched: 0 };
  const catalogue = items.slice(0, ITEM_LOOKUP_LIMIT).map(asCatalogueItem);
  let matched = 0;
  const lines = fields.line_items.map((li) => {
    if (!li.description) return li;
    const m = matchItem({ ...(li.product_code ? { product_code: li.product_code.value } : {}), description: li.description.value }, catalogue);
    if (m.isNew) return li;
    matched += 1;
    return { ...li, description: { ...li.description, value: m.item.name } };
  });
  return { fields: { ...fields, line_items: lines }, matched };
}
