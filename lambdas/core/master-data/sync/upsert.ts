/**
 * Writing imported rows into master data: insert or update by code (suppliers, customers, categories) and by
 * name (items, whose identity in the product is their name), marking the record external (shown as DB) with the
 * source's key as `external_ref`. A row that changes nothing writes nothing ("unchanged"), so a second sync of
 * the same data creates and updates nothing. Nothing is ever deleted: a record that left the source stays, as do
 * the documents that use it. Fields the product keeps for its own (category, date format, delivery, recognition
 * flag, item words) are never overwritten, nor are fields the source does not give (columns the mapping leaves out).
 *
 * Codes are compared as the product compares them (without spaces, dashes and case) and items by their folded name,
 * so two distinct source rows can land on one record (`AB-12` and `AB12`, `Kava` and `KAVA`). The record stays with
 * the source row it was imported from (its `external_ref`): another row that lands on it is rejected, naming that
 * row, and never overwrites it (so the record does not change back and forth between the two on every run).
 */
import { MASTER_TEXT_MAX, NAME_MIN } from '../../../../shared/constants';
import { isCountryCode } from '../../../../shared/countries';
import type { StakeholderType } from '../../../../shared/schemas/master-data';
import type { Clock, IdGenerator } from '../../ports';
import { nameKey } from '../keys';
import { DuplicateKeyError, type MasterDataStore } from '../ports';
import type { CategoryRecord, ItemRecord, StakeholderRecord } from '../types';

export interface UpsertDeps {
  masterData: MasterDataStore;
  clock: Clock;
  ids: IdGenerator;
}

export interface StakeholderRow {
  code: string;
  name: string;
  vat_id?: string;
  street?: string;
  city?: string;
  zipcode?: string;
  country?: string;
  email?: string;
}
export interface NamedRow {
  code: string;
  name: string;
}

export type UpsertOutcome = { outcome: 'created' | 'updated' | 'unchanged' } | { outcome: 'rejected'; reason: string };

const WRITE_ATTEMPTS = 3;

/** A source value as text: trimmed, at most MASTER_TEXT_MAX characters ('' for null). */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') return '';
  return String(value).replace(/\s+/g, ' ').trim().slice(0, MASTER_TEXT_MAX);
}

/** An imported record that belongs to another source row than `code` (records imported without a ref are taken over). */
const otherRow = (existing: { external: boolean; external_ref?: string | null }, code: string): existing is { external: true; external_ref: string } =>
  existing.external && typeof existing.external_ref === 'string' && existing.external_ref !== '' && existing.external_ref !== code;

const sameCode = (code: string, existing: { external_ref: string; name: string }) =>
  `${code}: same code as ${existing.external_ref} (${existing.name}) in the product; codes are compared without spaces, dashes and case`;

function isStale(error: unknown): boolean {
  const name = (error as { name?: string })?.name;
  return name === 'ConditionalCheckFailedException' || name === 'TransactionCanceledException';
}

function check(row: NamedRow): string | null {
  if (!row.code) return 'no code';
  if (row.name.length < NAME_MIN) return `${row.code}: name shorter than ${NAME_MIN} characters`;
  return null;
}

/** Retries a write that lost a race (stale version, or a code taken since the look-up). */
async function withRetries(label: string, attempt: () => Promise<UpsertOutcome>): Promise<UpsertOutcome> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      if ((isStale(error) || error instanceof DuplicateKeyError) && n < WRITE_ATTEMPTS) continue;
      if (error instanceof DuplicateKeyError) return { outcome: 'rejected', reason: `${label}: another record has the same ${error.field}` };
      if (isStale(error)) return { outcome: 'rejected', reason: `${label}: changed by someone else during the sync` };
      throw error;
    }
  }
}

/** What an imported record holds besides the fields its row sets. */
interface ImportedBase {
  company_id: string;
  external: boolean;
  external_ref?: string | null;
  created_at: string;
  updated_at: string;
  version: number;
}

/** The import's marks on a record it creates. */
interface NewImported extends ImportedBase {
  external: true;
  external_ref: string;
}

/** How one kind of master data is found, written and made from a row. */
interface ImportedKind<R extends ImportedBase, F extends Partial<R>> {
  /** The record the row lands on (by code, or by folded name for items). */
  find(): Promise<R | undefined>;
  /** Writes `record`, conditioned on `previous` (a create when absent). */
  put(record: R, previous?: R): Promise<void>;
  /** A new record: the row's fields and the import's marks, the rest as the product starts them. */
  create(base: NewImported & F): R;
  /** Why the row is rejected when its record belongs to another source row. */
  collision(existing: R & { external_ref: string }): string;
}

/**
 * One row into one record: rejected when the record is another source row's, unchanged when it already holds the
 * row's fields as this row's import, else updated (only `fields`, conditioned on the version read) or created.
 */
function upsertImported<R extends ImportedBase, F extends Partial<R>>(deps: UpsertDeps, companyId: string, row: NamedRow, fields: F, kind: ImportedKind<R, F>): Promise<UpsertOutcome> {
  const invalid = check(row);
  if (invalid) return Promise.resolve({ outcome: 'rejected', reason: invalid });
  return withRetries(row.code, async () => {
    const existing = await kind.find();
    const now = deps.clock.now().toISOString();
    if (existing) {
      if (otherRow(existing, row.code)) return { outcome: 'rejected', reason: kind.collision(existing) };
      const same = (Object.keys(fields) as (keyof F & keyof R)[]).every((k) => (existing[k] as unknown) === fields[k]);
      if (same && existing.external && existing.external_ref === row.code) return { outcome: 'unchanged' };
      await kind.put({ ...existing, ...fields, external: true, external_ref: row.code, updated_at: now, version: existing.version + 1 }, existing);
      return { outcome: 'updated' };
    }
    await kind.put(kind.create({ ...fields, company_id: companyId, external: true, external_ref: row.code, created_at: now, updated_at: now, version: 1 }));
    return { outcome: 'created' };
  });
}

export function upsertStakeholder(deps: UpsertDeps, companyId: string, type: StakeholderType, row: StakeholderRow): Promise<UpsertOutcome> {
  // Only what the source gives is written (a column the mapping leaves empty is not imported, and keeps what is
  // stored); a country that is not an ISO code on the list ('Lietuva') is not taken either.
  const country = row.country?.toUpperCase();
  const given: Partial<Record<'vat_id' | 'street' | 'city' | 'zipcode' | 'country' | 'email', string>> = {
    vat_id: row.vat_id,
    street: row.street,
    city: row.city,
    zipcode: row.zipcode,
    country: country !== undefined && isCountryCode(country) ? country : undefined,
    email: row.email,
  };
  const imported = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) as typeof given;
  return upsertImported<StakeholderRecord, Partial<StakeholderRecord>>(deps, companyId, row, { name: row.name, code: row.code, ...imported }, {
    find: () => deps.masterData.findStakeholder(companyId, type, 'code', row.code),
    put: (record, previous) => deps.masterData.putStakeholder(record, previous),
    create: (base) => ({
      id: deps.ids.newId(),
      type,
      name: row.name,
      code: row.code,
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
      ...base,
    }),
    collision: (existing) => sameCode(row.code, existing),
  });
}

export function upsertCategory(deps: UpsertDeps, companyId: string, row: NamedRow): Promise<UpsertOutcome> {
  return upsertImported<CategoryRecord, Pick<CategoryRecord, 'name' | 'category_code'>>(deps, companyId, row, { name: row.name, category_code: row.code }, {
    find: () => deps.masterData.findCategory(companyId, 'code', row.code),
    put: (record, previous) => deps.masterData.putCategory(record, previous),
    create: (base) => ({ id: deps.ids.newId(), ...base }),
    collision: (existing) => sameCode(row.code, existing),
  });
}

export function upsertItem(deps: UpsertDeps, companyId: string, row: NamedRow): Promise<UpsertOutcome> {
  const nameId = nameKey(row.name);
  return upsertImported<ItemRecord, Pick<ItemRecord, 'name'>>(deps, companyId, row, { name: row.name }, {
    find: () => deps.masterData.getItem(companyId, nameId),
    put: (record, previous) => deps.masterData.putItem(record, previous),
    create: (base) => ({ name_id: nameId, words: [], ...base }),
    collision: (existing) =>
      `${row.code}: same name as ${existing.name} (${existing.external_ref}) in the product; item names are compared without case and accents`,
  });
}
