import { MSG } from '../../../../../shared/schemas/messages';
import {
  createCategorySchema,
  createItemSchema,
  createStakeholderSchema,
  updateCategorySchema,
  updateItemSchema,
  updateStakeholderSchema,
  type Category,
  type CreateCategoryInput,
  type CreateItemInput,
  type CreateStakeholderInput,
  type Item,
  type Stakeholder,
  type StakeholderType,
  type UpdateCategoryInput,
  type UpdateItemInput,
  type UpdateStakeholderInput,
} from '../../../../../shared/schemas/master-data';
import { ApiError, messageOf, type FieldErrors } from '../../../lib/api-error';
import { changedFields, issuesToFieldErrors, type ValidationResult, type Validator } from '../../../lib/validation';
import type { MasterKind } from './screens';

/** The optional text fields of a stakeholder, in the order the forms show them. */
export const STAKEHOLDER_TEXT_FIELDS = ['vat_id', 'street', 'city', 'zipcode'] as const;

// ------------------------------------------------------------------ suppliers and customers

/** The add form: every field a string; company_id only counts in the all-companies view. */
export type StakeholderAddValues = {
  name: string;
  code: string;
  vat_id: string;
  street: string;
  city: string;
  country: string;
  zipcode: string;
  category_id: string;
  company_id: string;
};

export const EMPTY_STAKEHOLDER: StakeholderAddValues = {
  name: '',
  code: '',
  vat_id: '',
  street: '',
  city: '',
  country: '',
  zipcode: '',
  category_id: '',
  company_id: '',
};

export interface CreateRequest<T> {
  /** The company the record is created in; undefined: the active company. */
  companyId: string | undefined;
  input: T;
}

function withCompany<V extends { company_id: string }, T>(
  values: V,
  allCompanies: boolean,
  r: { success: true; data: T } | { success: false; error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> } },
): ValidationResult<CreateRequest<T>> {
  const errors: FieldErrors = r.success ? {} : issuesToFieldErrors(r.error.issues);
  if (allCompanies && !values.company_id) errors.company_id = MSG.required;
  if (!r.success || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, data: { companyId: allCompanies ? values.company_id : undefined, input: r.data }, errors: {} };
}

/** POST stakeholder: name and code required, blank optional fields left out (rules.md 5). */
export function stakeholderAddValidator(type: StakeholderType, allCompanies: boolean): Validator<StakeholderAddValues, CreateRequest<CreateStakeholderInput>> {
  return (values) => {
    const input: Record<string, unknown> = { type, name: values.name, code: values.code };
    for (const f of [...STAKEHOLDER_TEXT_FIELDS, 'country', 'category_id'] as const) {
      if (values[f].trim() !== '') input[f] = values[f];
    }
    return withCompany(values, allCompanies, createStakeholderSchema.safeParse(input));
  };
}

/** The edit pop-up: the fields of product.md "Edit supplier/customer"; '' is "none" for category and date format. */
export type StakeholderEditValues = {
  name: string;
  code: string;
  vat_id: string;
  category_id: string;
  street: string;
  city: string;
  country: string;
  zipcode: string;
  selected_date_format: string;
};

export function stakeholderEditValues(s: Stakeholder): StakeholderEditValues {
  return {
    name: s.name,
    code: s.code,
    vat_id: s.vat_id,
    category_id: s.category?.id ?? s.category_id ?? '',
    street: s.street,
    city: s.city,
    country: s.country,
    zipcode: s.zipcode,
    selected_date_format: s.selected_date_format ?? '',
  };
}

/** What an edit sends: the id and only the changed fields; `changed` is false when there is nothing to send. */
export interface EditRequest<T> {
  changed: boolean;
  input: T;
}

/** PUT stakeholder: only the changed fields, validated; '' category or date format is sent as null (removed). */
export function stakeholderEditValidator(initial: StakeholderEditValues, id: string): Validator<StakeholderEditValues, EditRequest<UpdateStakeholderInput>> {
  return (values) => {
    const changes: Record<string, unknown> = { ...changedFields(initial, values) };
    if (changes.category_id === '') changes.category_id = null;
    if (changes.selected_date_format === '') changes.selected_date_format = null;
    // what the changed fields were when the pop-up read them: one someone else saved since is refused, not overwritten
    const keys = Object.keys(changes) as (keyof StakeholderEditValues)[];
    const before = Object.fromEntries(keys.map((k) => [k, (k === 'category_id' || k === 'selected_date_format') && initial[k] === '' ? null : initial[k]]));
    const r = updateStakeholderSchema.safeParse(keys.length ? { id, ...changes, before } : { id });
    if (!r.success) return { ok: false, errors: issuesToFieldErrors(r.error.issues) };
    return { ok: true, data: { changed: Object.keys(changes).length > 0, input: r.data }, errors: {} };
  };
}

// ------------------------------------------------------------------ categories

export type CategoryAddValues = { name: string; category_code: string; company_id: string };
export const EMPTY_CATEGORY: CategoryAddValues = { name: '', category_code: '', company_id: '' };

export function categoryAddValidator(allCompanies: boolean): Validator<CategoryAddValues, CreateRequest<CreateCategoryInput>> {
  return (values) =>
    withCompany(values, allCompanies, createCategorySchema.safeParse({ name: values.name, category_code: values.category_code }));
}

export type CategoryEditValues = { name: string; category_code: string };

export function categoryEditValues(c: Category): CategoryEditValues {
  return { name: c.name, category_code: c.category_code };
}

/**
 * PUT category: name required, code optional, only changed fields and what they were when read (`before`); no
 * change: nothing to send (rules.md 5).
 */
export function categoryEditValidator(initial: CategoryEditValues, id: string): Validator<CategoryEditValues, EditRequest<UpdateCategoryInput>> {
  return (values) => {
    const changes = changedFields(initial, values);
    const keys = Object.keys(changes) as (keyof CategoryEditValues)[];
    const before = Object.fromEntries(keys.map((k) => [k, initial[k]]));
    const r = updateCategorySchema.safeParse(keys.length ? { id, ...changes, before } : { id });
    if (!r.success) return { ok: false, errors: issuesToFieldErrors(r.error.issues) };
    return { ok: true, data: { changed: Object.keys(changes).length > 0, input: r.data }, errors: {} };
  };
}

// ------------------------------------------------------------------ items

/** One word row of the item forms (Word 1, Word 2, …); `key` keeps React rows stable when one is removed. */
export interface WordRow {
  key: number;
  value: string;
}

let nextWordKey = 1;
export function wordRow(value = ''): WordRow {
  return { key: nextWordKey++, value };
}

export function wordRows(words: ReadonlyArray<string>): WordRow[] {
  return words.map((w) => wordRow(w));
}

/** The words an item keeps: trimmed, blank rows dropped (product.md "Edit forms"). */
export function keptWords(rows: ReadonlyArray<WordRow>): string[] {
  return rows.map((r) => r.value.trim()).filter((w) => w !== '');
}

export interface ItemFormValues {
  name: string;
  words: WordRow[];
  company_id: string;
}

/** Field errors of the item forms: `name`, `words`, `words.<row>`. */
function itemErrors(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): FieldErrors {
  return issuesToFieldErrors(issues);
}

export function itemAddValidator(allCompanies: boolean): (values: ItemFormValues) => ValidationResult<CreateRequest<CreateItemInput>> {
  return (values) => {
    const r = createItemSchema.safeParse({ name: values.name, words: values.words.map((w) => w.value) });
    const errors = r.success ? {} : itemErrors(r.error.issues);
    if (allCompanies && !values.company_id) errors.company_id = MSG.required;
    if (!r.success || Object.keys(errors).length > 0) return { ok: false, errors };
    return { ok: true, data: { companyId: allCompanies ? values.company_id : undefined, input: r.data }, errors: {} };
  };
}

/** PUT item: name when changed, words when the kept words differ. */
export function itemEditValidator(item: Pick<Item, 'name' | 'name_id' | 'words'>): (values: ItemFormValues) => ValidationResult<EditRequest<UpdateItemInput>> {
  return (values) => {
    const changes: Record<string, unknown> = {};
    if (values.name.trim() !== item.name.trim()) changes.name = values.name;
    const words = keptWords(values.words);
    if (words.length !== item.words.length || words.some((w, i) => w !== item.words[i])) changes.words = values.words.map((w) => w.value);
    const r = updateItemSchema.safeParse({ name_id: item.name_id, ...changes });
    if (!r.success) return { ok: false, errors: itemErrors(r.error.issues) };
    return { ok: true, data: { changed: Object.keys(changes).length > 0, input: r.data }, errors: {} };
  };
}

// ------------------------------------------------------------------ server answers

/**
 * Field errors of a failed write (422 details). The server names a duplicate code `code`; the category
 * forms call that field `category_code`.
 */
export function serverFieldErrors(kind: MasterKind, err: unknown): FieldErrors {
  if (!(err instanceof ApiError)) return {};
  const out: FieldErrors = {};
  for (const [key, message] of Object.entries(err.fieldErrors)) {
    out[kind === 'category' && key === 'code' ? 'category_code' : key] = message;
  }
  return out;
}

/**
 * The fields each form shows (the company field only in the all-companies view, formFields). A server error on
 * a field a form does not show goes to the info pop-up (routeServerError); `words` covers the rows `words.<n>`.
 */
export const FORM_FIELDS = {
  stakeholderAdd: ['name', 'code', 'vat_id', 'street', 'city', 'country', 'zipcode', 'category_id'],
  stakeholderEdit: ['name', 'code', 'vat_id', 'category_id', 'street', 'city', 'country', 'zipcode', 'selected_date_format'],
  category: ['name', 'category_code'],
  item: ['name', 'words'],
} as const satisfies Record<string, ReadonlyArray<string>>;

/** An add form's fields: with the company field in the all-companies view. */
export function formFields(fields: ReadonlyArray<string>, allCompanies: boolean): ReadonlyArray<string> {
  return allCompanies ? [...fields, 'company_id'] : fields;
}

/** The names the pop-up gives the fields a form does not show. */
const HIDDEN_FIELD_LABELS: Record<string, string> = { company_id: 'Company' };

/** Where a failed write's messages go: under the fields the form shows, and everything else in the info pop-up. */
export interface ServerErrorRoute {
  fields: FieldErrors;
  /** For the info pop-up: the messages no shown field takes, or the error's own message when it names no field. */
  popup: string | null;
}

/**
 * Routes a failed write (one rule for every master-data form): each field error goes under the field the form
 * shows; one on a field the form does not show (company_id on the one-company form) is said in the pop-up with
 * the field's name, so that no message is lost; an error without field details is the pop-up's message, or
 * `unnamed` under fields where the form says so (rules.md 8: the edit category failure under the name).
 */
export function routeServerError(kind: MasterKind, err: unknown, shown: ReadonlyArray<string>, unnamed?: FieldErrors): ServerErrorRoute {
  const all = serverFieldErrors(kind, err);
  if (Object.keys(all).length === 0) return unnamed ? { fields: unnamed, popup: null } : { fields: {}, popup: messageOf(err) };
  const fields: FieldErrors = {};
  const rest: string[] = [];
  for (const [key, message] of Object.entries(all)) {
    if (shown.some((f) => key === f || key.startsWith(`${f}.`))) fields[key] = message;
    else rest.push(`${HIDDEN_FIELD_LABELS[key] ?? (key || messageOf(err))}: ${message}`);
  }
  return { fields, popup: rest.length > 0 ? rest.join('; ') : null };
}
