/**
 * The edit screen and master data (docs/recognition.md, "Master data"): the document's category chosen by
 * id (or by its id in an integration), and on confirm the supplier/customer of the content linked to the
 * register — matched like recognition matches it, or created when it is new, so that the next document of
 * the same party matches.
 */
import { AppError } from '../../../shared/errors';
import type { ReceiptSummary } from '../../../shared/schemas/receipts';
import { createStakeholderSchema, dateFormatSchema, type CreateStakeholderInput, type StakeholderDateFormat, type StakeholderType } from '../../../shared/schemas/master-data';
import { matchParty, partyKeysOfContent, stakeholderTypeOf, type CounterpartyMatch } from '../documents/counterparty';
import type { DocumentRecord } from '../documents/types';
import type { MasterDataPatch } from '../documents/workflow';
import { matchNameKey } from '../master-data/keys';
import type { MasterDataStore } from '../master-data/ports';
import type { CategoryRecord, StakeholderRecord } from '../master-data/types';
import { identifiersDiffer, type PartyKeys } from '../recognition/match';
import type { ContentCaller } from './ports';
import { datapointBySchemaId, setValues, valueOf, type ContentDocument } from './tree';

export const CATEGORY_NOT_FOUND = 'Choose a category from the list';

/** What the edit actions need from master data and the documents domain. */
export interface EditMasterData {
  store: MasterDataStore;
  /** Sets the document's stakeholder and/or category (a versioned documents edit). */
  setMasterData(caller: ContentCaller, receiptId: string, patch: MasterDataPatch, history: string, version: number | undefined): Promise<ReceiptSummary>;
  /**
   * The register's stakeholder for a confirmed party, created when there is none (master data's
   * ensureStakeholder: uniqueness guards, a concurrent creation answers the first); undefined when the
   * party cannot be kept.
   */
  ensureStakeholder(companyId: string, type: StakeholderType, input: CreateStakeholderInput): Promise<{ stakeholder: StakeholderRecord; created: boolean } | undefined>;
  /**
   * Writes a confirm's date format to the matched stakeholder (master data's setStakeholderDateFormat: that field
   * only, conditioned on its version, a live master-data event); returns the stakeholder as stored. Without it a
   * confirm leaves the register's format as it is.
   */
  setDateFormat?(stakeholder: StakeholderRecord, format: StakeholderDateFormat): Promise<StakeholderRecord>;
  /**
   * Writes a confirm's category to the matched stakeholder (master data's setStakeholderCategory: that field only,
   * conditioned on its version, a category of the stakeholder's company only, a live master-data event); returns the
   * stakeholder as stored. Without it a confirm leaves a matched stakeholder's category as it is.
   */
  setCategory?(stakeholder: StakeholderRecord, categoryId: string): Promise<StakeholderRecord>;
}

/**
 * The category patch of an edit: `category_id` must be a category of the document's company (another
 * company's or an unknown id is a field error, 422), null removes it; `external_category_id` names the
 * category by its code, which is the category's id in the accounting system it was imported from.
 * Returns undefined when the edit does not touch the category.
 */
export async function categoryPatch(
  store: MasterDataStore,
  record: DocumentRecord,
  input: { category_id?: string | null; external_category_id?: string | null },
): Promise<MasterDataPatch | undefined> {
  if (input.category_id === undefined && input.external_category_id === undefined) return undefined;
  const field = input.category_id !== undefined ? 'category_id' : 'external_category_id';
  const refuse = () => new AppError('ValidationFailed', CATEGORY_NOT_FOUND, [{ path: [field], message: CATEGORY_NOT_FOUND }]);
  if (input.category_id === null || (input.category_id === undefined && input.external_category_id === null)) {
    return { category_id: null, category: null, external_category_id: null };
  }
  if (!record.company_id) throw refuse();
  let category: CategoryRecord | undefined;
  if (input.category_id) category = await store.getCategory(record.company_id, input.category_id);
  else if (input.external_category_id) category = await store.findCategory(record.company_id, 'code', input.external_category_id);
  if (!category) throw refuse();
  return {
    category_id: category.id,
    category: category.name,
    external_category_id: input.external_category_id ?? (category.external ? (category.external_ref ?? category.category_code) || null : null),
  };
}

/** A new stakeholder from the content's party fields; undefined when they do not make a valid one (no name or no code). */
export function stakeholderFromContent(content: ContentDocument, type: StakeholderType): CreateStakeholderInput | undefined {
  const v = (field: string) => valueOf(content, `${type}_${field}`).trim();
  const vat = v('vat_id');
  const dateFormat = v('date_format');
  const parsed = createStakeholderSchema.safeParse({
    type,
    name: v('name'),
    // The register needs a code: a party printed without one is kept under its VAT ID.
    code: v('code') || vat,
    vat_id: vat,
    street: v('street'),
    city: v('city'),
    zipcode: v('zipcode'),
    ...(v('country') ? { country: v('country') } : {}),
    ...(dateFormat ? { selected_date_format: dateFormat } : {}),
  });
  if (parsed.success) return parsed.data;
  // A country or date format that is not on the list is left out rather than losing the party.
  const retry = createStakeholderSchema.safeParse({ type, name: v('name'), code: v('code') || vat, vat_id: vat, street: v('street'), city: v('city'), zipcode: v('zipcode') });
  return retry.success ? retry.data : undefined;
}

export type ConfirmOutcome =
  | {
      linked: 'matched' | 'created';
      stakeholderId: string;
      patch: MasterDataPatch;
      /**
       * The content's party values as the register has them now (by schema id), where they differ: name, date format,
       * and a matched party's code / VAT ID where the document's came with its link or are missing (`registerNumbers`).
       */
      content: Record<string, string>;
    }
  | {
      linked: 'none';
      reason: string;
      /** When the confirm undid the document's link (`registerIdentifiersUndone`): the stakeholder removed from the record. */
      patch?: MasterDataPatch;
      /** The content's party values the confirm cleared (by schema id): the register's code / VAT ID that came with the undone link. */
      content?: Record<string, string>;
    };

/** What a confirm knows about the document's printed dates (read lazily: the page's words are read only when needed). */
export interface ConfirmDates {
  /** The date format the confirmed dates show as printed (recognition/learn.ts confirmedDateOrder), if any tells. */
  printedOrder(): Promise<StakeholderDateFormat | undefined>;
}

const dayMonthOrder = (f: string | null | undefined) => (f === 'DD/MM/YYYY' ? 'DMY' : f === 'MM/DD/YYYY' ? 'MDY' : f ? 'YMD' : undefined);

/**
 * The date format a confirm gives the matched stakeholder (docs/recognition.md, "Date format": the latest word wins),
 * or undefined to leave it: the document's own Date format when a person set it on this document (it differs from
 * the register's format the document was given, `stakeholder_date_format`) and it differs from the stakeholder's;
 * else, for a cost document read with a register format that the stakeholder still has one of, the order its
 * confirmed dates show as printed when that order contradicts both: the reviewer corrected a date the register's
 * format had read (the learnt layout would read the next one so, and the register's format, applied after it, would
 * undo it). A date confirmed as the register's format read it tells nothing (a Send of a ready document confirms
 * what the machine read), so a document read before the format was changed in the register does not change it back.
 */
export async function confirmedDateFormat(record: DocumentRecord, content: ContentDocument, s: StakeholderRecord, dates?: ConfirmDates): Promise<StakeholderDateFormat | undefined> {
  const own = dateFormatSchema.safeParse(valueOf(content, `${s.type}_date_format`).trim());
  if (own.success && own.data !== (record.stakeholder_date_format ?? null)) return own.data !== s.selected_date_format ? own.data : undefined;
  if (!s.selected_date_format || !record.stakeholder_date_format || record.receipt_type !== 'receipt' || !dates) return undefined;
  const printed = await dates.printedOrder();
  if (!printed) return undefined;
  const order = dayMonthOrder(printed);
  return order !== dayMonthOrder(record.stakeholder_date_format) && order !== dayMonthOrder(s.selected_date_format) ? printed : undefined;
}

/**
 * The category a confirm teaches the stakeholder it matched (docs/recognition.md, "Master data"), or undefined to
 * leave it: the document's category when the stakeholder has none — or one deleted from the register since, which
 * processing already treats as none. A stakeholder with a category of its own keeps it: the register is what the
 * company keeps, a document's other choice is for that document. Only the document's company's stakeholder; whether
 * the category is still the company's is checked where it is written (setStakeholderCategory).
 */
export async function confirmedStakeholderCategory(store: MasterDataStore, record: DocumentRecord, s: StakeholderRecord): Promise<string | undefined> {
  if (!record.category_id || !record.company_id || s.company_id !== record.company_id || s.category_id === record.category_id) return undefined;
  if (s.category_id && (await store.getCategory(s.company_id, s.category_id))) return undefined;
  return record.category_id;
}

/**
 * A matched party's code and VAT ID on the document as the register has them now (by schema id), where they differ:
 * - a field the document lacks takes the register's value (as recognition fills it with a match);
 * - a field the document has takes it only when its value came with the link to this very stakeholder, not from the
 *   page or a person: the document was linked to the stakeholder before the confirm (recognition, a type change or an
 *   earlier confirm wrote the register's number of that time into it), the value has no place on the page (it was
 *   filled in from the register, not read), and it is no other stakeholder's number of the register (typed to name
 *   that party). So a code corrected in Suppliers since the upload reaches the document, and its exports.
 * The number the match was made by is the register's already (the same once compacted; a VAT ID with or without its
 * country letters); a number read on the page, or typed over one read there, stays: it names the party (spec: a code
 * that matches selects the stakeholder), and a VAT ID that differs is a member of a VAT group or a person's word.
 */
async function registerNumbers(store: MasterDataStore, record: DocumentRecord, content: ContentDocument, s: StakeholderRecord): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const field of ['code', 'vat_id'] as const) {
    const own = s[field]?.trim();
    const id = `${s.type}_${field}`;
    const dp = datapointBySchemaId(content, id);
    if (!own || !dp) continue;
    const value = dp.content?.value.trim() ?? '';
    if (!value) {
      out[id] = own;
      continue;
    }
    if (!identifiersDiffer({ [field]: value }, { [field]: own })) continue;
    if (record.stakeholder_id !== s.id || dp.content?.position) continue;
    const other = await store.findStakeholder(s.company_id, s.type, field === 'code' ? 'code' : 'vat', value);
    if (other && other.id !== s.id) continue;
    out[id] = own;
  }
  return out;
}

/**
 * A match a confirm takes: by VAT ID, by code, or by the same name as the register's once normalised (legal form,
 * case, accents and punctuation aside) — not recognition's tolerant name step (one slip in ten letters), which is
 * there for OCR: a name the person confirms is the name they mean ("UAB Kauno Gradai" is not "UAB Kauno Grudai"),
 * as GET isNewStakeholder already told the edit screen.
 */
function confirmable(found: CounterpartyMatch, keys: PartyKeys): boolean {
  return found.by !== 'name' || (keys.name !== undefined && matchNameKey(found.stakeholder.name) === matchNameKey(keys.name));
}

/**
 * The content's code and VAT ID fields that hold the register's values of the stakeholder the document was linked to,
 * when the person's typed name says the document is another party: the document is linked to the stakeholder found
 * by them, the name is a person's (a value without a reading's confidence) and is not that stakeholder's once
 * normalised, and each such field is the stakeholder's own value and has no place on the page (it was filled in from
 * the register with the link, not read). Empty when the link stands.
 *
 * A bookkeeper who retypes the supplier of a document means another supplier than the one the machine put there (a
 * shop of a similar name): the register's code and VAT ID belong to the supplier the machine chose and would put that
 * company's numbers into the books and tax reports under the typed name, so they go with the link. A code or VAT ID
 * printed on the page, or typed, still identifies the party (spec: a code that matches selects the stakeholder).
 */
export function registerIdentifiersUndone(record: DocumentRecord, content: ContentDocument, type: StakeholderType, found: CounterpartyMatch): string[] {
  const s = found.stakeholder;
  if (found.by === 'name' || !record.stakeholder_id || record.stakeholder_id !== s.id) return [];
  const name = datapointBySchemaId(content, `${type}_name`)?.content;
  if (!name?.value.trim() || name.confidence !== null || matchNameKey(name.value) === matchNameKey(s.name)) return [];
  const fromRegister = (field: 'code' | 'vat_id', own: string | null | undefined) => {
    const c = datapointBySchemaId(content, `${type}_${field}`)?.content;
    const compact = (v: string) => v.toUpperCase().replace(/[^A-Z0-9]/g, '');
    return Boolean(c?.value.trim() && own && !c.position && compact(c.value) === compact(own));
  };
  return (['code', 'vat_id'] as const).filter((f) => fromRegister(f, s[f])).map((f) => `${type}_${f}`);
}

/**
 * On confirm: the content's party is matched in the register like recognition matches it (VAT ID, code, name),
 * except that a party found only by the tolerant name step is not the register's (`confirmable`); a party that is
 * not there is created from the content (ensureStakeholder: exact VAT ID, code, name, else new), with the document's
 * category. A matched party's date format follows the confirm (`confirmedDateFormat`), one without a category learns
 * the document's (`confirmedStakeholderCategory`), and the document takes the register's current name and date format,
 * as recognition writes them (a party renamed since the upload is confirmed under its new name), and its code and VAT
 * ID where the document's came with the link or are missing (`registerNumbers`).
 */
export async function confirmStakeholder(md: EditMasterData, record: DocumentRecord, content: ContentDocument, dates?: ConfirmDates): Promise<ConfirmOutcome> {
  if (!record.company_id) return { linked: 'none', reason: 'unassigned' };
  const type = stakeholderTypeOf(record.receipt_type);
  const keys = partyKeysOfContent(content, type);
  if (!keys.name && !keys.code && !keys.vat_id) return { linked: 'none', reason: 'no party on the document' };
  const linked = async (how: 'matched' | 'created', found: StakeholderRecord): Promise<ConfirmOutcome> => {
    let s = found;
    const format = how === 'matched' && md.setDateFormat ? await confirmedDateFormat(record, content, s, dates) : undefined;
    if (format) s = await md.setDateFormat!(s, format);
    // A created stakeholder took the document's category with its creation (`ensureStakeholder`'s input).
    const category = how === 'matched' && md.setCategory ? await confirmedStakeholderCategory(md.store, record, s) : undefined;
    if (category) s = await md.setCategory!(s, category);
    const current: Record<string, string> = how === 'matched' ? await registerNumbers(md.store, record, content, s) : {};
    if (s.name && valueOf(content, `${type}_name`) !== s.name) current[`${type}_name`] = s.name;
    if (s.selected_date_format && valueOf(content, `${type}_date_format`) !== s.selected_date_format) current[`${type}_date_format`] = s.selected_date_format;
    return { linked: how, stakeholderId: s.id, patch: { stakeholder_id: s.id, stakeholder_date_format: s.selected_date_format ?? null }, content: current };
  };
  const found = await matchParty(md.store, record.company_id, type, keys);
  const undone = found ? registerIdentifiersUndone(record, content, type, found) : [];
  if (undone.length) return relinkTyped(md, record, content, type, keys, undone, linked);
  if (found && confirmable(found, keys)) return linked('matched', found.stakeholder);
  const input = stakeholderFromContent(content, type);
  if (!input) return { linked: 'none', reason: 'the party has no name of 2 characters or no code' };
  const ensured = await md.ensureStakeholder(record.company_id, type, withCategory(record, input));
  if (!ensured) return { linked: 'none', reason: 'the party cannot be kept' };
  return linked(ensured.created ? 'created' : 'matched', ensured.stakeholder);
}

/**
 * A new party's input with the document's category: a stakeholder a confirm creates takes it (ensureStakeholder keeps
 * it only when it is a category of the document's company; the confirm has refused a deleted one, `confirmedCategory`).
 */
function withCategory(record: DocumentRecord, input: CreateStakeholderInput): CreateStakeholderInput {
  return record.category_id ? { ...input, category_id: record.category_id } : input;
}

/**
 * A confirm whose typed name undid the document's link (`registerIdentifiersUndone`): the register's code and VAT ID
 * that came with the link are cleared, and the party is the typed name with what the document itself prints — the
 * register's stakeholder of that name (same name once normalised, whose code and VAT ID the content then takes), else
 * a new one when the content can make one (a printed code or VAT ID), else none: the document is confirmed under the
 * typed name without a stakeholder.
 */
async function relinkTyped(
  md: EditMasterData,
  record: DocumentRecord,
  content: ContentDocument,
  type: StakeholderType,
  keys: PartyKeys,
  undone: string[],
  linked: (how: 'matched' | 'created', s: StakeholderRecord) => Promise<ConfirmOutcome>,
): Promise<ConfirmOutcome> {
  const own: PartyKeys = { ...keys };
  if (undone.includes(`${type}_code`)) delete own.code;
  if (undone.includes(`${type}_vat_id`)) delete own.vat_id;
  const cleared: Record<string, string> = Object.fromEntries(undone.map((id) => [id, '']));
  const withCleared = (s: StakeholderRecord | undefined): Record<string, string> =>
    Object.fromEntries(undone.map((id) => [id, (id.endsWith('_vat_id') ? s?.vat_id : s?.code) ?? '']));
  // A stakeholder of the register gives its own numbers; a new one made from the content has none to give.
  const withOutcome = async (how: 'matched' | 'created', s: StakeholderRecord): Promise<ConfirmOutcome> => {
    const out = await linked(how, s);
    return out.linked === 'none' ? out : { ...out, content: { ...(how === 'matched' ? withCleared(s) : cleared), ...out.content } };
  };
  const again = own.name || own.code || own.vat_id ? await matchParty(md.store, record.company_id!, type, own) : undefined;
  if (again && confirmable(again, own)) return withOutcome('matched', again.stakeholder);
  const dps = undone.map((id) => datapointBySchemaId(content, id)).filter((dp) => dp !== undefined);
  const input = stakeholderFromContent(setValues(content, dps.map((dp) => ({ id: dp.id, value: '' }))), type);
  const ensured = input ? await md.ensureStakeholder(record.company_id!, type, withCategory(record, input)) : undefined;
  if (ensured) return withOutcome(ensured.created ? 'created' : 'matched', ensured.stakeholder);
  return {
    linked: 'none',
    reason: input ? 'the party cannot be kept' : 'the typed party has no code or VAT ID of its own',
    patch: { stakeholder_id: null, stakeholder_date_format: null },
    content: cleared,
  };
}

/**
 * The document's category on confirm (and on `ready`, which promises a confirm): one that was deleted from the
 * register is refused like a pick of an unknown one (422 'Choose a category from the list' under `category_id`; the
 * person picks another or none), and one renamed since it was set gives the document its current name. Returns the
 * name patch, or undefined when nothing changes.
 */
export async function confirmedCategory(store: MasterDataStore, record: DocumentRecord): Promise<MasterDataPatch | undefined> {
  if (!record.category_id) return undefined;
  const category = record.company_id ? await store.getCategory(record.company_id, record.category_id) : undefined;
  if (!category) throw new AppError('ValidationFailed', CATEGORY_NOT_FOUND, [{ path: ['category_id'], message: CATEGORY_NOT_FOUND }]);
  return category.name !== record.category ? { category: category.name } : undefined;
}
