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

export function upsertStakeholder(deps: UpsertDeps, companyId: string, type: StakeholderType, row: StakeholderRow): Promise<UpsertOutcome> {
  const invalid = check(row);
  if (invalid) return Promise.resolve({ outcome: 'rejected', reason: invalid });
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
  const fields = { name: row.name, code: row.code, ...imported };
  return withRetries(row.code, async () => {
    const existing = await deps.masterData.findStakeholder(companyId, type, 'code', row.code);
    const now = deps.clock.now().toISOString();
    if (existing) {
      if (otherRow(existing, row.code)) return { outcome: 'rejected', reason: sameCode(row.code, existing) };
      const same = (Object.keys(fields) as (keyof typeof fields)[]).every((k) => existing[k] === fields[k]);
      if (same && existing.external && existing.external_ref === row.code) return { outcome: 'unchanged' };
      await deps.masterData.putStakeholder(
        { ...existing, ...fields, external: true, external_ref: row.code, updated_at: now, version: existing.version + 1 },
        existing,
      );
      return { outcome: 'updated' };
    }
    const record: StakeholderRecord = {
      id: deps.ids.newId(),
      type,
      vat_id: '',
      street: '',
      city: '',
      zipcode: '',
      country: '',
      email: '',
      ...fields,
      delivery: '',
      category_id: null,
      selected_date_format: null,
      recognise_details: false,
      company_id: companyId,
      external: true,
      external_ref: row.code,
      created_at: now,
      updated_at: now,
      version: 1,
    };
    await deps.masterData.putStakeholder(record);
    return { outcome: 'created' };
  });
}

export function upsertCategory(deps: UpsertDeps, companyId: string, row: NamedRow): Promise<UpsertOutcome> {
  const invalid = check(row);
  if (invalid) return Promise.resolve({ outcome: 'rejected', reason: invalid });
  return withRetries(row.code, async () => {
    const existing = await deps.masterData.findCategory(companyId, 'code', row.code);
    const now = deps.clock.now().toISOString();
    if (existing) {
      if (otherRow(existing, row.code)) return { outcome: 'rejected', reason: sameCode(row.code, existing) };
      if (existing.name === row.name && existing.category_code === row.code && existing.external && existing.external_ref === row.code) return { outcome: 'unchanged' };
      await deps.masterData.putCategory(
        { ...existing, name: row.name, category_code: row.code, external: true, external_ref: row.code, updated_at: now, version: existing.version + 1 },
        existing,
      );
      return { outcome: 'updated' };
    }
    const record: CategoryRecord = {
      id: deps.ids.newId(),
      name: row.name,
      category_code: row.code,
      company_id: companyId,
      external: true,
      external_ref: row.code,
      created_at: now,
      updated_at: now,
      version: 1,
    };
    await deps.masterData.putCategory(record);
    return { outcome: 'created' };
  });
}

export function upsertItem(deps: UpsertDeps, companyId: string, row: NamedRow): Promise<UpsertOutcome> {
  const invalid = check(row);
  if (invalid) return Promise.resolve({ outcome: 'rejected', reason: invalid });
  const nameId = nameKey(row.name);
  return withRetries(row.code, async () => {
    const existing = await deps.masterData.getItem(companyId, nameId);
    const now = deps.clock.now().toISOString();
    if (existing) {
      if (otherRow(existing, row.code)) {
        return { outcome: 'rejected', reason: `${row.code}: same name as ${existing.name} (${existing.external_ref}) in the product; item names are compared without case and accents` };
      }
      if (existing.name === row.name && existing.external && existing.external_ref === row.code) return { outcome: 'unchanged' };
      await deps.masterData.putItem({ ...existing, name: row.name, external: true, external_ref: row.code, updated_at: now, version: existing.version + 1 }, existing);
      return { outcome: 'updated' };
    }
    const record: ItemRecord = {
      name_id: nameId,
      name: row.name,
      words: [],
      company_id: companyId,
      external: true,
      external_ref: row.code,
      created_at: now,
      updated_at: now,
      version: 1,
    };
    await deps.masterData.putItem(record);
    return { outcome: 'created' };
  });
}
