/** Suppliers and customers (stakeholders): product.md 3, rules.md 5 "Names and master data validation". */
import { NAME_MIN } from '../../../shared/constants';
import { AppError, notFound } from '../../../shared/errors';
import type {
  CreateStakeholderInput,
  ListPage,
  Stakeholder,
  StakeholderDateFormat,
  StakeholdersQuery,
  StakeholderType,
  UpdateStakeholderInput,
} from '../../../shared/schemas/master-data';
import type { CompanyRecord } from '../accounts/types';
import { identifiersDiffer, oneOfSameName, oneOfSameVat, SAME_NAME_LIMIT, SAME_VAT_LIMIT, vatLookupKeys } from '../recognition/match';
import { identifierKey, matchNameKey, nameKey } from './keys';
import { codeIs, IDENTIFIER_HITS_MAX, vatIdIs, vatSearchKeys, withIdentifierHits } from './identifier-search';
import { companyOf, listPage, publishChange, requireCompanyId, sourceFor, withDuplicates, type MasterDataCaller, type MasterDataDeps } from './lists';
import { DuplicateKeyError } from './ports';
import type { CategoryRecord, StakeholderRecord } from './types';
import { toStakeholderView } from './views';
import { changedMeanwhile, changedMeanwhileError } from './edited-from';

export const UNKNOWN_CATEGORY_MSG = 'Choose a category of this company';

/** Fields a create or an update may set (everything but identity, type and bookkeeping). */
const EDITABLE = ['name', 'code', 'vat_id', 'street', 'city', 'zipcode', 'country', 'email', 'delivery', 'category_id', 'selected_date_format', 'recognise_details'] as const;
type Editable = (typeof EDITABLE)[number];

/** Views of stakeholders of one or more companies, their categories fetched in one batch per company. */
export async function stakeholderViews(deps: Pick<MasterDataDeps, 'masterData'>, records: StakeholderRecord[], companies: Map<string, CompanyRecord>): Promise<Stakeholder[]> {
  const byCompany = new Map<string, Set<string>>();
  for (const r of records) {
    if (!r.category_id) continue;
    const set = byCompany.get(r.company_id) ?? new Set<string>();
    set.add(r.category_id);
    byCompany.set(r.company_id, set);
  }
  const categories = new Map<string, CategoryRecord>();
  await Promise.all(
    [...byCompany].map(async ([companyId, ids]) => {
      for (const c of await deps.masterData.getCategories(companyId, [...ids])) categories.set(`${companyId}|${c.id}`, c);
    }),
  );
  return records.map((r) =>
    toStakeholderView(r, companies.get(r.company_id)?.name ?? '', r.category_id ? categories.get(`${r.company_id}|${r.category_id}`) : undefined),
  );
}

async function viewOne(deps: MasterDataDeps, record: StakeholderRecord, company?: CompanyRecord): Promise<Stakeholder> {
  const c = company ?? (await companyOf(deps.store, record.company_id));
  const [view] = await stakeholderViews(deps, [record], new Map([[c.company_id, c]]));
  return view!;
}

async function checkCategory(deps: MasterDataDeps, companyId: string, categoryId: string | null | undefined): Promise<void> {
  if (!categoryId) return;
  if (!(await deps.masterData.getCategory(companyId, categoryId))) {
    throw new AppError('ValidationFailed', UNKNOWN_CATEGORY_MSG, [{ path: ['category_id'], message: UNKNOWN_CATEGORY_MSG }]);
  }
}

type StakeholderFields = Partial<Pick<CreateStakeholderInput, Editable>>;

/** The stored value of a field as the API sends it (absent text fields are empty, absent choices null). */
function stored(field: Editable, value: unknown): unknown {
  if (field === 'category_id' || field === 'selected_date_format') return value ?? null;
  if (field === 'recognise_details') return value ?? false;
  return typeof value === 'string' ? value.trim() : '';
}

export function newStakeholderRecord(
  deps: Pick<MasterDataDeps, 'ids' | 'clock'>,
  companyId: string,
  type: StakeholderType,
  input: StakeholderFields & { name: string },
  extra: { external?: boolean; external_ref?: string } = {},
): StakeholderRecord {
  const now = deps.clock.now().toISOString();
  return {
    id: deps.ids.newId(),
    company_id: companyId,
    type,
    name: input.name.trim(),
    code: stored('code', input.code) as string,
    vat_id: stored('vat_id', input.vat_id) as string,
    street: stored('street', input.street) as string,
    city: stored('city', input.city) as string,
    zipcode: stored('zipcode', input.zipcode) as string,
    country: stored('country', input.country) as string,
    email: stored('email', input.email) as string,
    delivery: stored('delivery', input.delivery) as string,
    category_id: (input.category_id ?? null) as string | null,
    selected_date_format: (input.selected_date_format ?? null) as StakeholderDateFormat | null,
    recognise_details: input.recognise_details ?? false,
    external: extra.external ?? false,
    ...(extra.external_ref ? { external_ref: extra.external_ref } : {}),
    created_at: now,
    updated_at: now,
    version: 1,
  };
}

/** POST stakeholder: 201 with the view; a taken name or code is a field error. */
export async function createStakeholder(deps: MasterDataDeps, caller: MasterDataCaller, companyId: string, input: CreateStakeholderInput): Promise<Stakeholder> {
  const company = await companyOf(deps.store, companyId);
  await checkCategory(deps, companyId, input.category_id);
  const record = newStakeholderRecord(deps, companyId, input.type, input);
  await withDuplicates(input.type, () => deps.masterData.putStakeholder(record));
  await publishChange(deps.live, companyId, { kind: 'stakeholder', type: record.type, id: record.id });
  return viewOne(deps, record, company);
}

async function loadStakeholder(deps: MasterDataDeps, companyId: string, id: string): Promise<StakeholderRecord> {
  const record = await deps.masterData.getStakeholder(companyId, id);
  if (!record) throw notFound('Stakeholder not found');
  return record;
}

/** The fields of `input` whose stored value differs from `record` (what an update changes). */
export function stakeholderChanges(record: StakeholderRecord, input: StakeholderFields): Partial<StakeholderRecord> {
  const changes: Record<string, unknown> = {};
  for (const field of EDITABLE) {
    if (!(field in input) || input[field] === undefined) continue;
    const value = field === 'name' ? String(input.name).trim() : stored(field, input[field]);
    if (value !== record[field]) changes[field] = value;
  }
  return changes as Partial<StakeholderRecord>;
}

/** PUT stakeholder: stores only the changed fields; nothing changed → nothing written, the current view. */
export async function updateStakeholder(deps: MasterDataDeps, caller: MasterDataCaller, companyId: string, input: UpdateStakeholderInput): Promise<Stakeholder> {
  const current = await loadStakeholder(deps, companyId, input.id);
  const changes = stakeholderChanges(current, input);
  const meanwhile = changedMeanwhile(current, changes, input.before, (field, value) => (field === 'name' ? String(value ?? '').trim() : stored(field as Editable, value)));
  if (meanwhile.length) throw changedMeanwhileError(current.type, meanwhile, current, ['category_id']);
  if (Object.keys(changes).length === 0) return viewOne(deps, current);
  if ('category_id' in changes) await checkCategory(deps, companyId, changes.category_id);
  const next: StakeholderRecord = { ...current, ...changes, updated_at: deps.clock.now().toISOString(), version: current.version + 1 };
  await withDuplicates(current.type, () => deps.masterData.putStakeholder(next, current));
  await publishChange(deps.live, companyId, { kind: 'stakeholder', type: next.type, id: next.id });
  return viewOne(deps, next);
}

export async function deleteStakeholder(deps: MasterDataDeps, caller: MasterDataCaller, companyId: string, id: string): Promise<{ deleted: true; id: string }> {
  const record = await loadStakeholder(deps, companyId, id);
  await deps.masterData.deleteStakeholder(record);
  await publishChange(deps.live, companyId, { kind: 'stakeholder', type: record.type, id });
  return { deleted: true, id };
}

export async function getStakeholder(deps: MasterDataDeps, caller: MasterDataCaller, companyId: string, id: string): Promise<Stakeholder> {
  return viewOne(deps, await loadStakeholder(deps, companyId, id));
}

/** GET stakeholders: one company or all the caller's companies, sorted by name, 50 a page. */
export async function listStakeholders(deps: MasterDataDeps, caller: MasterDataCaller, query: StakeholdersQuery): Promise<ListPage<Stakeholder>> {
  return listPage(
    deps,
    caller,
    query,
    (company, cursor, limit) => {
      const source = sourceFor(company, 'display_imported_stakeholders', query.with_external_data);
      const types: StakeholderType[] = query.type ? [query.type] : ['supplier', 'customer'];
      return withIdentifierHits(
        {
          // M6 (the code's guard) and M7 (the VAT ID's look-up, with or without its country letters) of each listed type, by name
          hits: async (text) => {
            const found = await Promise.all(
              types.map(async (type) => [
                await deps.masterData.findStakeholder(company.company_id, type, 'code', text),
                ...(await Promise.all(vatSearchKeys(text).map((vat) => deps.masterData.sameVatStakeholders(company.company_id, type, vat, IDENTIFIER_HITS_MAX)))).flat(),
              ]),
            );
            const byId = new Map(found.flat().flatMap((r) => (r ? [[r.id, r] as const] : [])));
            return [...byId.values()].sort((a, b) => nameKey(a.name).localeCompare(nameKey(b.name))).slice(0, IDENTIFIER_HITS_MAX);
          },
          matches: (r, text) => codeIs(r.code, text) || vatIdIs(r.vat_id, text),
        },
        { search: query.search_name, source, cursor, limit },
        (names) => deps.masterData.listStakeholders({ companyId: company.company_id, type: query.type, search: query.search_name, source, limit: names, cursor }),
      );
    },
    (records, companies) => stakeholderViews(deps, records, companies),
  );
}

/**
 * The company's stakeholder a document's counterparty names: by VAT ID (as the processing matches it), then code,
 * then name key, then the recognition's normalised name (legal forms dropped). Empty values are not looked up.
 */
export async function matchStakeholder(
  deps: Pick<MasterDataDeps, 'masterData'>,
  companyId: string,
  type: StakeholderType,
  by: { vat_id?: string; code?: string; name?: string },
): Promise<StakeholderRecord | undefined> {
  const store = deps.masterData;
  // The processing's order (recognition/match.ts lookupStakeholder): the VAT ID as written, then without or with its
  // country letters; of a VAT group's members the one whose code does not contradict, else written as named.
  for (const vat of by.vat_id ? vatLookupKeys(by.vat_id) : []) {
    const found = oneOfSameVat(by, await store.sameVatStakeholders(companyId, type, identifierKey(vat), SAME_VAT_LIMIT));
    if (found) return found;
  }
  if (by.code && identifierKey(by.code)) {
    const found = await store.findStakeholder(companyId, type, 'code', by.code);
    if (found) return found;
  }
  if (by.name && nameKey(by.name)) {
    // Another company of the same name (its own VAT ID or code) is not this one; a name several share tells none.
    const exact = await store.findStakeholder(companyId, type, 'name', by.name);
    if (exact && !identifiersDiffer(by, exact)) return exact;
    const found = matchNameKey(by.name) ? oneOfSameName(by, await store.sameNameStakeholders(companyId, type, by.name, SAME_NAME_LIMIT)) : undefined;
    if (found) return found;
  }
  return undefined;
}

/** GET isNewStakeholder: does the code (first) or the name match a stakeholder of the company? */
export async function isNewStakeholder(
  deps: MasterDataDeps,
  caller: MasterDataCaller,
  query: { type: StakeholderType; name: string; code: string },
): Promise<{ isNewStakeholder: boolean; stakeholder: Stakeholder | null }> {
  const companyId = requireCompanyId(caller);
  if (query.name.trim() === '' && query.code.trim() === '') return { isNewStakeholder: false, stakeholder: null };
  const found = await matchStakeholder(deps, companyId, query.type, { code: query.code, name: query.name });
  if (!found) return { isNewStakeholder: true, stakeholder: null };
  return { isNewStakeholder: false, stakeholder: await viewOne(deps, found) };
}

/**
 * The stakeholder of a confirmed document: the existing one (by VAT ID, code, name) or a new one made from the
 * document's counterparty. Safe against a concurrent creation of the same stakeholder (the uniqueness guards
 * refuse the second; it then answers the first). Names shorter than 2 characters make no stakeholder.
 */
export async function ensureStakeholder(
  deps: MasterDataDeps,
  companyId: string,
  type: StakeholderType,
  input: StakeholderFields & { name: string },
): Promise<{ stakeholder: StakeholderRecord; created: boolean } | undefined> {
  const name = input.name.trim();
  if (name.length < NAME_MIN) return undefined;
  const existing = await matchStakeholder(deps, companyId, type, { vat_id: input.vat_id, code: input.code, name });
  if (existing) return { stakeholder: existing, created: false };
  const category_id = input.category_id && (await deps.masterData.getCategory(companyId, input.category_id)) ? input.category_id : null;
  const record = newStakeholderRecord(deps, companyId, type, { ...input, name, category_id });
  try {
    await deps.masterData.putStakeholder(record);
  } catch (error) {
    if (!(error instanceof DuplicateKeyError)) throw error;
    const raced = await matchStakeholder(deps, companyId, type, { code: input.code, name });
    if (raced) return { stakeholder: raced, created: false };
    // The name or code is another company's (its identifiers differ): this party cannot be kept under it.
    return undefined;
  }
  await publishChange(deps.live, companyId, { kind: 'stakeholder', type, id: record.id });
  return { stakeholder: record, created: true };
}

/**
 * A confirm's date format for the stakeholder it matched (docs/recognition.md, "Date format": the latest word wins):
 * only `selected_date_format` is written, conditioned on the version read like PUT stakeholder's write (a stakeholder
 * changed meanwhile → 409, nothing written), and open screens hear of it. The same format writes nothing.
 */
export async function setStakeholderDateFormat(
  deps: Pick<MasterDataDeps, 'masterData' | 'live' | 'clock'>,
  current: StakeholderRecord,
  format: StakeholderDateFormat,
): Promise<StakeholderRecord> {
  if (current.selected_date_format === format) return current;
  return writeLearnt(deps, current, { selected_date_format: format });
}

/**
 * One field a confirm teaches the stakeholder, written like PUT stakeholder's write: conditioned on the version read
 * (a stakeholder changed meanwhile → 409, nothing written), and open screens hear of it.
 */
async function writeLearnt(
  deps: Pick<MasterDataDeps, 'masterData' | 'live' | 'clock'>,
  current: StakeholderRecord,
  learnt: Pick<StakeholderRecord, 'selected_date_format'> | Pick<StakeholderRecord, 'category_id'>,
): Promise<StakeholderRecord> {
  const next: StakeholderRecord = { ...current, ...learnt, updated_at: deps.clock.now().toISOString(), version: current.version + 1 };
  await withDuplicates(current.type, () => deps.masterData.putStakeholder(next, current));
  await publishChange(deps.live, current.company_id, { kind: 'stakeholder', type: next.type, id: next.id });
  return next;
}

/**
 * A confirm's category for the stakeholder it matched (docs/recognition.md, "Master data": a stakeholder
 * without a category learns the one chosen on its document): only `category_id` is written, conditioned on the version
 * read like PUT stakeholder's write (a stakeholder changed meanwhile → 409, nothing written), and open screens hear of
 * it. The category must be one of the stakeholder's company (another company's or a deleted one writes nothing); the
 * same category writes nothing.
 */
export async function setStakeholderCategory(
  deps: Pick<MasterDataDeps, 'masterData' | 'live' | 'clock'>,
  current: StakeholderRecord,
  categoryId: string,
): Promise<StakeholderRecord> {
  if (current.category_id === categoryId) return current;
  if (!(await deps.masterData.getCategory(current.company_id, categoryId))) return current;
  return writeLearnt(deps, current, { category_id: categoryId });
}
