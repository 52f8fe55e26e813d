/**
 * Master data: suppliers and customers (stakeholders), categories and items (product.md 3, rules.md 5 and 7).
 * The API contract of the master-data routes; the web forms use the same schemas.
 */
import { z } from 'zod';
import { ITEM_WORDS_MAX, MASTER_TEXT_MAX, NAME_MIN, STAKEHOLDER_DATE_FORMATS } from '../constants';
import { isCountryCode } from '../countries';
import { MSG } from './messages';
import { singleLine } from './text';

/** Ids, cursors and other opaque strings: bounded so that no key of the table can overflow. */
export const idField = () => z.string().trim().min(1, MSG.required).max(128, 'At most 128 characters');
const cursorField = () => z.string().max(2048, 'At most 2048 characters');
const text = () => z.string().trim().max(MASTER_TEXT_MAX, `At most ${MASTER_TEXT_MAX} characters`).check(singleLine());
/** An empty name is a missing one ('Required field', rules.md 5); a name of one letter is too short. */
const nameField = () =>
  z.string({ error: MSG.required }).trim().min(1, MSG.required).pipe(z.string().min(NAME_MIN, MSG.nameMin).max(MASTER_TEXT_MAX, `At most ${MASTER_TEXT_MAX} characters`)).check(singleLine());
const anyRequiredText = () => z.string({ error: MSG.required }).trim().min(1, MSG.required).max(MASTER_TEXT_MAX, `At most ${MASTER_TEXT_MAX} characters`);
/** Typed text is refused with control characters (shared/schemas/text.ts); stored names are looked up as they are. */
const requiredText = () => anyRequiredText().check(singleLine());
/** Query flags arrive as strings: 1/true/yes are true. */
const queryFlag = () =>
  z
    .union([z.boolean(), z.string().max(5)])
    .optional()
    .transform((v) => v === true || v === '1' || v === 'true' || v === 'yes');

export const stakeholderTypeSchema = z.enum(['supplier', 'customer']);
export type StakeholderType = z.infer<typeof stakeholderTypeSchema>;

export const dateFormatSchema = z.enum(STAKEHOLDER_DATE_FORMATS);
export type StakeholderDateFormat = z.infer<typeof dateFormatSchema>;

/** Two-letter country code from the country list, upper-cased; empty means none. */
export const countryField = () =>
  z
    .string()
    .trim()
    .max(2, 'Choose a country from the list')
    .transform((v) => v.toUpperCase())
    .refine((v) => v === '' || isCountryCode(v), 'Choose a country from the list');

// ------------------------------------------------------------------ entities (answers)

export const categoryRefSchema = z.object({ id: z.string(), name: z.string() });

export const stakeholderSchema = z.object({
  id: z.string(),
  type: stakeholderTypeSchema,
  name: z.string(),
  code: z.string(),
  vat_id: z.string(),
  street: z.string(),
  city: z.string(),
  zipcode: z.string(),
  country: z.string(),
  email: z.string(),
  /** Customers only: delivery address. */
  delivery: z.string(),
  category: categoryRefSchema.nullable(),
  category_id: z.string().nullable(),
  company_id: z.string(),
  company_name: z.string(),
  selected_date_format: dateFormatSchema.nullable(),
  list_date_formats: z.array(dateFormatSchema),
  recognise_details: z.boolean(),
  /** Imported from an integration (shown as DB). */
  external: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Stakeholder = z.infer<typeof stakeholderSchema>;

export const categorySchema = z.object({
  id: z.string(),
  name: z.string(),
  category_code: z.string(),
  company_id: z.string(),
  company_name: z.string(),
  external: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Category = z.infer<typeof categorySchema>;

export const itemSchema = z.object({
  /** The item's key: its name folded (lower case, single spaces); unique per company. */
  name_id: z.string(),
  name: z.string(),
  words: z.array(z.string()),
  company_id: z.string(),
  company_name: z.string(),
  /** Imported from an integration (shown as DB), as a stakeholder's or category's. */
  external: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Item = z.infer<typeof itemSchema>;

/** A list page (product.md 3 "List pages"): `next` continues in the same company, `next_company` in the next one (selected=ALL). */
export const listPageSchema = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), next: z.string().nullable(), next_company: z.string().nullable() });
export type ListPage<T> = { items: T[]; next: string | null; next_company: string | null };

// ------------------------------------------------------------------ list queries

const listQueryBase = z.object({
  company_id: idField().optional(),
  /** ALL: every company of the caller, company after company. */
  selected: z.literal('ALL').optional(),
  search_name: z.string().trim().max(100, 'At most 100 characters').optional(),
  with_external_data: queryFlag(),
  limit: z.coerce.number().int().min(1).max(50).optional(),
  next: cursorField().optional(),
  next_company: idField().optional(),
});

export const stakeholdersQuerySchema = listQueryBase.extend({ type: stakeholderTypeSchema.optional() });
export type StakeholdersQuery = z.infer<typeof stakeholdersQuerySchema>;
export const categoriesQuerySchema = listQueryBase;
export type CategoriesQuery = z.infer<typeof categoriesQuerySchema>;
export const itemsQuerySchema = listQueryBase.omit({ with_external_data: true });
export type ItemsQuery = z.infer<typeof itemsQuerySchema>;

export const idPathSchema = z.object({ id: idField() });
/** DELETE stakeholder / DELETE category: `?id=` with the company. */
export const idQuerySchema = z.object({ company_id: idField(), id: idField() });
export const companyQuerySchema = z.object({ company_id: idField() });

/** GET isNewStakeholder: does a name or code match a stakeholder of the company? */
export const isNewStakeholderQuerySchema = z.object({
  company_id: idField(),
  type: stakeholderTypeSchema,
  name: z.string().trim().max(MASTER_TEXT_MAX).optional().default(''),
  code: z.string().trim().max(MASTER_TEXT_MAX).optional().default(''),
});
export const isNewStakeholderResponseSchema = z.object({
  isNewStakeholder: z.boolean(),
  stakeholder: stakeholderSchema.nullable(),
});

// ------------------------------------------------------------------ writes

const stakeholderFields = {
  name: nameField(),
  code: requiredText(),
  vat_id: text().optional(),
  street: text().optional(),
  city: text().optional(),
  zipcode: text().optional(),
  country: countryField().optional(),
  email: text().optional(),
  delivery: text().optional(),
  /** null removes the category. */
  category_id: idField().nullable().optional(),
  selected_date_format: dateFormatSchema.nullable().optional(),
  recognise_details: z.boolean().optional(),
};

export const createStakeholderSchema = z.object({ type: stakeholderTypeSchema, ...stakeholderFields });
export type CreateStakeholderInput = z.infer<typeof createStakeholderSchema>;

/**
 * An edit's `before`: the values it started from, of the fields it changes (an edit pop-up opened before someone
 * else saved). A field whose stored value is no longer that is refused with 409 rather than overwritten; without
 * `before` (imports, API clients) the change is made as asked.
 */
const editedFrom = () => z.record(z.string().max(64), z.union([z.string().max(MASTER_TEXT_MAX), z.boolean(), z.null()])).optional();
export type EditedFrom = z.infer<ReturnType<typeof editedFrom>>;

/** PUT stakeholder: the id and only the changed fields (and what they were, `before`). */
export const updateStakeholderSchema = z
  .object({ id: idField(), ...stakeholderFields })
  .partial()
  .required({ id: true })
  .extend({ before: editedFrom() });
export type UpdateStakeholderInput = z.infer<typeof updateStakeholderSchema>;

export const createCategorySchema = z.object({ name: nameField(), category_code: text().optional().default('') });
export type CreateCategoryInput = z.infer<typeof createCategorySchema>;
/** PUT category: the id and only the changed fields (and what they were, `before`, as for a stakeholder). */
export const updateCategorySchema = z.object({ id: idField(), name: nameField().optional(), category_code: text().optional(), before: editedFrom() });
export type UpdateCategoryInput = z.infer<typeof updateCategorySchema>;

/** Item words: blank rows are dropped (rules.md 5), each kept word trimmed. */
export const itemWordsField = () =>
  z
    .array(z.string().trim().max(MASTER_TEXT_MAX, `At most ${MASTER_TEXT_MAX} characters`).check(singleLine()))
    .max(ITEM_WORDS_MAX, `At most ${ITEM_WORDS_MAX} words`)
    .transform((words) => words.map((w) => w.trim()).filter((w) => w !== ''));

export const createItemSchema = z.object({ name: nameField(), words: itemWordsField().optional().default([]) });
export type CreateItemInput = z.infer<typeof createItemSchema>;
/** PUT item: `name_id` says which item; name and words as changed. */
export const updateItemSchema = z.object({ name_id: idField(), name: nameField().optional(), words: itemWordsField().optional() });
export type UpdateItemInput = z.infer<typeof updateItemSchema>;
/** POST item/word: adds one word (`value`) to the item whose name_id is `key`. */
export const addItemWordSchema = z.object({ key: idField(), value: requiredText() });
export type AddItemWordInput = z.infer<typeof addItemWordSchema>;
/** DELETE item: `?name=` is the item's name or name_id. */
export const deleteItemQuerySchema = z.object({ company_id: idField(), name: anyRequiredText() });

// ------------------------------------------------------------------ XLSX import

export const IMPORT_TYPES = ['suppliers', 'customers', 'categories', 'items'] as const;
export const importTypeSchema = z.enum(IMPORT_TYPES);
export type ImportType = z.infer<typeof importTypeSchema>;
export const XLSX_CONTENT_TYPES = [
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.ms-excel',
] as const;

/** GET upload/import: a presigned upload of one workbook. */
export const importUploadQuerySchema = z.object({
  company_id: idField(),
  upload_type: importTypeSchema,
  content_type: z.enum(XLSX_CONTENT_TYPES, { error: 'This file type is not allowed' }),
  /** The file's size in bytes, signed into the upload URL (1 … XLSX_MAX_BYTES, checked by the service: 422). */
  size: z.coerce.number({ error: MSG.notANumber }).int(MSG.notANumber).min(0, MSG.notANumber),
  original_file_name: z.string().trim().max(255).optional(),
});

export const importRowErrorSchema = z.object({ row: z.number(), reason: z.string() });
export const importResultSchema = z.object({
  import_id: z.string(),
  upload_type: importTypeSchema,
  status: z.enum(['pending', 'processing', 'done', 'failed']),
  /** Set when the whole file was refused (not a workbook, no known header, too large…): nothing changed. */
  message: z.string().nullable(),
  total_rows: z.number(),
  created: z.number(),
  updated: z.number(),
  /** Rows whose values the record already held: nothing was written for them. */
  unchanged: z.number(),
  rejected: z.array(importRowErrorSchema),
  original_file_name: z.string(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type ImportResult = z.infer<typeof importResultSchema>;
